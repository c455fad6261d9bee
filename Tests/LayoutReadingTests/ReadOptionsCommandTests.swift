import BinaryFixtures
import Foundation
import Testing
import TypeLayout

/// Every switch that changes what a reading states is a command-line option; the only
/// environment variables still read are the documented defaults of `--remote-mirror` and
/// `--lowering-worker`.
@Suite("typeinfo's reading options", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ReadOptionsCommandTests {
    /// Runs typeinfo with `environment` added and returns the JSON document it printed.
    static func document(_ arguments: [String], environment: [String: String] = [:]) throws -> LayoutDocument {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(TypeinfoExecutable.path))
        process.arguments = arguments + ["--format", "json"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "typeinfo \(arguments) exited with \(process.terminationStatus)")
        return try LayoutDocument(jsonData: output)
    }

    static func computedFacts(_ document: LayoutDocument) -> Int {
        document.types.reduce(0) { count, type in count + type.factSources.values.filter { $0.contains(.computed) }.count }
    }

    @Test("--no-computed-layouts states no computed fact; TYPEINFO_COMPUTED_LAYOUTS no longer switches anything")
    func computedLayouts() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let full = try Self.document(["dump", fixture])
        let off = try Self.document(["dump", fixture, "--no-computed-layouts"])
        let variable = try Self.document(["dump", fixture], environment: ["TYPEINFO_COMPUTED_LAYOUTS": "0"])
        #expect(Self.computedFacts(full) > 0)
        #expect(Self.computedFacts(off) == 0)
        #expect(off.types.map(\.name) == full.types.map(\.name))
        #expect(variable == full)
    }

    @Test("--runtime-libraries names the libswiftCore.so whose witness tables give sizes; a missing one is a note")
    func runtimeLibraries() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let directory = ScratchDirectory.path(named: "runtime-libraries")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let toolchain = try #require(ToolchainRuntime.libswiftCore.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let arguments = ["dump", fixture, "--no-computed-layouts", "--no-dwarf"]
        let given = try Self.document(arguments + ["--runtime-libraries", toolchain])
        let missing = try Self.document(arguments + ["--runtime-libraries", directory])
        let unknown = "sizes of types that reuse its value witness tables are unknown"
        // Read back from JSON, the notes are their text.
        #expect(!given.image.notes.contains { $0.text.hasSuffix(unknown) })
        #expect(
            missing.image.notes.map(\.text).contains(
                "the Swift runtime library could not be read (\(directory)/libswiftCore.so: no such file): \(unknown)"))
        let known = { (document: LayoutDocument) in document.types.filter { $0.size != nil }.count }
        #expect(known(missing) < known(given))
        // The default is the toolchain this typeinfo runs on: the same as naming it.
        #expect(try Self.document(arguments) == given)
    }

    @Test("--lowering-worker names the worker; TYPEINFO_LOWERING_WORKER is its default, and the option wins")
    func loweringWorker() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let missing = "/nonexistent/typeinfo-lowering"
        let note = "the lowering worker \(missing) cannot run (No such file or directory): computed layouts are off"
        let option = try Self.document(["dump", fixture, "--lowering-worker", missing])
        let variable = try Self.document(["dump", fixture], environment: ["TYPEINFO_LOWERING_WORKER": missing])
        #expect(option.image.notes.contains { $0.text.hasPrefix(note) })
        #expect(variable.image.notes.contains { $0.text.hasPrefix(note) })
        #expect(Self.computedFacts(option) == 0)
        let worker = URL(fileURLWithPath: try #require(TypeinfoExecutable.path)).deletingLastPathComponent().path + "/typeinfo-lowering"
        let both = try Self.document(["dump", fixture, "--lowering-worker", worker], environment: ["TYPEINFO_LOWERING_WORKER": missing])
        #expect(!both.image.notes.contains { $0.text.hasPrefix(note) })
        #expect(Self.computedFacts(both) > 0)
    }
}
