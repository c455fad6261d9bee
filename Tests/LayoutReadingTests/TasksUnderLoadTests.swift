import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `typeinfo tasks` of a server under full load, without `--pause`: every reading completes, the
/// tasks parked throughout and the idle ledger actors are listed exactly as the server states
/// them, and each report says what changed under it. Tasks start and end all the while (the
/// churn's short tasks and messages to its actor); none of them may make a parked count wrong.
@Suite(
    "tasks of a busy server, read while it runs",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct TasksUnderLoadTests {
    static let readings = 20

    @Test(arguments: FixtureLinking.allCases)
    func parkedTasksAndLedgersAreExactWhileItChurns(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking)
        defer { server.finish() }
        let report = server.report
        let options = LiveTargetOptions(target: .process(server.processID))
        var ended = 0
        let readings = try LoadServerReadings(server, count: Self.readings) { _ in
            try LiveTaskReader.report(options)
        } check: { reading, tasks in
            #expect(tasks.target.readWhileRunning)
            // Each reading of a running process says what changed under it, even when nothing did.
            let changes = try #require(tasks.readChanges, "reading \(reading) states no changes")
            #expect(tasks.text().contains("\nchanged while read: "))
            ended += changes.tasksEnded
            let parked = tasks.tasks.filter { $0.resumeFunction == report.parkedFunction }
            let suspended = parked.filter { $0.state == .suspended && !$0.isCancelled && $0.parent == nil }
            let ledgers = tasks.actors.filter { $0.type == report.ledgerType }
            let ledgersExact =
                Set(ledgers.map { "0x" + String($0.address, radix: 16) }) == Set(report.ledgerAddresses)
                && ledgers.allSatisfy { $0.state == .idle && $0.queuedJobs == 0 }
            // The churn's tasks are listed or counted as ended, never with a parked task's function.
            #expect(parked.count <= report.parked)
            return parked.count == report.parked && suspended.count == report.parked && ledgersExact
                ? nil
                : "reading \(reading): \(suspended.count) of \(parked.count) parked suspended, ledgers \(ledgers.map(\.state)); \(changes.text)"
        }
        // The server allocated, freed and ran tasks throughout: the readings were made under load.
        #expect(readings.madeDuring > 10_000, "the churn made \(readings.madeDuring) objects during the readings")
        #expect(readings.churned == Self.readings, "the server churned during \(readings.churned) of \(Self.readings) readings")
        #expect(
            readings.exact >= Self.readings - 1, "\(linking): \(readings.exact) of \(Self.readings) exact: \(readings.failures.prefix(3))")
        print("tasks under load (\(linking)): \(readings.exact) of \(Self.readings) exact; \(ended) tasks ended while read in all")
    }

    @Test func aTaskReportReadWhileRunningStatesItsChangesInJSONAndText() throws {
        let server = try LoadServerFixture(.dynamic)
        defer { server.finish() }
        let result = try DumpCommandTests.run(["tasks", String(server.processID), "--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let document = try #require(object["readChanges"] as? [String: Any])
        #expect(Set(document.keys) == ["heap", "tasksEnded", "actorsEnded", "tasksReread", "tasksUnsettled"])
        let heap = try #require(document["heap"] as? [String: Any])
        #expect(heap["arenaReadings"] as? Int ?? 0 >= 1)
        let text = try DumpCommandTests.run(["tasks", String(server.processID)])
        #expect(text.status == 0, "\(text.errors)")
        let lines = text.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 2 && lines[1].hasPrefix("changed while read: "), "\(lines.prefix(3))")
        // Stopped, nothing changes under the reading: no changes are stated.
        let paused = try LiveTaskReader.report(LiveTargetOptions(target: .process(server.processID), pauses: true))
        #expect(paused.readChanges == nil)
        #expect(!paused.text().contains("changed while read"))
        let json = try #require(try JSONSerialization.jsonObject(with: try paused.jsonData()) as? [String: Any])
        #expect(json["readChanges"] is NSNull)
    }
}
