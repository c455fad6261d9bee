import BinaryFixtures
import Foundation
import Testing
import TypeLayout

/// `typeinfo` in the products directory this test bundle was built into.
enum TypeinfoExecutable {
    static let path: String? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("typeinfo").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()
}

/// The `typeinfo dump` command line, run as users run it (the built `typeinfo` next to this test bundle).
@Suite("typeinfo dump, end to end", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct DumpCommandTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        try run(executable: try #require(TypeinfoExecutable.path), arguments)
    }

    /// Runs `executable` (a typeinfo copy, a script) with `arguments` and collects both streams.
    static func run(executable: String, _ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            errors: String(decoding: errors, as: UTF8.self))
    }

    @Test("--format json with filters gives a schema document with just the matching types")
    func jsonWithFilters() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let result = try Self.run(["dump", fixture, "--format", "json", "--kind", "class", "--type", "/^Fixture\\.(Base|Leaf)$/"])
        #expect(result.status == 0)
        let document = try LayoutDocument(jsonData: Data(result.output.utf8))
        #expect(document.types.map(\.name) == ["Fixture.Base", "Fixture.Leaf"])
        #expect(document.image.path == fixture)
        let substring = try LayoutDocument(
            jsonData: Data(try Self.run(["dump", fixture, "--format", "json", "--type", "Scalars"]).output.utf8))
        #expect(substring.types.map(\.name) == ["Fixture.MixedScalars"])
        let module = try LayoutDocument(jsonData: Data(try Self.run(["dump", fixture, "--format", "json", "--module", "__C"]).output.utf8))
        #expect(!module.types.isEmpty && module.types.allSatisfy { $0.module == "__C" })
    }

    @Test("--kind foreignClass selects the imported CF types of libFoundation, which --kind class leaves out")
    func foreignClassKind() throws {
        let library = "/opt/swift/usr/lib/swift/linux/libFoundation.so"
        try #require(FileManager.default.fileExists(atPath: library), "\(library) is missing")
        let foreign = try LayoutDocument(
            jsonData: Data(try Self.run(["dump", library, "--format", "json", "--no-dwarf", "--kind", "foreignClass"]).output.utf8))
        #expect(foreign.types.count >= 20 && foreign.types.allSatisfy { $0.kind == .foreignClass && $0.module == "__C" })
        #expect(foreign.types.contains { $0.name == "__C.CFArrayRef" })
        let classes = try LayoutDocument(
            jsonData: Data(try Self.run(["dump", library, "--format", "json", "--no-dwarf", "--kind", "class"]).output.utf8))
        #expect(!classes.types.isEmpty && classes.types.allSatisfy { $0.kind == .class })
    }

    @Test("text output is plain when piped, one block per type")
    func textOutput() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let result = try Self.run(["dump", fixture, "--type", "Fixture.Inner"])
        #expect(result.status == 0)
        #expect(!result.output.contains("\u{1B}["))
        #expect(result.output.contains("\nstruct Fixture.Inner  size "))
    }

    @Test("a bad path gives one line naming it and a non-zero exit; good paths are still dumped")
    func errors() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let result = try Self.run(["dump", "/nonexistent/file", fixture, "--type", "Fixture.Inner", "--format", "json"])
        #expect(result.status == 1)
        #expect(result.errors == "typeinfo: /nonexistent/file: no such file\n")
        let documents = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [Any]
        #expect(documents?.count == 1)
        let regex = try Self.run(["dump", fixture, "--type", "/[/"])
        #expect(regex.status != 0)
        #expect(regex.errors.contains("not a valid regular expression"))
    }

    @Test("a directory, an unreadable file and a truncated ELF file: one line each, naming the file and why")
    func fileErrors() throws {
        let directory = FixtureToolchain.buildDirectory
        let truncated = directory + "/dump-truncated-header"
        let header = try Data(contentsOf: URL(fileURLWithPath: try FixtureToolchain.product(.plain))).prefix(16)
        try header.write(to: URL(fileURLWithPath: truncated))
        let expected = [
            directory: "is a directory, not an ELF file",
            // Reading /proc/self/mem at offset 0 fails with EIO whoever runs the test (root included).
            "/proc/self/mem": "cannot read the file: \(String(cString: strerror(EIO)))",
            truncated: "malformed ELF file: truncated ELF header (16 bytes)",
        ]
        for (path, problem) in expected {
            let result = try Self.run(["dump", path])
            #expect(result.status == 1, "\(path)")
            #expect(result.errors == "typeinfo: \(path): \(problem)\n")
            #expect(result.output.isEmpty, "\(path)")
        }
    }

    @Test("no path dumps the typeinfo executable itself, and dump is the default subcommand")
    func dumpsItself() throws {
        for arguments in [["dump"], []] {
            let result = try Self.run(arguments + ["--format", "json", "--kind", "struct", "--module", "typeinfo"])
            #expect(result.status == 0)
            let document = try LayoutDocument(jsonData: Data(result.output.utf8))
            #expect(document.image.path.hasSuffix("/typeinfo"))
            #expect(document.types.contains { $0.name == "typeinfo.DumpCommand" })
        }
    }

    @Test("--holes adds pahole's view: hole bytes are the gaps between the dumped fields")
    func holes() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let result = try Self.run(["dump", fixture, "--type", "Fixture.MixedScalars", "--holes"])
        #expect(result.status == 0)
        let holesSection = try #require(result.output.components(separatedBy: "# holes and padding").last)
        // The oracle: gaps between consecutive fields of the same type, from the JSON dump
        // (whose offsets and sizes the fixture tests check against the program's own runtime).
        let json = try Self.run(["dump", fixture, "--type", "Fixture.MixedScalars", "--format", "json", "--kind", "struct"])
        let type = try #require(try LayoutDocument(jsonData: Data(json.output.utf8)).types.first { $0.name == "Fixture.MixedScalars" })
        var holeBytes = 0
        var end = 0
        for field in type.fields.sorted(by: { ($0.offset ?? 0) < ($1.offset ?? 0) }) {
            let offset = try #require(field.offset)
            let size = try #require(field.size)
            holeBytes += max(0, offset - end)
            end = max(end, offset + size)
        }
        #expect(holeBytes > 0, "the fixture type was chosen to have holes")
        #expect(holesSection.contains("(\(holeBytes) bytes)"), "\(holesSection)")
        let stride = try #require(type.stride)
        #expect(holesSection.contains("of \(stride) bytes"))

        let misuse = try Self.run(["dump", fixture, "--holes", "--format", "json"])
        #expect(misuse.status == 2)
        #expect(misuse.errors.contains("typeinfo layout"))
    }

    @Test("with DWARF, dump adds C types and notes where DWARF disagrees with the Swift metadata")
    func dwarfWitness() throws {
        let directory = FixtureToolchain.buildDirectory + "/dwarf-witness"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let swiftSource = directory + "/witness.swift"
        try """
        public final class Holder { var first: Int = 1; var second: Bool = false }
        print(Holder().first)
        """.write(toFile: swiftSource, atomically: true, encoding: .utf8)
        let swiftProgram = directory + "/witness"
        try FixtureToolchain.run(
            FixtureToolchain.swiftc, ["-g", "-Xfrontend", "-gdwarf-types", swiftSource, "-o", swiftProgram], in: directory)

        let result = try Self.run(["dump", swiftProgram, "--type", "Holder", "--format", "json"])
        #expect(result.status == 0)
        let document = try LayoutDocument(jsonData: Data(result.output.utf8))
        let holder = try #require(document.types.first { $0.name == "witness.Holder" })
        // The metadata's offsets are the runtime's; DWARF leaves out the object header.
        // Read back from JSON, the notes are their text.
        let disagreements = document.image.notes.map(\.text).filter { $0.hasPrefix("DWARF disagrees: witness.Holder") }
        #expect(disagreements.count == holder.fields.count, "\(document.image.notes)")
        #expect(disagreements.allSatisfy { $0.contains("using metadata") })
        let quiet = try Self.run(["dump", swiftProgram, "--type", "Holder", "--format", "json", "--no-dwarf"])
        #expect(try LayoutDocument(jsonData: Data(quiet.output.utf8)).image.notes.allSatisfy { !$0.text.hasPrefix("DWARF") })

        let cSource = directory + "/point.c"
        try "struct point { char tag; long value; };\nstruct point instance;\n".write(toFile: cSource, atomically: true, encoding: .utf8)
        let object = directory + "/point.o"
        let clang = (FixtureToolchain.swiftc as NSString).deletingLastPathComponent + "/clang"
        try FixtureToolchain.run(
            FileManager.default.isExecutableFile(atPath: clang) ? clang : "clang", ["-g", "-c", cSource, "-o", object], in: directory)
        let c = try Self.run(["dump", object, "--format", "json"])
        #expect(c.status == 0, "\(c.errors)")
        let point = try #require(try LayoutDocument(jsonData: Data(c.output.utf8)).types.first { $0.name == "struct point" })
        #expect(point.source == .dwarf)
        #expect(point.fields.map(\.name) == ["tag", "value"])
        let text = try Self.run(["dump", object])
        #expect(text.output.contains("\nstruct point  size "))
    }

    @Test("a file without Swift metadata whose DWARF cannot be read: the one line says both")
    func unreadableDWARFWithoutSwift() throws {
        let directory = FixtureToolchain.buildDirectory + "/dwarf-unreadable"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let cSource = directory + "/point.c"
        try "struct point { char tag; long value; };\nstruct point instance;\nint main(void) { return instance.tag; }\n".write(
            toFile: cSource, atomically: true, encoding: .utf8)
        let program = directory + "/point"
        let clang = (FixtureToolchain.swiftc as NSString).deletingLastPathComponent + "/clang"
        try FixtureToolchain.run(
            FileManager.default.isExecutableFile(atPath: clang) ? clang : "clang", ["-g", "-gdwarf-4", cSource, "-o", program],
            in: directory)
        // The first unit's DWARF version (bytes 4 and 5 of .debug_info) made 9, which no reader
        // knows; binutils' objcopy (from Tools/setup) takes the section out and puts it back.
        let section = directory + "/debug_info.bin"
        try FixtureToolchain.run(
            "/usr/bin/objcopy", ["--dump-section", ".debug_info=\(section)", program, directory + "/scratch"], in: directory)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: section)))
        try #require(bytes.count > 6 && bytes[4] == 4 && bytes[5] == 0)
        bytes[4] = 9
        try Data(bytes).write(to: URL(fileURLWithPath: section))
        let bad = directory + "/bad-version"
        try FixtureToolchain.run("/usr/bin/objcopy", ["--update-section", ".debug_info=\(section)", program, bad], in: directory)

        let result = try Self.run(["dump", bad])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        let expected =
            "typeinfo: \(bad): no Swift reflection sections (swift5_*): not a Swift binary, or they were stripped; "
            + "and its DWARF cannot be read: malformed DWARF at .debug_info offset 0x0: DW_DLE_VERSION_STAMP_ERROR"
        #expect(result.errors.hasPrefix(expected), "\(result.errors)")
        #expect(result.errors.filter { $0 == "\n" }.count == 1)
        // The reading entry point's error says it, so every command does (exit 2: an input error).
        let layout = try Self.run(["layout", bad, "--type", "point"])
        #expect(layout.status == 2)
        #expect(layout.errors.hasPrefix(expected), "\(layout.errors)")
        // The program with its DWARF intact is read: its C type comes from DWARF.
        let intact = try Self.run(["dump", program])
        #expect(intact.status == 0)
        #expect(intact.output.contains("\nstruct point  size "))
    }

    @Test("a plain -g build (Swift types without members in DWARF) gives one summary note, not a note per field")
    func plainDebugInfo() throws {
        let fixture = try FixtureToolchain.product(.debug)
        let result = try Self.run(["dump", fixture, "--format", "json"])
        #expect(result.status == 0)
        let notes = try LayoutDocument(jsonData: Data(result.output.utf8)).image.notes.map(\.text)
        #expect(!notes.contains { $0.hasPrefix("DWARF disagrees") && $0.contains("not in DWARF") }, "\(notes)")
        #expect(notes.contains { $0.contains("without their members (plain -g") }, "\(notes)")
    }
}
