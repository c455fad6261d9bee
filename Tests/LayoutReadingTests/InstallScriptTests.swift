import BinaryFixtures
import Foundation
import Testing

/// `Tools/install`: an installed copy of typeinfo finds its lowering worker, so it computes the
/// same layouts as the build it was copied from.
@Suite("Tools/install", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct InstallScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tools/install").path

    static func run(_ executable: String, _ arguments: [String]) throws -> DumpCommandTests.Outcome {
        try DumpCommandTests.run(executable: executable, arguments)
    }

    @Test("an installed copy computes the same layouts as the build; a lone copy says the worker is missing")
    func installedCopyFindsItsWorker() throws {
        let built = try #require(TypeinfoExecutable.path)
        let binPath = URL(fileURLWithPath: built).deletingLastPathComponent().path
        let prefix = ScratchDirectory.path(named: "typeinfo-install")
        try? FileManager.default.removeItem(atPath: prefix)
        let installed = try Self.run("/bin/bash", [Self.script, "--bin-path", binPath, prefix])
        #expect(installed.status == 0, "\(installed.errors)")
        #expect(installed.errors == "installed typeinfo and typeinfo-lowering into \(prefix)/bin\n")
        let fixture = try FixtureToolchain.product(.plain)
        let arguments = ["dump", fixture, "--format", "json"]
        let fromBuild = try Self.run(built, arguments)
        let fromCopy = try Self.run(prefix + "/bin/typeinfo", arguments)
        #expect(fromBuild.status == 0 && fromCopy.status == 0)
        #expect(fromCopy.output == fromBuild.output)
        #expect(!fromCopy.output.contains("typeinfo-lowering"))

        // The oracle can fail: a copy without its worker says so, and states less.
        let lone = prefix + "/lone"
        try FileManager.default.createDirectory(atPath: lone, withIntermediateDirectories: true)
        // Copied by another process: a file this process held open for writing could be inherited
        // by a child another test forks at that moment, and running it would fail (ETXTBSY).
        _ = try FixtureToolchain.run("/bin/cp", [built, lone + "/typeinfo"], in: lone)
        let fromLone = try Self.run(lone + "/typeinfo", arguments)
        #expect(
            fromLone.output.contains(
                "the lowering worker \(lone)/typeinfo-lowering cannot run (No such file or directory): computed layouts are off"))
        #expect(fromLone.output != fromBuild.output)

        let missing = try Self.run("/bin/bash", [Self.script, "--bin-path", lone + "/nothing", prefix])
        #expect(missing.status == 2)
        #expect(
            missing.errors
                == "install: \(lone)/nothing/typeinfo is not built; run Tools/install without --bin-path to build it\n")
    }
}
