import BinaryFixtures
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every way a live reading fails is one line naming the target and what to do, and exit status 2.
@Suite("typeinfo heap failures", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct HeapCommandFailureTests {
    static func expectFailure(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try DumpCommandTests.run(["heap"] + arguments)
        #expect(result.status == 2, sourceLocation: sourceLocation)
        #expect(result.errors == "typeinfo: " + message + "\n", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, sourceLocation: sourceLocation)
    }

    /// Starts `program` without reaping it, so that it stays a zombie once it exits.
    static func spawnUnreaped(_ program: String, _ arguments: [String]) -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        posix_spawn(&pid, program, nil, nil, argv, environ)
        return pid
    }

    @Test func missingExitedAndNonSwiftProcesses() throws {
        try Self.expectFailure(["2147483000"], "process 2147483000: no such process")
        let sleeper = Self.spawnUnreaped("/bin/sleep", ["100"])
        defer {
            kill(sleeper, SIGKILL)
            waitpid(sleeper, nil, 0)
        }
        try Self.expectFailure(
            [String(sleeper)], "process \(sleeper): not a Swift process: none of the images it has loaded holds Swift metadata")
        let exited = Self.spawnUnreaped("/bin/true", [])
        defer { waitpid(exited, nil, 0) }
        while (try? String(contentsOfFile: "/proc/\(exited)/stat", encoding: .utf8))?.contains(") Z ") != true { usleep(1000) }
        try Self.expectFailure([String(exited)], "process \(exited): the process exited while it was being read")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && geteuid() == 0, "needs root and setpriv"))
    func anotherUsersProcessIsRefusedWithTheReason() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let typeinfo = try #require(TypeinfoExecutable.path)
        let result = try DumpCommandTests.run(
            executable: "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", typeinfo, "heap", String(fixture.processID)])
        #expect(result.status == 2)
        #expect(
            result.errors
                == "typeinfo: process \(fixture.processID): permission denied: the process belongs to user 0 and typeinfo runs as user 65534; run it as that user, or as root (CAP_SYS_PTRACE)\n"
        )
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func brokenCoresAndMissingBinaries() throws {
        let directory = ScratchDirectory.path(named: "heap-failures")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/server"
        let fixture = try LiveHeapFixture(runningCopyAt: copy)
        defer { fixture.finish() }
        let core = try CoreDump.make(of: fixture.processID)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: core))

        let truncated = directory + "/truncated.core"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let result = try DumpCommandTests.run(["heap", truncated])
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("typeinfo: \(truncated): truncated core file: "), "\(result.errors)")
        #expect(result.errors.hasSuffix("\n") && result.errors.split(separator: "\n").count == 1)

        var foreign = bytes
        foreign[18] = 183  // e_machine: AArch64
        foreign[19] = 0
        let foreignPath = directory + "/aarch64.core"
        try foreign.write(to: URL(fileURLWithPath: foreignPath))
        try Self.expectFailure(
            [foreignPath],
            "\(foreignPath): unsupported ELF file: a core of an aarch64 process; this typeinfo reads x86_64 cores (run it on the machine the core came from)"
        )

        // The executable moves away: the core names it, and --image-path finds it by build id.
        let moved = directory + "/moved"
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: copy, toPath: moved + "/server")
        let missing = try DumpCommandTests.run(["heap", core])
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("typeinfo: \(core): the target had \(copy) (build id "), "\(missing.errors)")
        #expect(
            missing.errors.hasSuffix(
                "mapped, and no such file is on disk (moved or deleted); give the directory that holds it with --image-path DIR\n"))
        let found = try DumpCommandTests.run(["heap", core, "--image-path", moved, "--format", "json"])
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output.contains(#""type" : "LiveHeap.Order""#))
    }

    @Test func aBaselineThatIsNotACensus() throws {
        let path = ScratchDirectory.path(named: "heap-bad-baseline") + ".json"
        try Data(#"{"types":[]}"#.utf8).write(to: URL(fileURLWithPath: path))
        try Self.expectFailure(
            ["1", "--baseline", path],
            "\(path): not a typeinfo heap census (write one with `typeinfo heap --format json`): missing key 'schemaVersion' at $")
        try Self.expectFailure(
            ["1", "--baseline", path + ".missing"], "\(path).missing: cannot read the baseline (no such file, or not readable)")
    }
}
