import Foundation
import Testing
import TypeLayout

@Suite struct HeapCensusTests {
    static let target = HeapCensus.Target(processID: 4711, command: "server", corePath: nil, readWhileRunning: true)

    static func census(_ entries: [(String, Int, Int)], order: HeapCensus.Order = .bytes) -> HeapCensus {
        let types = entries.map { HeapCensus.Entry(type: $0.0, count: $0.1, bytes: $0.2, instanceSize: 32) }
        return HeapCensus(
            target: target,
            totals: .init(
                allocations: 1000, heapBytes: 100_000, swiftObjects: types.reduce(0) { $0 + $1.count },
                swiftObjectBytes: types.reduce(0) { $0 + $1.bytes }),
            types: types, order: order)
    }

    @Test func comparisonListsEveryTypeOfEitherByGrowth() {
        let before = Self.census([("A.Kept", 10, 320), ("A.Gone", 4, 128), ("A.Shrunk", 8, 256)])
        let after = Self.census([("A.Kept", 10, 320), ("A.New", 3, 96), ("A.Shrunk", 2, 64), ("A.Grown", 0, 0)])
        let compared = after.compared(with: before)
        let rows = compared.types.map { "\($0.type) \($0.count) \($0.countDelta!) \($0.bytesDelta!)" }
        #expect(rows == ["A.New 3 3 96", "A.Grown 0 0 0", "A.Kept 10 0 0", "A.Gone 0 -4 -128", "A.Shrunk 2 -6 -192"])
        #expect(compared.selecting(order: .count, limit: 1).types.map(\.type) == ["A.New"])
    }

    @Test func selectionKeepsTheWholeHeapsTotals() {
        let census = Self.census([("A.B", 1, 10), ("C.D", 5, 5)])
        let selected = census.selecting(where: { $0.hasPrefix("C.") }, order: .count)
        #expect(selected.types.map(\.type) == ["C.D"])
        #expect(selected.totals == census.totals)
        #expect(census.types.map(\.type) == ["A.B", "C.D"])
        #expect(census.selecting(order: .count).types.map(\.type) == ["C.D", "A.B"])
    }

    @Test func jsonRoundTripsAndStatesUnknownsAsNull() throws {
        var census = Self.census([("A.B", 1, 10)]).compared(with: Self.census([]))
        census.types[0].instanceSize = nil
        let data = try census.jsonData(pretty: false)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""instanceSize":null"#))
        #expect(text.contains(#""countDelta":1"#))
        #expect(text.contains(#""unattributedBytes":99990"#))
        #expect(try HeapCensus(jsonData: data) == census)
        // Without a baseline there are no deltas at all.
        #expect(!String(decoding: try Self.census([("A.B", 1, 10)]).jsonData(), as: UTF8.self).contains("Delta"))
    }

    @Test func aBaselineThatIsNotACensusIsNamedPrecisely() throws {
        #expect(throws: HeapCensusDocumentError.malformed(detail: "missing key 'target' at $")) {
            try HeapCensus(jsonData: Data(#"{"schemaVersion":1}"#.utf8))
        }
        #expect(throws: HeapCensusDocumentError.unsupportedSchemaVersion(found: 9, supported: 1)) {
            try HeapCensus(jsonData: Data(#"{"schemaVersion":9}"#.utf8))
        }
        let error = HeapCensusDocumentError.malformed(detail: "missing key 'target' at $")
        #expect(error.description == "not a typeinfo heap census (write one with `typeinfo heap --format json`): missing key 'target' at $")
    }

    @Test func textHasOneGreppableRowPerType() {
        let text = Self.census([("A.Order", 6002, 624_208), ("A.Box<Swift.Int>", 1500, 36000)]).text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("process 4711 (server), read while it ran"))
        #expect(lines[3] == "count   bytes  instance  type")
        #expect(lines[4] == " 6002  624208        32  A.Order")
        #expect(lines[5] == " 1500   36000        32  A.Box<Swift.Int>")
    }
}
