import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import TypeLowering

/// A release executable that statically links real packages (swift-argument-parser,
/// swift-collections) and the Swift runtime, read from disk with computed layouts and checked
/// against that executable's own runtime: it prints the layout of every type the test names.
@Suite("Computed layouts of a statically linked release executable agree with its runtime")
struct StaticExecutableLoweringTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/StaticPackage").path
    /// Kept between runs (under the repository's `.build`), so only the first run compiles the packages.
    static let scratch = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/static-lowering-fixture").path
    static let mirrors = ["swift-argument-parser", "swift-collections"].map { "/opt/swift-packages/apple/\($0).git" }
    static let canBuild = mirrors.allSatisfy { FileManager.default.fileExists(atPath: $0) }

    static func product() throws -> String {
        let swift =
            ProcessInfo.processInfo.environment["SWIFT"]
            ?? ["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swift"
        try LoweringFixture.run(
            swift,
            [
                "build", "-c", "release", "--static-swift-stdlib", "--product", "StaticFixture",
                "--package-path", package, "--scratch-path", scratch,
            ])
        return scratch + "/release/StaticFixture"
    }

    /// Runs the executable with `input` on standard input; its standard output.
    static func ask(_ program: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Written from another thread: the reply can outgrow the pipe before the input is all sent.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.utf8)); try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError(message: "\(program) exited with \(process.terminationStatus)") }
        return String(decoding: output, as: UTF8.self)
    }

    @Test(
        "stated facts equal the executable's runtime; unknown facts stay rare",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"),
        .enabled(if: canBuild, "the package mirrors /opt/swift-packages/apple/{swift-argument-parser,swift-collections}.git are missing"))
    func agreesWithRuntime() throws {
        let path = try Self.product()
        let staticOnly = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let document = try mergedLayouts(of: path)
        let before = ToolchainLibraryLoweringTests.facts(staticOnly)
        let after = ToolchainLibraryLoweringTests.facts(document)
        #expect(after.unknown < before.unknown)
        #expect(
            after.unknown * 100 <= after.stated + after.unknown,
            "\(after.unknown) of \(after.stated + after.unknown) facts unknown, more than 1% (issue 9's aim)")
        #expect(
            !document.image.notes.contains(where: isDisagreement),
            "\(document.image.notes.filter(isDisagreement))")

        let types = document.types.filter { type in
            type.genericParameters.isEmpty && !type.name.contains("<") && [.struct, .enum, .class].contains(type.kind)
                && type.mangledName != nil
        }
        #expect(types.contains { $0.name == "StaticFixture.Queue" } && types.contains { $0.name.hasPrefix("ArgumentParser.") })
        var oracle: [String: (type: [Int?], fields: [String: (offset: Int, size: Int)])] = [:]
        let reply = try Self.ask(path, input: types.compactMap(\.mangledName).joined(separator: "\n") + "\n")
        for line in reply.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            if parts.first == "type", parts.count == 7 {
                oracle[parts[1]] = ([Int(parts[2]), Int(parts[3]), Int(parts[4]), Int(parts[5]), Int(parts[6])], [:])
            } else if parts.first == "field", parts.count == 5, let offset = Int(parts[3]), let size = Int(parts[4]) {
                oracle[parts[1]]?.fields[parts[2]] = (offset, size)
            }
        }
        var compared = 0
        for type in types {
            guard let mangling = type.mangledName, let truth = oracle[mangling] else { continue }
            compared += 1
            if type.kind == .class {
                if let instanceSize = type.instanceSize { #expect(instanceSize == truth.type[3], "\(type.name) instance size") }
            } else {
                if let size = type.size { #expect(size == truth.type[0], "\(type.name) size") }
                if let alignment = type.alignment { #expect(alignment == truth.type[1], "\(type.name) alignment") }
                if let stride = type.stride { #expect(stride == truth.type[2], "\(type.name) stride") }
            }
            guard type.kind != .enum, type.module != "__C" else { continue }
            for field in type.fields {
                // Zero-sized fields have no storage to compare; the runtime reflects Builtin
                // vector and literal fields as `()`, and weak/unowned fields as their referent.
                guard let known = truth.fields[field.name], field.size != 0, !field.type.hasPrefix("Builtin.") else { continue }
                if let offset = field.offset { #expect(offset == known.offset, "\(type.name).\(field.name) offset") }
                if let size = field.size, field.ownership == .strong { #expect(size == known.size, "\(type.name).\(field.name) size") }
            }
        }
        #expect(compared * 10 >= types.count * 9, "only \(compared) of \(types.count) types could be looked up in the executable")
        print(
            "static executable: \(compared) of \(types.count) types compared with its runtime; unknown facts \(before.unknown) of \(before.stated + before.unknown) -> \(after.unknown) of \(after.stated + after.unknown)"
        )
    }
}
