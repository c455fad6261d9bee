import BinaryFixtures
import Foundation
import Testing

/// `typeinfo tasks`: what the LiveTasks fixture set up and printed (its tasks' and actors'
/// addresses as the runtime gives them, its counts, its park functions' names as the runtime's
/// demangler spells them) is the oracle, by PID and from a gcore core of the same process.
///
/// The tasks expected are every task the fixture made, all of them alive: the parked ones, the
/// group's children and the two `async let` children (suspended forever), their owners (waiting
/// for them), the holder (running on the Teller, blocked, on a thread whose id it printed), the
/// waiters (enqueued on the Teller, not yet started), and the completed tasks whose handles it
/// keeps (some returned, some threw).
/// The main thread's top-level code is not a task.
@Suite("typeinfo tasks", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct TasksCommandTests {
    struct Task: Decodable {
        var address: String
        var state: String
        var resumeFunction: String?
        var priority: Int
        var isCancelled: Bool
        var parent: String?
        var children: [String]
        var actor: String?
        var thread: Int32?
    }

    struct Actor: Decodable {
        var address: String
        var type: String?
        var state: String
        var queuedJobs: Int
    }

    struct Report: Decodable {
        var schemaVersion: Int
        var tasks: [Task]
        var actors: [Actor]
        var threadsUnread: String?
    }

    /// Every task the fixture made: parked, group children, two `async let` children, the two
    /// owners, the holder, the waiters and the completed ones.
    static func taskCount(_ fixture: LiveTasksReport) -> Int {
        fixture.parked + fixture.children + fixture.letChildren.count + 3 + fixture.waiters + fixture.returnedTasks.count
            + fixture.threwTasks.count
    }

    static func report(_ arguments: [String]) throws -> Report {
        let result = try DumpCommandTests.run(["tasks"] + arguments + ["--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        return try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))
    }

    /// Every count, state, cancellation, parent link, resume function, actor and thread the fixture
    /// set up (`threadsRead`: whether the threads can be read, so that the holder's thread and
    /// actor are known).
    static func expectFixtureState(_ report: Report, _ fixture: LiveTasksReport, _ source: String, threadsRead: Bool = true) {
        #expect(report.schemaVersion == 2)
        let tasks = Dictionary(report.tasks.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(tasks.count == report.tasks.count, "\(source): a task listed twice")
        let expectedCount = Self.taskCount(fixture)
        #expect(report.tasks.count == expectedCount, "\(source)")

        let parked = fixture.parkedTasks.compactMap { tasks[$0] }
        #expect(parked.count == fixture.parked, "\(source): parked tasks found")
        #expect(parked.allSatisfy { $0.state == "suspended" && $0.resumeFunction == fixture.parkedFunction }, "\(source)")
        #expect(parked.filter(\.isCancelled).count == fixture.cancelled, "\(source)")
        // Priorities as each task read its own; the fixture uses two.
        #expect(Set(fixture.parkedPriorities).count == 2, "\(fixture.parkedPriorities)")
        for (address, priority) in zip(fixture.parkedTasks, fixture.parkedPriorities) {
            #expect(tasks[address]?.priority == priority, "\(source): priority of \(address)")
        }
        #expect(report.tasks.filter(\.isCancelled).count == fixture.cancelled, "\(source): only parked tasks were cancelled")

        let children = fixture.childTasks.compactMap { tasks[$0] }
        #expect(children.count == fixture.children, "\(source): children found")
        #expect(children.allSatisfy { $0.parent == fixture.groupOwner && $0.resumeFunction == fixture.childFunction }, "\(source)")
        let owner = tasks[fixture.groupOwner]
        #expect(Set(owner?.children ?? []) == Set(fixture.childTasks), "\(source)")
        #expect(owner?.state == "suspended", "\(source)")
        #expect(children.allSatisfy { $0.state == "suspended" }, "\(source)")

        let letChildren = fixture.letChildren.compactMap { tasks[$0] }
        #expect(letChildren.count == 2, "\(source): async let children found")
        #expect(letChildren.allSatisfy { $0.parent == fixture.letOwner && $0.resumeFunction == fixture.letFunction }, "\(source)")
        #expect(Set(tasks[fixture.letOwner]?.children ?? []) == Set(fixture.letChildren), "\(source)")
        #expect(letChildren.allSatisfy { $0.state == "suspended" } && tasks[fixture.letOwner]?.state == "suspended", "\(source)")

        // Completed, whether they returned or threw; they resume nowhere.
        let completed = (fixture.returnedTasks + fixture.threwTasks).compactMap { tasks[$0] }
        #expect(fixture.returnedTasks.count == 3 && fixture.threwTasks.count == 2)
        #expect(completed.count == fixture.returnedTasks.count + fixture.threwTasks.count, "\(source): completed tasks found")
        #expect(completed.allSatisfy { $0.state == "completed" && $0.resumeFunction == nil && $0.thread == nil }, "\(source)")
        #expect(report.tasks.filter { $0.state == "completed" }.count == completed.count, "\(source)")
        #expect(!report.tasks.contains { $0.state == "suspendedOrCompleted" || $0.state == "unknown" }, "\(source)")

        // The holder runs on the Teller, on the thread it printed: the thread's current task and
        // active executor, and the actor's own state, agree.
        let holder = tasks[fixture.holder]
        #expect(holder?.state == "running" && holder?.resumeFunction == nil, "\(source)")
        if threadsRead {
            #expect(report.threadsUnread == nil, "\(source)")
            #expect(holder?.thread == fixture.holderThread, "\(source)")
            #expect(holder?.actor == fixture.busyActor, "\(source)")
        } else {
            #expect(holder?.thread == nil && holder?.actor == nil, "\(source)")
        }
        #expect(report.tasks.filter { $0.thread != nil }.count == (threadsRead ? 1 : 0), "\(source): only the holder runs")

        // The waiters are the tasks the fixture did not record: exactly those on the Teller's queue.
        let known = Set(
            fixture.parkedTasks + fixture.childTasks + fixture.letChildren + fixture.returnedTasks + fixture.threwTasks
                + [fixture.groupOwner, fixture.letOwner, fixture.holder])
        let waiters = report.tasks.filter { !known.contains($0.address) }
        #expect(waiters.count == fixture.waiters, "\(source)")
        #expect(waiters.allSatisfy { $0.state == "enqueued" && $0.actor == fixture.busyActor }, "\(source)")
        #expect(report.tasks.filter { $0.actor != nil }.count == fixture.waiters + (threadsRead ? 1 : 0), "\(source)")

        let actors = Dictionary(report.actors.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(report.actors.map(\.address)) == Set(fixture.idleActors + [fixture.busyActor]), "\(source)")
        for address in fixture.idleActors {
            let actor = actors[address]
            #expect(actor?.type == fixture.idleActorType && actor?.state == "idle" && actor?.queuedJobs == 0, "\(source): \(address)")
        }
        let busy = actors[fixture.busyActor]
        #expect(busy?.type == fixture.busyActorType && busy?.state == "running", "\(source)")
        #expect(busy?.queuedJobs == fixture.waiters, "\(source)")
    }

    @Test(arguments: FixtureLinking.allCases)
    func readsEveryTaskAndActorByProcessAndFromItsCore(_ linking: FixtureLinking) throws {
        let fixture = try LiveTasksFixture(linking)
        defer { fixture.finish() }
        Self.expectFixtureState(try Self.report([String(fixture.processID)]), fixture.report, "process")
        Self.expectFixtureState(try Self.report([String(fixture.processID), "--pause"]), fixture.report, "paused process")
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        Self.expectFixtureState(try Self.report([core]), fixture.report, "core")
    }

    @Test func summaryGroupsByResumeFunctionLargestFirst() throws {
        let fixture = try LiveTasksFixture()
        defer { fixture.finish() }
        let report = fixture.report
        let result = try DumpCommandTests.run(["tasks", String(fixture.processID)])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let total = Self.taskCount(report)
        // Read while it ran: the heading, then what changed under the reading.
        #expect(lines[1].hasPrefix("changed while read: "))
        #expect(lines[3] == "\(total) tasks, \(report.cancelled) cancelled; \(report.idleActors.count + 1) actors")
        #expect(lines[5] == "\(report.parked) tasks suspended in \(report.parkedFunction), \(report.cancelled) cancelled")
        #expect(lines[6] == "\(report.children) tasks suspended in \(report.childFunction), 0 cancelled")
        #expect(lines[7] == "\(report.returnedTasks.count + report.threwTasks.count) tasks completed, 0 cancelled")
        #expect(lines.contains("1 task running, 0 cancelled"))
        #expect(!result.output.contains("threads not read"))
        #expect(lines.contains("\(report.idleActors.count) actors \(report.idleActorType) idle"))
        #expect(lines.contains("1 actor \(report.busyActorType) running, \(report.waiters) queued jobs"))

        let all = try DumpCommandTests.run(["tasks", String(fixture.processID), "--all"])
        let taskLines = all.output.split(separator: "\n").filter { $0.hasPrefix("task ") }
        #expect(taskLines.count == total)
        let holder = taskLines.first { $0.hasPrefix("task \(report.holder),") }
        #expect(holder?.contains(", running, ") == true && holder?.contains("next runs") == false)
        #expect(holder?.hasSuffix(", on actor \(report.busyActor), thread \(report.holderThread)") == true, "\(holder ?? "")")
        let completed = taskLines.filter { $0.contains(", completed, ") }
        #expect(completed.count == report.returnedTasks.count + report.threwTasks.count)
        #expect(completed.allSatisfy { !$0.contains("next runs") })
        #expect(all.output.split(separator: "\n").filter { $0.hasPrefix("actor ") }.count == report.idleActors.count + 1)
    }

    /// A concurrency runtime without its symbol table (a stripped copy, loaded through
    /// LD_LIBRARY_PATH): its thread-local variables cannot be found, so no running task is given a
    /// thread or an actor, and the report says why; everything else is read as before.
    @Test func aStrippedRuntimeLeavesThreadsUnknown() throws {
        let original = "/opt/swift/usr/lib/swift/linux/libswift_Concurrency.so"
        try #require(FileManager.default.fileExists(atPath: original), "the toolchain's libswift_Concurrency.so is not at \(original)")
        let directory = ScratchDirectory.path(named: "stripped-concurrency")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/libswift_Concurrency.so"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: "/usr/bin/strip")
        strip.arguments = ["--strip-all", copy]
        try strip.run()
        strip.waitUntilExit()
        try #require(strip.terminationStatus == 0)

        let fixture = try LiveTasksFixture(.dynamic, environment: ["LD_LIBRARY_PATH": directory + ":/opt/swift/usr/lib/swift/linux"])
        defer { fixture.finish() }
        let report = try Self.report([String(fixture.processID)])
        Self.expectFixtureState(report, fixture.report, "stripped runtime", threadsRead: false)
        // The reason names the copy: the fixture loaded it.
        let reason = "\(copy) has no symbol for the runtime's thread-local current task and executor (stripped?)"
        #expect(report.threadsUnread == reason)
        let text = try DumpCommandTests.run(["tasks", String(fixture.processID)])
        #expect(text.output.hasSuffix("\n\nthreads not read (running tasks' threads and actors unknown): \(reason)\n"))
    }

    /// A worker that crashes when asked for the threads (what a damaged core's thread list could
    /// do to libthread_db), or exits without answering, costs the threads only (a stand-in script
    /// passes every other line to the real worker, through a FIFO, batch after batch): the report
    /// stands, running tasks have no thread, and it says why.
    @Test(arguments: [
        ("kill -SEGV $$", "the worker reading them crashed (signal 11)"),
        ("exit 0", "the worker reading them exited without answering"),
    ])
    func aWorkerFailingOnTheThreadsCostsTheThreadsOnly(_ failure: String, _ reason: String) throws {
        let typeinfo = try #require(TypeinfoExecutable.path)
        let worker = URL(fileURLWithPath: typeinfo).deletingLastPathComponent().appendingPathComponent("typeinfo-lowering").path
        let directory = ScratchDirectory.path(named: failure.hasPrefix("exit") ? "threads-exit" : "threads-crash")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/worker.sh"
        let text = """
            #!/bin/sh
            fifo="$0.$$.fifo"
            mkfifo "$fifo"
            "\(worker)" < "$fifo" &
            exec 3> "$fifo"
            rm -f "$fifo"
            while IFS= read -r line; do
              case "$line" in
                "threads "*) \(failure);;
              esac
              printf '%s\\n' "$line" >&3
            done
            exec 3>&-
            wait
            """
        _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])

        let fixture = try LiveTasksFixture()
        defer { fixture.finish() }
        let result = try DumpCommandTests.run(["tasks", String(fixture.processID), "--format", "json", "--lowering-worker", script])
        #expect(result.status == 0, "\(result.errors)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.output.utf8))
        Self.expectFixtureState(report, fixture.report, "threads worker failed", threadsRead: false)
        #expect(report.threadsUnread == reason)
    }

    @Test func aProcessWithoutTheConcurrencyRuntimeIsOneLine() throws {
        // The live-heap fixture linked with -static-stdlib holds no concurrency runtime: it uses none.
        let fixture = try LiveHeapFixture(.staticStdlib)
        defer { fixture.finish() }
        let result = try DumpCommandTests.run(["tasks", String(fixture.processID)])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.errors
                == "typeinfo: process \(fixture.processID): not using Swift concurrency: libswift_Concurrency is not loaded, and its executable holds none of the concurrency runtime's code (no entry point that makes a task, an actor or a continuation)\n"
        )
    }

    @Test func notASwiftProcessIsOneLine() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer { sleeper.terminate() }
        let result = try DumpCommandTests.run(["tasks", String(sleeper.processIdentifier)])
        #expect(result.status == 2)
        #expect(
            result.errors
                == "typeinfo: process \(sleeper.processIdentifier): not a Swift process: none of the images it has loaded holds Swift metadata\n"
        )
    }

    /// A reflection library of another build (the toolchain's, with one byte of its build id
    /// changed) is refused before any task is read.
    @Test func anUnverifiedRemoteMirrorIsRefused() throws {
        let original = "/opt/swift/usr/lib/swift/linux/libswiftRemoteMirror.so"
        try #require(FileManager.default.fileExists(atPath: original), "the toolchain's libswiftRemoteMirror.so is not at \(original)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        let buildID = try #require(try Self.buildID(of: bytes))
        bytes[buildID.offset] ^= 0xFF
        let directory = ScratchDirectory.path(named: "unverified-mirror")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/libswiftRemoteMirror.so"
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        var changed = buildID.bytes
        changed[0] ^= 0xFF
        let hex = changed.map { String(format: "%02x", $0) }.joined()

        let fixture = try LiveTasksFixture()
        defer { fixture.finish() }
        let result = try DumpCommandTests.run(["tasks", String(fixture.processID), "--remote-mirror", copy])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.errors
                == "typeinfo: \(copy) (build id \(hex)) is not a libswiftRemoteMirror whose task and actor layouts typeinfo has verified (Swift 6.3.1's); its task states could be misread, so none are printed\n"
        )
        // The same copy still names types: only the task layouts are refused.
        #expect(try DumpCommandTests.run(["heap", String(fixture.processID), "--remote-mirror", copy]).status == 0)
    }

    /// The GNU build-id note's descriptor in an ELF file's bytes, found by its header
    /// (namesz 4, type 3, "GNU\0"), read as readelf -n shows it.
    static func buildID(of bytes: [UInt8]) throws -> (offset: Int, bytes: [UInt8])? {
        let header: [UInt8] = [4, 0, 0, 0]
        var index = 0
        while index + 16 < min(bytes.count, 4096) {
            if Array(bytes[index..<index + 4]) == header, Array(bytes[index + 8..<index + 16]) == [3, 0, 0, 0, 0x47, 0x4E, 0x55, 0] {
                let size = Int(bytes[index + 4])
                return (index + 16, Array(bytes[index + 16..<index + 16 + size]))
            }
            index += 4
        }
        return nil
    }
}
