import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLowering

/// The task and actor API as a Swift 5 language mode client calls it, against what the LiveTasks
/// fixture prints of itself: its parked tasks' cancellation and its busy actor's queue.
@Suite(
    "TargetInspector's tasks and actors from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct TargetConcurrencySwift5Tests {
    static func address(_ text: String) -> UInt64 { UInt64(text.dropFirst(2), radix: 16) ?? 0 }

    @Test func tasksAndActorsOfAProcess() throws {
        let configuration = LoweringConfiguration.resolved()
        let fixture = try LiveTasksFixture(.dynamic)
        defer { fixture.finish() }
        let report = fixture.report
        let inspector = try TargetInspector(.process(fixture.processID), imageSearchPaths: [], configuration: configuration)
        #expect(try inspector.concurrencyLayoutRefusal() == nil)
        let parked = report.parkedTasks.map(Self.address)
        let read = try inspector.concurrency(tasks: parked, actors: [Self.address(report.busyActor)] + report.idleActors.map(Self.address))
        #expect(read.unreadTasks.isEmpty && read.unreadActors.isEmpty)
        #expect(parked.allSatisfy { read.tasks[$0]?.isRunning == false })
        #expect(parked.filter { read.tasks[$0]?.isCancelled == true }.count == report.cancelled)
        let busy = read.actors[Self.address(report.busyActor)]
        #expect(busy?.state == .running)
        #expect(busy?.queuedJobs.count == report.waiters)
        #expect(report.idleActors.allSatisfy { read.actors[Self.address($0)]?.state == .idle })
        #expect(parked.allSatisfy { read.tasks[$0]?.isFuture == true })
    }

    /// The threads and their current tasks, and the type names of futures' result types (any
    /// metadata kind), against what the fixture printed: the holder's thread id, running on the
    /// Teller; the metadata of `Int` (a struct) named as the process's own `Int.self`.
    @Test func threadsAndResultTypesOfAProcess() throws {
        let configuration = LoweringConfiguration.resolved()
        let fixture = try LiveTasksFixture(.dynamic)
        defer { fixture.finish() }
        let report = fixture.report
        let inspector = try TargetInspector(.process(fixture.processID), imageSearchPaths: [], configuration: configuration)
        let runtime = try #require(inspector.images.first { $0.mappedPath.hasSuffix("/libswift_Concurrency.so") })
        guard case .listed(let threads, let truncated) = try inspector.threads(concurrencyRuntimeAt: runtime.loadAddress) else {
            Issue.record("the threads were not listed")
            return
        }
        #expect(!truncated)
        let holder = threads.first { $0.currentTask == Self.address(report.holder) }
        #expect(holder?.threadID == report.holderThread)
        #expect(holder?.executorIdentity == Self.address(report.busyActor))
        #expect(threads.filter { ($0.currentTask ?? 0) != 0 }.count == 1)
        #expect(threads.contains { $0.threadID == fixture.processID }, "the main thread")

        // The same binary's Int metadata: libswiftCore is mapped at one address in both processes
        // only by chance, so the address is taken from the target's symbol table.
        let core = try #require(inspector.images.first { $0.mappedPath.hasSuffix("/libswiftCore.so") })
        let intMetadata = try #require(TargetImageSymbols(image: core).address(of: "$sSiN"))
        #expect(try inspector.typeNames(ofTypeMetadata: [intMetadata, 8]) == [intMetadata: "Swift.Int"])
        #expect(try inspector.threads(concurrencyRuntimeAt: 0x1000) == .unavailable(reason: "no image is loaded at 0x1000"))
    }
}
