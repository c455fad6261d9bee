import Foundation
import Testing

@testable import TypeLayout

/// LayoutJSON writes layout documents without JSONEncoder where it can; the bytes must be
/// JSONEncoder's own (sorted keys, slashes unescaped), pretty and compact.
@Suite("LayoutJSON writes exactly what JSONEncoder writes")
struct LayoutJSONWriterTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Keys that sort differently by case, digits and punctuation; strings with every escape;
    /// empty and nested containers; nulls, booleans and negative numbers.
    struct Awkward: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for name in ["b", "B", "a10", "a9", "A", "_x", "Z", "aB", "ab", "é", "instanceSize", "isVar", "a_b", "aa"] {
                try container.encode(name.count, forKey: Key(name))
            }
            try container.encode([Int](), forKey: Key("empty"))
            try container.encode([String: Int](), forKey: Key("emptyObject"))
            try container.encode("a/b\"c\\d\n\t\r\u{8}\u{c}\u{1}\u{1b}\u{7f}é\u{2028}😀", forKey: Key("text"))
            try container.encodeNil(forKey: Key("nothing"))
            try container.encode([1, -2, Int.min], forKey: Key("numbers"))
            try container.encode([UInt64.max], forKey: Key("unsigned"))
            try container.encode(true, forKey: Key("yes"))
            try container.encode([[String: Int]()], forKey: Key("nested"))
            try container.encode(["z": [nil, 3], "y": [Int?]()], forKey: Key("dictionary"))
            try container.encode(Int?.none, forKey: Key("optional"))
            try container.encodeIfPresent(Int?.none, forKey: Key("absent"))
        }
    }

    struct WithDouble: Encodable { var ratio = 0.1 }

    static func foundation(_ value: some Encodable, pretty: Bool) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    @Test("awkward keys and strings: the same bytes", arguments: [true, false])
    func awkward(pretty: Bool) throws {
        #expect(LayoutJSONWriter.encode(Awkward(), pretty: pretty) != nil, "the writer spells every value here")
        let ours = try LayoutJSON.encode(Awkward(), pretty: pretty)
        let theirs = try Self.foundation(Awkward(), pretty: pretty)
        #expect(ours == theirs, "\(String(decoding: ours, as: UTF8.self))\n---\n\(String(decoding: theirs, as: UTF8.self))")
    }

    @Test("floating point is left to JSONEncoder")
    func floatingPoint() throws {
        #expect(LayoutJSONWriter.encode(WithDouble(), pretty: true) == nil)
        #expect(try LayoutJSON.encode(WithDouble()) == Self.foundation(WithDouble(), pretty: true))
    }
}
