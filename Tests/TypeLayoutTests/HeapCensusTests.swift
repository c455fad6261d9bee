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

    @Test func arrayStorageByElementTypeIsItsOwnEntryEverywhere() throws {
        let storage = "Swift._ContiguousArrayStorage<Swift.AnyObject>"
        func entries(_ items: Int, _ plain: Int) -> HeapCensus {
            var census = Self.census([(storage, plain, plain * 64)])
            census.types.append(HeapCensus.Entry(type: storage, count: items, bytes: items * 64, instanceSize: 32, elementType: "M.Item"))
            return census
        }
        let compared = entries(5, 1).compared(with: entries(2, 1))
        #expect(compared.types.map(\.key) == ["\(storage) (of M.Item)", storage])
        #expect(compared.types.map(\.countDelta) == [3, 0])
        #expect(compared.types[0].type == storage)
        // The text names the class, then its elements'; JSON keeps both, and reads back.
        #expect(compared.text().contains("\(storage) (of M.Item)"))
        let data = try compared.jsonData(pretty: false)
        #expect(String(decoding: data, as: UTF8.self).contains(#""elementType":"M.Item""#))
        #expect(try HeapCensus(jsonData: data) == compared)
        // A selection by the element type keeps the storage of those elements.
        #expect(compared.selecting(where: { $0 == "M.Item" }, order: .count).types.map(\.key) == ["\(storage) (of M.Item)"])
    }

    @Test func anUnnamedReferenceSaysWhy() throws {
        let field = ObjectField(name: "box", type: nil, offset: 16, value: .reference(0x1000, type: nil, object: nil), typeUnknown: "why")
        let text = String(decoding: try JSONEncoder().encode(field), as: UTF8.self)
        #expect(text.contains(#""typeUnknown":"why""#))
        #expect(text.contains(#""unknown":"its object's first word"#))
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

    /// A census with retained sizes writes them per type and its graph's summary with the
    /// meaning; both read back, and a census without them writes neither key.
    @Test func retainedSizesRoundTripAndSortAndAreAbsentOtherwise() throws {
        var census = Self.census([("A.Small", 1, 64), ("A.Holder", 2, 128)])
        #expect(!String(decoding: try census.jsonData(pretty: false), as: UTF8.self).contains("retained"))
        for index in census.types.indices { census.types[index].retainedBytes = census.types[index].type == "A.Small" ? 4096 : 128 }
        census.retained = .init(reachableAllocations: 900, reachableBytes: 90_000, rootReachedAllocations: 12, edges: 1500)
        let data = try census.jsonData(pretty: false)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"retainedBytes\":4096"))
        #expect(json.contains(HeapCensus.Retained.meaning))
        #expect(try HeapCensus(jsonData: data) == census)
        #expect(census.selecting(order: .retained).types.map(\.type) == ["A.Small", "A.Holder"])
        #expect(census.selecting(order: .bytes).types.map(\.type) == ["A.Holder", "A.Small"])
        let text = census.text()
        #expect(text.contains("\nretained: an object's retained bytes"))
        #expect(
            text.contains("reachable: 90000 bytes in 900 allocations, 12 of them pointed to by roots; 1500 pointers between allocations"))
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

    /// A census document with one entry's or total's value replaced by `value`.
    static func document(entry field: String? = nil, total: String? = nil, value: Int, twice: Bool = false) throws -> Data {
        let text = String(decoding: try census([("A.B", 1, 10), ("A.C", 2, 20)]).jsonData(pretty: false), as: UTF8.self)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var types = try #require(object["types"] as? [[String: Any]])
        if let field { types[1][field] = value }
        if twice { types[1]["type"] = types[0]["type"] }
        object["types"] = types
        if let total {
            var totals = try #require(object["totals"] as? [String: Any])
            totals[total] = value
            object["totals"] = totals
        }
        return try JSONSerialization.data(withJSONObject: object)
    }

    @Test func aBaselineWithImpossibleAmountsIsRefusedNamingTheEntry() throws {
        // The document lists A.C (more bytes) first, A.B second.
        for field in ["count", "bytes", "instanceSize"] {
            for value in [Int.min, -1, HeapCensus.largestAmount + 1, Int.max] {
                let error = HeapCensusDocumentError.invalidEntry(
                    index: 1, type: "A.B", detail: "\(field) is \(value), not between 0 and 144115188075855872")
                #expect(throws: error) { try HeapCensus(jsonData: try Self.document(entry: field, value: value)) }
                #expect(
                    error.description
                        == "not a heap census typeinfo wrote: types[1] (A.B): \(field) is \(value), not between 0 and 144115188075855872")
            }
        }
        #expect(throws: HeapCensusDocumentError.invalidTotal(field: "heapBytes", value: Int.min)) {
            try HeapCensus(jsonData: try Self.document(total: "heapBytes", value: Int.min))
        }
        #expect(
            HeapCensusDocumentError.invalidTotal(field: "heapBytes", value: -3).description
                == "not a heap census typeinfo wrote: totals.heapBytes is -3, not between 0 and 144115188075855872")
        #expect(throws: HeapCensusDocumentError.invalidEntry(index: 1, type: "A.C", detail: "the type is listed twice")) {
            try HeapCensus(jsonData: try Self.document(value: 0, twice: true))
        }
        // The largest amounts a baseline may hold compare without overflow, both ways.
        let most = HeapCensus.largestAmount
        let huge = try HeapCensus(jsonData: try Self.document(entry: "count", value: most))
        let compared = Self.census([("A.B", 0, 0)]).compared(with: huge)
        #expect(compared.types.first { $0.type == "A.B" }?.countDelta == -most)
        #expect(huge.compared(with: Self.census([("A.B", 0, 0)])).types.first { $0.type == "A.B" }?.countDelta == most)
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
