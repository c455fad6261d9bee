import BinaryFixtures
import BinaryInfo
import Foundation
import Testing

@testable import TypeLowering

#if canImport(Glibc)
import Glibc
#endif

/// The threads libthread_db lists are the kernel's: the oracle is `/proc/PID/task` of the LiveTasks
/// fixture, stopped (SIGSTOP) so that no thread starts or ends between the two readings; the
/// holder's current task and executor are what the fixture printed. A list cut at a maximum says so.
@Suite("Threads of a target through libthread_db")
struct TargetThreadListTests {
    static func address(_ text: String) -> UInt64 { UInt64(text.dropFirst(2), radix: 16) ?? 0 }

    @Test(arguments: FixtureLinking.allCases)
    func theThreadsAreTheKernelsAndTheHolderRunsOnTheTeller(_ linking: FixtureLinking) throws {
        let fixture = try LiveTasksFixture(linking)
        defer { fixture.finish() }
        kill(fixture.processID, SIGSTOP)
        defer { kill(fixture.processID, SIGCONT) }
        let kernel = Set(
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(fixture.processID)/task").compactMap { Int32($0) })
        let memory = try TargetMemory(.process(fixture.processID))
        let runtime = try #require(
            memory.images.first {
                linking == .dynamic ? $0.mappedPath.hasSuffix("/libswift_Concurrency.so") : $0.mappedPath == fixture.executable
            })
        let list = try TargetThreadList.read(memory, runtimeImage: runtime.loadAddress).get()
        #expect(!list.isTruncated)
        #expect(Set(list.threads.compactMap(\.threadID)) == kernel)
        #expect(list.threads.count == kernel.count)
        let holder = list.threads.first { $0.threadID == fixture.report.holderThread }
        #expect(holder?.currentTask == Self.address(fixture.report.holder))
        #expect(holder?.executorIdentity == Self.address(fixture.report.busyActor))
        // The main thread runs no task and no job.
        let main = list.threads.first { $0.threadID == fixture.processID }
        #expect(main?.currentTask == 0 && main?.executorIdentity == 0)

        let cut = try TargetThreadList.read(memory, runtimeImage: runtime.loadAddress, maximumThreads: 2).get()
        #expect(cut.isTruncated && cut.threads.count == 2)
        #expect(cut.threads.allSatisfy { $0.threadID.map(kernel.contains) == true })
    }
}
