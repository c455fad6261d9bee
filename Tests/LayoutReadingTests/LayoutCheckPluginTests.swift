import Foundation
import Testing
import TypeLayout

// `swift package layout-check` run as a user runs it: on a small package, made in a temporary
// directory, that depends on this one by path. One test (record, check, a breaking change),
// because every fixture package build also builds typeinfo itself: a few minutes.

/// This package's root: three levels above this file.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// `swift` beside the toolchain's swiftc.
private let swift: String = {
    let beside = URL(fileURLWithPath: CheckFixture.swiftc).deletingLastPathComponent().appendingPathComponent("swift").path
    return FileManager.default.isExecutableFile(atPath: beside) ? beside : "swift"
}()

private func manifest() -> String {
    """
    // swift-tools-version: 6.0
    import PackageDescription
    let package = Package(
        name: "Shapes",
        dependencies: [.package(path: "\(packageRoot)")],
        targets: [.executableTarget(name: "Shapes")]
    )
    """
}

/// The fixture's only type, and a main that prints the type's own layout (the oracle).
private func source(fields: String) -> String {
    """
    public struct Packet { \(fields) }
    let packet = Packet()
    withUnsafeBytes(of: packet) { _ in }
    print("{\\"size\\": \\(MemoryLayout<Packet>.size), \\"stride\\": \\(MemoryLayout<Packet>.stride), \
    \\"b\\": \\(MemoryLayout<Packet>.offset(of: \\Packet.b)!)}")
    """
}

/// The changed declaration, compiled here: where `b` moves to.
private struct Moved { var a: UInt8; var inserted: Int64; var b: Int64 }

private struct PrintedLayout: Decodable { var size: Int; var stride: Int; var b: Int }

@Suite(
    .serialized,
    .enabled(
        if: FileManager.default.fileExists(atPath: packageRoot + "/Package.swift"),
        "needs this package's sources beside the test (\(packageRoot))"))
struct LayoutCheckPluginTests {
    @Test func recordsChecksAndCatchesABreakingChange() throws {
        let directory = NSTemporaryDirectory() + "typeinfo-plugin-fixture-\(ProcessInfo.processInfo.processIdentifier)"
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            // SwiftPM also leaves lock files in the temporary directory, named after the
            // package's path: `/tmp/fixture/.build` -> `/tmp/_tmp_fixture_.build.lock`.
            let locks = directory.replacingOccurrences(of: "/", with: "_") + "_"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? [] where name.hasPrefix(locks) {
                try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + name)
            }
        }
        let sources = directory + "/Sources/Shapes"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        try Data(manifest().utf8).write(to: URL(fileURLWithPath: directory + "/Package.swift"))
        let main = URL(fileURLWithPath: sources + "/main.swift")
        try Data(source(fields: "public var a: UInt8 = 0; public var b: Int64 = 0").utf8).write(to: main)

        func layoutCheck(_ arguments: [String]) throws -> CheckFixture.Output {
            try CheckFixture.run(swift, ["package", "--allow-writing-to-package-directory", "layout-check"] + arguments, in: directory)
        }

        // --record writes the snapshot, whose numbers are the release binary's own.
        let record = try layoutCheck(["--record"])
        try #require(record.status == 0, "\(record.output)\n\(record.error)")
        let snapshot = try LayoutSnapshot(jsonData: Data(contentsOf: URL(fileURLWithPath: directory + "/layouts/Shapes.json")))
        let printed = try JSONDecoder().decode(
            PrintedLayout.self,
            from: Data(
                CheckFixture.run(directory + "/.build/release/Shapes", [], in: directory).output.utf8))
        let packet = try #require(snapshot.types.first { $0.name == "Shapes.Packet" }, "\(snapshot.types.map(\.name))")
        #expect(packet.size == printed.size && packet.stride == printed.stride)
        #expect(packet.fields.first { $0.name == "b" }?.offset == printed.b)

        // Unchanged: the check passes.
        let same = try layoutCheck([])
        #expect(same.status == 0, "\(same.output)\n\(same.error)")

        // A field inserted before `b` moves it: the check fails, names the change and says what to do.
        try Data(source(fields: "public var a: UInt8 = 0; public var inserted: Int64 = 0; public var b: Int64 = 0").utf8).write(to: main)
        let changed = try layoutCheck(["--", "--exit-status", "bits"])
        #expect(changed.status != 0)
        #expect(changed.output.contains("Shapes.Packet") && changed.output.contains("BREAKING"), "\(changed.output)")
        #expect(
            changed.error.contains("layout-check: typeinfo check found layout changes against layouts/Shapes.json (exit status 12)"),
            "\(changed.error)")
        let moved = try #require(MemoryLayout<Moved>.offset(of: \Moved.b))
        #expect(changed.output.contains("field 'b' moved: offset \(printed.b) -> \(moved)"), "\(changed.output)")

        let unknown = try layoutCheck(["--recrod"])
        #expect(
            unknown.status != 0 && unknown.error.contains("layout-check: unknown argument '--recrod'; options for typeinfo go after `--`"),
            "\(unknown.error)")
    }
}
