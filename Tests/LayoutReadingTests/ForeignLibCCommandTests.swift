import BinaryFixtures
import Foundation
import Testing

/// `typeinfo heap`, `object` and `tasks` of a process in a container: the fixtures (linked with
/// `-static-stdlib`, so that the root needs no Swift runtime) run in a Debian 13 root as in a
/// container (a mount namespace whose root it is), whose glibc (2.41) is another file than the
/// host's at the same path; and a core of one,
/// read on the host with `--image-path ROOT`. The fixtures' own reports are the oracles.
@Suite(
    "typeinfo of a process with another glibc (a Debian 13 root)",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ForeignLibCCommandTests {
    static func root() throws -> String { try DebianRoot.path(DebianRoot.trixie).get() }

    @Test func heapAndObjectsOfAProcessInAContainer() throws {
        let root = try Self.root()
        let fixture = try LiveHeapFixture(inRoot: root)
        defer { fixture.finish() }
        let target = String(fixture.processID)
        HeapCommandTests.expectFixtureTypes(try HeapCommandTests.census([target]), fixture.report, "process in a root")
        try ObjectCommandTests.checkSamples(target, fixture.report)
    }

    @Test func tasksAndThreadsOfAProcessInAContainer() throws {
        let fixture = try LiveTasksFixture(inRoot: try Self.root())
        defer { fixture.finish() }
        // Threads are read with the root's libthread_db: the host's refuses glibc 2.41 (TD_VERSION).
        TasksCommandTests.expectFixtureState(try TasksCommandTests.report([String(fixture.processID)]), fixture.report, "process in a root")
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func aCoreOfItIsReadWithTheRootAsImagePath() throws {
        let root = try Self.root()
        let fixture = try LiveTasksFixture(inRoot: root)
        defer { fixture.finish() }
        let core = try CoreDump.make(of: fixture.processID)
        // Its files are named by their paths in the root; on the host those are other files, or none.
        let refused = try DumpCommandTests.run(["tasks", core])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("give the directory that holds"), "\(refused.errors)")
        TasksCommandTests.expectFixtureState(
            try TasksCommandTests.report([core, "--image-path", root]), fixture.report, "core, --image-path")
        // Its files copied flat into one directory, without the root's libthread_db: the host's is
        // refused (TD_VERSION), and the report says where the target's would be looked for.
        let flat = ScratchDirectory.path(named: "flat-root")
        try FileManager.default.createDirectory(atPath: flat, withIntermediateDirectories: true)
        // Read by cat: Foundation reads a /proc file (of size 0) only in part.
        let maps = try FixtureToolchain.run("/bin/cat", ["/proc/\(fixture.processID)/maps"], in: "/")
        let mapped = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        for path in mapped where path.hasPrefix("/") {
            let copy = flat + "/" + (path.split(separator: "/").last.map(String.init) ?? "")
            // cp follows the root's symbolic links (ld.so's is one), which name files in the root.
            if !FileManager.default.fileExists(atPath: copy) { try FixtureToolchain.run("/bin/cp", [root + path, copy], in: "/") }
        }
        let unread = try TasksCommandTests.report([core, "--image-path", flat])
        TasksCommandTests.expectFixtureState(unread, fixture.report, "core, flat --image-path", threadsRead: false)
        let reason = try #require(unread.threadsUnread)
        #expect(reason.hasPrefix("libthread_db: "), "\(reason)")
        #expect(reason.contains("(TD_VERSION)"), "\(reason)")
        #expect(
            reason.hasSuffix(
                "none found is of the target's glibc: give the directory that holds its libthread_db.so.1 (or a copy of its root) with --image-path DIR"
            ), "\(reason)")
    }
}

/// A process whose `malloc` is jemalloc's or tcmalloc's (`LD_PRELOAD`): its allocations are not
/// glibc's, and the commands that read the heap say which allocator it is instead of advising
/// `--pause`.
@Suite(
    "typeinfo of a process using another allocator", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ForeignAllocatorCommandTests {
    static let libraries = "/usr/lib/x86_64-linux-gnu/"

    @Test(arguments: [("jemalloc", "libjemalloc.so.2"), ("tcmalloc", "libtcmalloc.so.4")])
    func theAllocatorIsNamed(_ allocator: String, _ file: String) throws {
        let library = Self.libraries + file
        try #require(FileManager.default.fileExists(atPath: library), "\(library) is not installed: run Tools/setup")
        let fixture = try LiveTasksFixture(.dynamic, environment: ["LD_PRELOAD": library])
        defer { fixture.finish() }
        // The memory map names the file the link resolves to.
        let mapped = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
        let expected =
            "typeinfo: process \(fixture.processID): its malloc is \(allocator) (\(mapped)), not glibc's; typeinfo reads only glibc's heap, where it finds objects and tasks, so their allocations cannot be listed\n"
        let result = try DumpCommandTests.run(["heap", String(fixture.processID)])
        #expect(result.status == 2)
        #expect(result.errors == expected)
        #expect(!result.errors.contains("--pause"))
    }

    /// `tasks` lists the tasks the threads run (found from the threads, not the heap): the
    /// fixture's holder, on the thread it printed, and says that parked tasks and actors are not
    /// listed, naming the allocator.
    @Test(arguments: [("jemalloc", "libjemalloc.so.2"), ("tcmalloc", "libtcmalloc.so.4")])
    func tasksListsTheRunningTasks(_ allocator: String, _ file: String) throws {
        let library = Self.libraries + file
        try #require(FileManager.default.fileExists(atPath: library), "\(library) is not installed: run Tools/setup")
        let fixture = try LiveTasksFixture(.dynamic, environment: ["LD_PRELOAD": library])
        defer { fixture.finish() }
        let mapped = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
        let json = try DumpCommandTests.run(["tasks", String(fixture.processID), "--format", "json"])
        #expect(json.status == 0, "\(json.errors)")
        let report = try JSONDecoder().decode(Report.self, from: Data(json.output.utf8))
        #expect(report.tasks.map(\.address) == [fixture.report.holder])
        #expect(report.tasks.first?.state == "running")
        #expect(report.tasks.first?.thread == fixture.report.holderThread)
        #expect(report.actors.isEmpty)
        #expect(report.heapNotWalked?.allocator == allocator)
        #expect(report.heapNotWalked?.image == mapped)
        #expect((report.heapNotWalked?.threads ?? 0) >= 1)

        let text = try DumpCommandTests.run(["tasks", String(fixture.processID)])
        #expect(text.status == 0, "\(text.errors)")
        // The runtime's pool starts and ends threads: each reading counts its own.
        let prefix = "only the tasks running on its "
        let suffix =
            " threads are listed: parked tasks and actors are found by walking the heap, and its malloc is \(allocator) (\(mapped)), not glibc's, whose heap is the one typeinfo reads"
        let line = text.output.split(separator: "\n").first { $0.hasPrefix(prefix) }
        #expect(line?.hasSuffix(suffix) == true, "\(text.output)")
        #expect(line.flatMap { Int($0.dropFirst(prefix.count).dropLast(suffix.count)) }.map { $0 >= 1 } == true, "\(text.output)")
        #expect(text.output.contains("\n1 running task, 0 cancelled; actors not read\n"), "\(text.output)")
    }

    struct Report: Decodable {
        struct Task: Decodable {
            var address: String
            var state: String
            var thread: Int32?
        }
        struct Actor: Decodable { var address: String }
        struct HeapNotWalked: Decodable {
            var allocator: String
            var image: String
            var threads: Int?
        }
        var tasks: [Task]
        var actors: [Actor]
        var heapNotWalked: HeapNotWalked?
    }
}
