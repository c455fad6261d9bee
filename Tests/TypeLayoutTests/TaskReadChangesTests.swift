import Foundation
import Testing
import TypeLayout

/// What a reading of a running process's tasks states about what changed under it: one line of
/// text after the heading, and a `readChanges` object in JSON that decodes to the same value.
@Suite("TaskReadChanges")
struct TaskReadChangesTests {
    static let target = HeapCensus.Target(processID: 7, command: "server", corePath: nil, readWhileRunning: true)

    @Test func textSaysWhatEndedAndWhatWasReadAgain() {
        let quiet = TaskReadChanges(heap: HeapReadChanges())
        #expect(quiet.text == "changed while read: nothing the reader had to go around")
        let tasks = TaskReadChanges(heap: HeapReadChanges(), tasksEnded: 3, actorsEnded: 1, tasksReread: 2, tasksUnsettled: 1)
        #expect(
            tasks.text
                == "changed while read: tasks: 3 tasks ended before they were read (not listed), 1 actor gone before it was read (not listed), 2 tasks read again, 1 task's completion changed between readings (left unread)"
        )
        let both = TaskReadChanges(heap: HeapReadChanges(windowsReread: 4), tasksEnded: 1)
        #expect(both.text == "changed while read: 4 places read again; tasks: 1 task ended before it was read (not listed)")
        let report = TaskReport(target: Self.target, tasks: [], actors: [], unread: [], readChanges: both)
        let lines = report.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "process 7 (server), read while it ran")
        #expect(lines[1] == Substring(both.text))
        // A stopped process or a core: no line.
        #expect(!TaskReport(target: Self.target, tasks: [], actors: [], unread: []).text().contains("changed while read"))
    }

    @Test func jsonRoundTrips() throws {
        let changes = TaskReadChanges(
            heap: HeapReadChanges(arenaReadings: 2, skipped: [.init(address: 0x1000, bytes: 48)], skippedRuns: 1, skippedBytes: 48),
            tasksEnded: 5, actorsEnded: 0, tasksReread: 1, tasksUnsettled: 0)
        let data = try JSONEncoder().encode(changes)
        #expect(try JSONDecoder().decode(TaskReadChanges.self, from: data) == changes)
        let report = TaskReport(target: Self.target, tasks: [], actors: [], unread: [], readChanges: changes)
        let object = try #require(try JSONSerialization.jsonObject(with: try report.jsonData()) as? [String: Any])
        let document = try #require(object["readChanges"] as? [String: Any])
        #expect(document["tasksEnded"] as? Int == 5)
        #expect((document["heap"] as? [String: Any])?["arenaReadings"] as? Int == 2)
        let none = try #require(
            try JSONSerialization.jsonObject(with: try TaskReport(target: Self.target, tasks: [], actors: [], unread: []).jsonData())
                as? [String: Any])
        #expect(none["readChanges"] is NSNull)
    }

    /// Every key the documents state (docs/live.md's tables), each once, addresses as `0x` text.
    @Test func jsonKeysAndValuesAreTheDocumentedOnes() throws {
        var heap = HeapReadChanges(arenaReadings: 2, windowsReread: 3, listEntriesGone: 4, heapsEndedEarly: 5, mmappedChunksFound: 6)
        heap.mmappedChunksCounted = 7
        heap.skip(.init(address: 0xabc0, bytes: 48))
        heap.cut(.init(kind: .tcache, owner: 0x10, bin: 2, entriesTaken: 1))
        let changes = TaskReadChanges(heap: heap, tasksEnded: 8, actorsEnded: 9, tasksReread: 10, tasksUnsettled: 11)
        let report = TaskReport(target: Self.target, tasks: [], actors: [], unread: [], readChanges: changes)
        let text = String(decoding: try report.jsonData(pretty: false), as: UTF8.self)
        let expected =
            #""readChanges":{"actorsEnded":9,"heap":{"arenaReadings":2,"cutLists":[{"bin":2,"entriesTaken":1,"kind":"tcache","owner":"0x10"}],"#
            + #""heapsEndedEarly":5,"listEntriesGone":4,"listsCutShort":1,"mmappedChunksCounted":7,"mmappedChunksFound":6,"#
            + #""skipped":[{"address":"0xabc0","bytes":48}],"skippedBytes":48,"skippedRuns":1,"windowsReread":3},"#
            + #""tasksEnded":8,"tasksReread":10,"tasksUnsettled":11}"#
        #expect(text.contains(expected), "\(text)")
        #expect(try JSONDecoder().decode(TaskReadChanges.self, from: try JSONEncoder().encode(changes)) == changes)
    }
}
