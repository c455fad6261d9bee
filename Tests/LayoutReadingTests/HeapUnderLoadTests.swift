import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `typeinfo heap` of a server under full load, without `--pause`: every reading completes, and
/// the objects that stay alive throughout are counted exactly, as the server states them.
@Suite(
    "heap of a busy server, read while it runs",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct HeapUnderLoadTests {
    static let readings = 20

    @Test(arguments: FixtureLinking.allCases)
    func stableObjectsAreCountedExactlyWhileItChurns(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking)
        defer { server.finish() }
        let report = server.report
        let options = LiveTargetOptions(target: .process(server.processID))
        let readings = try LoadServerReadings(server, count: Self.readings) { _ in
            try LiveHeapReader.census(options)
        } check: { reading, census in
            let counts = Dictionary(census.types.map { ($0.type, $0.count) }, uniquingKeysWith: +)
            let records = counts[report.stableRecordType] ?? 0
            let nodes = counts[report.stableNodeType] ?? 0
            #expect(census.target.readWhileRunning)
            // Each reading of a running process says what changed under it, even when nothing did.
            let changes = try #require(census.readChanges, "reading \(reading) states no changes")
            #expect(census.text().contains("changed while read: "))
            return records == report.stableRecords && nodes == report.stableNodes
                ? nil : "reading \(reading): \(records) records, \(nodes) nodes; \(changes.text)"
        }
        // The server allocated and freed throughout: the readings were made under load.
        #expect(readings.madeDuring > 10_000, "the churn made \(readings.madeDuring) objects during the readings")
        // A reading of this server takes milliseconds, about as long as a churn round on a
        // loaded machine, so a reading may fall between two of the counter's steps; most must not.
        #expect(readings.churned * 4 >= Self.readings * 3, "the server churned during \(readings.churned) of \(Self.readings) readings")
        #expect(readings.exact >= Self.readings - 1, "\(readings.exact) of \(Self.readings) exact: \(readings.failures.prefix(3))")
    }

    @Test func aCensusReadWhileRunningStatesItsChangesInJSON() throws {
        let server = try LoadServerFixture(.dynamic)
        defer { server.finish() }
        let census = try LiveHeapReader.census(LiveTargetOptions(target: .process(server.processID)))
        let changes = try #require(census.readChanges)
        let decoded = try HeapCensus(jsonData: try census.jsonData())
        #expect(decoded.readChanges == changes)
        let object = try #require(try JSONSerialization.jsonObject(with: try census.jsonData()) as? [String: Any])
        let document = try #require(object["readChanges"] as? [String: Any])
        #expect(
            Set(document.keys) == [
                "arenaReadings", "windowsReread", "skipped", "skippedRuns", "skippedBytes", "cutLists", "listsCutShort",
                "listEntriesGone", "heapsEndedEarly", "mmappedChunksFound", "mmappedChunksCounted",
            ])
        // Stopped, the heap does not change: strict reading, no changes to state.
        let paused = try LiveHeapReader.census(LiveTargetOptions(target: .process(server.processID), pauses: true))
        #expect(paused.readChanges == nil)
        #expect(!paused.text().contains("changed while read"))
    }
}
