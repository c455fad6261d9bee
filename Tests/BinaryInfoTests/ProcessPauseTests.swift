import BinaryFixtures
import Foundation
import Synchronization
import Testing

@testable import BinaryInfo

/// `--pause`: every thread stops, and the process runs again afterwards whatever happens to the reader.
/// (Killing typeinfo and its process group mid-pause: `PauseSurvivalTests`.)
@Suite struct ProcessPauseTests {
    /// The process's thread states once they settle (a stop or a resume takes effect asynchronously).
    static func states(of processID: Int32, until done: ([Character]) -> Bool) throws -> [Character] {
        var states = try ProcessPause.threadStates(processID: processID)
        for _ in 0..<2000 where !done(states) {
            usleep(1000)
            states = try ProcessPause.threadStates(processID: processID)
        }
        return states
    }

    /// `T`: stopped by a signal; `t`: held by a tracer (the pause).
    static func stopped(_ states: [Character]) -> Bool { states.allSatisfy { $0 == "T" || $0 == "t" } }
    static func running(_ states: [Character]) -> Bool { !states.contains("T") && !states.contains("t") }

    @Test func everyThreadStopsAndRunsAgain() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let pause = try ProcessPause(processID: fixture.processID)
        #expect(pause.stoppedIt)
        let during = try ProcessPause.threadStates(processID: fixture.processID)
        #expect(during.count == fixture.report.threads)
        #expect(during.allSatisfy { $0 == "t" }, "\(during)")
        #expect(pause.stopLength == nil)
        pause.resume()
        #expect(pause.stopLength.map { $0 > .zero } == true)
        #expect(Self.running(try Self.states(of: fixture.processID, until: Self.running)))
        #expect(ProcessAccess.tracer(of: fixture.processID) == nil)
        // Still the same process, and it answers.
        #expect(try fixture.grow().pid == fixture.processID)
    }

    @Test func aProcessStoppedBeforeStaysStopped() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        kill(target.processID, SIGSTOP)
        #expect(Self.stopped(try Self.states(of: target.processID, until: Self.stopped)))
        let pause = try ProcessPause(processID: target.processID)
        #expect(!pause.stoppedIt)
        pause.resume()
        usleep(100_000)
        #expect(Self.stopped(try ProcessPause.threadStates(processID: target.processID)))
        kill(target.processID, SIGCONT)
    }

    /// A ptrace stop belongs to the tracing thread: when it ends without letting go (as when
    /// typeinfo is killed), the kernel lets the process run.
    @Test func theProcessRunsWhenTheTracerEndsWithoutResuming() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let processID = target.processID
        let held = Mutex<[Character]>([])
        let thread = Thread {
            guard let pause = try? ProcessPause(processID: processID) else { return }
            held.withLock { $0 = (try? ProcessPause.threadStates(processID: processID)) ?? [] }
            pause.abandonForTesting()
        }
        thread.start()
        for _ in 0..<5000 where thread.isExecuting || !thread.isFinished { usleep(1000) }
        #expect(Self.stopped(held.withLock { $0 }) && !held.withLock { $0 }.isEmpty, "\(held.withLock { $0 })")
        #expect(Self.running(try Self.states(of: processID, until: Self.running)))
    }

    /// A signal that arrives while the process is held is delivered when it is let go, not lost.
    @Test func aSignalSentDuringThePauseIsDeliveredAfterIt() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let pause = try ProcessPause(processID: target.processID)
        kill(target.processID, SIGSTOP)
        usleep(50_000)
        pause.resume()
        // The SIGSTOP sent meanwhile takes effect now: a job-control stop, as it would have been.
        #expect(try Self.states(of: target.processID, until: { $0.allSatisfy { $0 == "T" } }).allSatisfy { $0 == "T" })
        kill(target.processID, SIGCONT)
        #expect(Self.running(try Self.states(of: target.processID, until: Self.running)))
    }

    /// A process another tracer holds (a debugger) cannot be paused: the message names the tracer.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed"))
    func aProcessAnotherTracerHoldsIsRefusedNamingIt() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let strace = Process()
        strace.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
        strace.arguments = ["-q", "-o", "/dev/null", "-p", String(target.processID)]
        try strace.run()
        defer {
            // SIGKILL: strace would wait for a SIGTERM the test runner's inherited mask blocks.
            kill(strace.processIdentifier, SIGKILL)
            strace.waitUntilExit()
        }
        for _ in 0..<5000 where ProcessAccess.tracer(of: target.processID) == nil { usleep(1000) }
        let tracer = strace.processIdentifier
        #expect(ProcessAccess.tracer(of: target.processID) == tracer)
        let reason =
            "it is already traced by process \(tracer) (strace), a debugger or tracer, and --pause stops it with ptrace, which allows one tracer at a time; detach that tracer, or read without --pause"
        #expect(throws: BinaryInfoError.processAccessDenied(path: "process \(target.processID)", reason: reason)) {
            try ProcessPause(processID: target.processID)
        }
        #expect(Self.running(try ProcessPause.threadStates(processID: target.processID)))
    }

    /// Threads made and ended while the process is being stopped (one every 0.2 ms, each living
    /// about 1 ms): every thread there is at the end is held, and all run again afterwards.
    @Test func aProcessMakingThreadsStopsWhole() throws {
        let churn = try TargetProcess.build("thread_churn", arguments: ["-pthread"]).get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: churn)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        _ = output.fileHandleForReading.availableData
        let processID = process.processIdentifier
        for _ in 0..<20 {
            let pause = try ProcessPause(processID: processID)
            let during = try ProcessPause.threads(processID: processID)
            #expect(during.allSatisfy { $0.state == "t" || $0.state == "Z" || $0.state == "X" }, "\(during)")
            usleep(2000)
            // Held still: no thread came.
            let later = Set(try ProcessPause.threads(processID: processID).map(\.id))
            #expect(later.isSubset(of: Set(during.map(\.id))))
            pause.resume()
            #expect(Self.running(try Self.states(of: processID, until: Self.running)))
        }
        #expect(ProcessAccess.tracer(of: processID) == nil)
    }

    @Test func aMissingProcessIsNamed() {
        #expect(throws: BinaryInfoError.noSuchProcess(path: "process 2147483000")) {
            try ProcessPause(processID: 2_147_483_000)
        }
    }
}
