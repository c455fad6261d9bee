import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// `--pause`: every thread stops, and the process runs again afterwards whatever happens to the reader.
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

    static func stopped(_ states: [Character]) -> Bool { states.allSatisfy { $0 == "T" } }
    static func running(_ states: [Character]) -> Bool { !states.contains("T") }

    @Test func everyThreadStopsAndRunsAgain() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let pause = try ProcessPause(processID: fixture.processID)
        #expect(pause.stoppedIt)
        let during = try ProcessPause.threadStates(processID: fixture.processID)
        #expect(during.count == fixture.report.threads)
        #expect(Self.stopped(during), "\(during)")
        pause.resume()
        #expect(Self.running(try Self.states(of: fixture.processID, until: Self.running)))
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

    @Test func theGuardianResumesWhenTheReaderEndsUnannounced() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let pause = try ProcessPause(processID: target.processID)
        #expect(Self.stopped(try ProcessPause.threadStates(processID: target.processID)))
        // What the kernel does when typeinfo dies, however it dies: the pipe closes without the line.
        pause.abandonForTesting()
        #expect(Self.running(try Self.states(of: target.processID, until: Self.running)))
    }

    @Test func aMissingProcessIsNamed() {
        #expect(throws: BinaryInfoError.noSuchProcess(path: "process 2147483000")) {
            try ProcessPause(processID: 2_147_483_000)
        }
    }
}
