import Foundation
import Testing

@testable import ModelMapper

/// The writer's output must read back (with JSONSerialization as the independent reader) to
/// exactly what was written.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        "", "plain", "quote \" and backslash \\", "slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
        "héllo ☃ 😀", "\u{7F}\u{80}\u{FFFF}", String(repeating: "x", count: 1000),
    ])
    func stringsReadBackExactly(_ text: String) throws {
        var writer = JSONWriter()
        writer.string(text)
        let data = Data(writer.bytes)
        let theirs = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        #expect(theirs as? String == text)
        #expect(try JSONValue(parsing: data).stringValue == text)
    }

    @Test func integersMatchDescription() {
        let values: [Int64] = [0, 1, 9, 10, -1, -10, 1_234_567_890, .max, .min]
        for value in values {
            var writer = JSONWriter()
            writer.integer(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        var writer = JSONWriter()
        writer.integer(UInt64.max)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(UInt64.max))
    }

    @Test func valueTreesRoundTrip() throws {
        let value: JSONValue = [
            "a": 1, "b": [true, false, nil, 2.5, -0.0, 1e300], "c": ["nested": "☃"], "d": [], "e": [:],
        ]
        let data = value.jsonData()
        #expect(try JSONValue(parsing: data) == value)
        let theirs = try JSONSerialization.jsonObject(with: data)
        #expect(JSONReaderTests.equal(value, theirs))
    }

    @Test func foundationValuesConvert() throws {
        let any: [String: Any] = [
            "int": 1, "double": 2.5, "bool": true, "null": NSNull(), "string": "s",
            "array": [1, "two", false] as [Any], "nested": ["k": Int64.max] as [String: Any],
            "number": NSNumber(value: 7), "boolNumber": NSNumber(value: true), "uint": UInt64.max,
        ]
        let value = try JSONValue(any: any)
        #expect(value["int"] == .int(1))
        #expect(value["double"] == .double(2.5))
        #expect(value["bool"] == .bool(true))
        #expect(value["null"] == .null)
        #expect(value["array"] == [1, "two", false])
        #expect(value["nested"]?["k"] == .int(Int64.max))
        #expect(value["number"] == .int(7))
        #expect(value["boolNumber"] == .bool(true))
        #expect(value["uint"] == .int(UInt64.max))
        // And JSONSerialization's own output converts the same way.
        let parsed = try JSONSerialization.jsonObject(with: Data(#"{"t":true,"n":3,"d":0.5}"#.utf8))
        let converted = try JSONValue(any: parsed)
        #expect(converted["t"] == true && converted["n"] == 3 && converted["d"] == 0.5)
    }

    @Test func valuesWithNoJSONFormAreErrors() {
        #expect(throws: JSONWriteError.nonFiniteNumber(path: "$.x")) { _ = try JSONValue(any: ["x": Double.nan]) }
        #expect(throws: JSONWriteError.self) { _ = try JSONValue(any: ["x": Date()]) }
    }
}

/// Pretty printing and sorted keys against Foundation's own layout of the same value.
@Suite struct JSONOutputFormattingTests {
    static let value: JSONValue = ["b": [1, ["z": true, "a": nil]], "a": "x", "empty": [], "obj": [:]]

    @Test func matchesJSONSerializationsLayout() throws {
        let sorted = try JSONSerialization.data(withJSONObject: Self.value.anyValue, options: [.sortedKeys])
        #expect(Self.value.jsonString(formatting: .sortedKeys) == String(decoding: sorted, as: UTF8.self))
        // Foundation writes empty containers over three lines ("[\n\n  ]"); we write "[]", so the
        // pretty comparison uses a value without them.
        let full: JSONValue = ["b": [1, ["z": true, "a": nil]], "a": "x", "c": ["d": [2.5, "é"]]]
        let pretty = try JSONSerialization.data(withJSONObject: full.anyValue, options: [.sortedKeys, .prettyPrinted])
        #expect(full.jsonString(formatting: [.sortedKeys, .prettyPrinted]) == String(decoding: pretty, as: UTF8.self))
        #expect(Self.value.jsonString(formatting: .prettyPrinted).contains("\"empty\" : []"))
    }

    @Test func prettyOutputReadsBackAndMapperUsesIt() throws {
        let pretty = Self.value.jsonData(formatting: .prettyPrinted)
        #expect(try JSONValue(parsing: pretty) == Self.value)
        let mapper = ModelMapper(options: MappingOptions(outputFormatting: [.prettyPrinted, .sortedKeys]))
        let text = try mapper.encodeToString(Tag(label: "t"))
        #expect(text == "{\n  \"label\" : \"t\"\n}")
    }
}
