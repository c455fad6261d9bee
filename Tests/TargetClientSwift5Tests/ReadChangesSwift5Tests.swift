import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// What a tasks report says changed while a running process was read (`TaskReadChanges`), and
/// the places where a core differs from its images' files (`CoreMismatch`), as a Swift 5
/// language mode client reads them.
@Suite(
    "read changes and core mismatches from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct ReadChangesSwift5Tests {
    @Test func theTasksOfARunningProcessStateWhatChanged() throws {
        let fixture = try LiveTasksFixture(.dynamic)
        defer { fixture.finish() }
        let report = try LiveTaskReader.report(LiveTargetOptions(target: .process(fixture.processID)))
        #expect(report.target.readWhileRunning)
        let changes: TaskReadChanges = try #require(report.readChanges)
        #expect(changes.heap.arenaReadings >= 1)
        #expect(changes.tasksEnded >= 0 && changes.actorsEnded >= 0 && changes.tasksReread >= 0 && changes.tasksUnsettled >= 0)
        #expect(changes.text.hasPrefix("changed while read: "))
        #expect(try JSONDecoder().decode(TaskReadChanges.self, from: try JSONEncoder().encode(changes)) == changes)
        let made = TaskReadChanges(heap: HeapReadChanges(), tasksEnded: 1)
        #expect(made.text == "changed while read: tasks: 1 task ended before it was read (not listed)")
        // A process has no core to compare.
        #expect(try TargetMemory(.process(fixture.processID)).coreMismatches().isEmpty)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed"))
    func aCoreAsDumpedDiffersFromNoFile() throws {
        let fixture = try LiveTasksFixture(.dynamic)
        let core = try CoreDump.make(of: fixture.processID)
        fixture.finish()
        #expect(try TargetMemory(.core(path: core)).coreMismatches() == [])
        let census = try LiveHeapReader.census(LiveTargetOptions(target: .core(path: core)))
        #expect(census.target.coreMismatches.isEmpty)
        // The value a damaged core gives, its line and its JSON.
        let mismatch = CoreMismatch(image: "/srv/app", segment: 0x1000, address: 0x1010, fileOffset: 0x10, isRelocatedReadOnly: true)
        #expect(mismatch.text.hasPrefix("the core's bytes at 0x1010 (segment 0x1000, relocated read-only data"))
        #expect(try JSONDecoder().decode(CoreMismatch.self, from: try JSONEncoder().encode(mismatch)) == mismatch)
    }
}
