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
    }
}
