import BinaryFixtures
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `leaks` and `retainers` of a server under full load (threads and tasks allocating and freeing
/// on every core), built as users build servers: the stable population the server states is found
/// whole, through the globals that hold it, and nothing it holds is listed as leaked.
@Suite(
    "leaks and retainers of a busy server",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct RetainersUnderLoadTests {
    @Test(arguments: FixtureLinking.allCases)
    func theStablePopulationIsHeldAndNothingHeldIsLeaked(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking)
        defer { server.finish() }
        let report = server.report
        let options = LiveTargetOptions(target: .process(server.processID))
        let before = try server.stats().made

        let leaks = try LiveLeakReader.leaks(options)
        let heldTypes: Set = [report.stableRecordType, report.stableNodeType, report.ledgerType, report.churnType, report.stableBoxType]
        let listed = leaks.entries.filter { if case .swiftObject(let type) = $0.kind { heldTypes.contains(type) } else { false } }
        #expect(listed.isEmpty, "\(linking): held objects listed as leaked: \(listed.map { "\($0.count) \($0.name)" })")
        #expect(leaks.target.stop != nil, "the report states how long the process was stopped")

        let records = try LiveRetainerReader.retainers(options, type: report.stableRecordType)
        #expect(records.unreachable == 0)
        #expect(records.groups.map(\.count).reduce(0, +) == report.stableRecords, "\(records.text)")
        let nodes = try LiveRetainerReader.retainers(options, type: report.stableNodeType)
        #expect(nodes.unreachable == 0)
        #expect(nodes.groups.map(\.count).reduce(0, +) == report.stableNodes, "\(nodes.text)")
        // Every record is held through the global array the server keeps them in (the shortest
        // path: a record also held by a node is one step further through `nodes`).
        let largest = try #require(records.groups.max { $0.count < $1.count })
        #expect(largest.shape.first?.hasPrefix("global LoadServer.records ") == true, "\(records.text)")

        // The server allocated and freed throughout: the readings were made under load.
        let made = try server.stats().made - before
        #expect(made > 10_000, "the churn made \(made) objects during the readings")
        print(
            "leaks and retainers under load (\(linking)): \(leaks.entries.count) kinds unreached; records \(records.groups.map { "\($0.count) \($0.shape.first ?? "")" })"
        )
    }
}
