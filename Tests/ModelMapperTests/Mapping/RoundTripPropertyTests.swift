import Foundation
import Testing

@testable import ModelMapper

enum Suit: String, CaseIterable, Sendable { case hearts, spades, clubs }

struct Everything: Mappable {
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var bool = false
    var string = ""
    var decimal = Decimal(0)
    var date = Date(timeIntervalSince1970: 0)
    var url: URL?
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var data = Data()
    var suit = Suit.hearts
    var optionalString: String? = "default"
    var numbers: [Int] = []
    var table: [String: Double] = [:]
    var names: Set<String> = []
    var child: Everything.Child?
    var children: [Everything.Child] = []

    struct Child: Mappable, Equatable {
        var label = ""
        var weight: Double?
    }

    /// The fields that differ, for failure messages.
    func differences(from other: Everything) -> String {
        zip(Mirror(reflecting: self).children, Mirror(reflecting: other).children)
            .filter { "\($0.value)" != "\($1.value)" }
            .map { "\($0.label ?? "?"): \($0.value) vs \($1.value)" }
            .joined(separator: "; ")
    }

    /// Equality with dates compared to the millisecond (what ISO 8601 text carries).
    func matches(_ other: Everything) -> Bool {
        int == other.int && int8 == other.int8 && int16 == other.int16 && int32 == other.int32
            && int64 == other.int64 && uint == other.uint && uint8 == other.uint8 && uint16 == other.uint16
            && uint32 == other.uint32 && uint64 == other.uint64 && double.bitPattern == other.double.bitPattern
            && float.bitPattern == other.float.bitPattern && bool == other.bool && string == other.string
            && decimal == other.decimal && abs(date.timeIntervalSince(other.date)) < 1e-4 && url == other.url
            && uuid == other.uuid && data == other.data && suit == other.suit && optionalString == other.optionalString
            && numbers == other.numbers && table == other.table && names == other.names && child == other.child
            && children == other.children
    }
}

/// A seeded generator of values for the round trip (SplitMix64 underneath, so a failure
/// names the seed that reproduces it).
struct ValueGenerator {
    var rng: SeededGenerator

    mutating func int<I: FixedWidthInteger>(_ type: I.Type) -> I {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return [I.min, I.max, 0][Int.random(in: 0..<3, using: &rng)]
        case 1: return I(truncatingIfNeeded: Int.random(in: -100...100, using: &rng))
        default: return I(truncatingIfNeeded: rng.next())
        }
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return [0.0, -0.0, 1.0, -1.5, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.1][Int.random(in: 0..<7, using: &rng)]
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 100
        default:
            let value = Double(bitPattern: rng.next())
            return value.isFinite ? value : 42
        }
    }

    mutating func float() -> Float {
        let value = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
        return value.isFinite ? value : 7
    }

    mutating func string() -> String {
        let pools: [[Unicode.Scalar]] = [
            Array("abcXYZ019 _-./:".unicodeScalars), ["\"", "\\", "\u{0}", "\u{1}", "\n", "\t", "\u{1F}", "\u{7F}"],
            ["é", "ß", "☃", "€", "\u{FFFF}", "\u{FEFF}"], ["😀", "𝄞", "\u{10FFFF}"],
        ]
        var out = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0..<24, using: &rng) {
            let pool = pools[Int.random(in: 0..<pools.count, using: &rng)]
            out.append(pool[Int.random(in: 0..<pool.count, using: &rng)])
        }
        return String(out)
    }

    mutating func bool() -> Bool { Bool.random(using: &rng) }

    mutating func everything(depth: Int = 0) -> Everything {
        var e = Everything()
        e.int = int(Int.self)
        e.int8 = int(Int8.self)
        e.int16 = int(Int16.self)
        e.int32 = int(Int32.self)
        e.int64 = int(Int64.self)
        e.uint = int(UInt.self)
        e.uint8 = int(UInt8.self)
        e.uint16 = int(UInt16.self)
        e.uint32 = int(UInt32.self)
        e.uint64 = int(UInt64.self)
        e.double = double()
        e.float = float()
        e.bool = bool()
        e.string = string()
        e.decimal = Decimal(
            sign: bool() ? .minus : .plus, exponent: Int.random(in: -8...8, using: &rng),
            significand: Decimal(Int.random(in: 0...999_999_999, using: &rng)))
        let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_000, using: &rng)
        e.date = Date(timeIntervalSince1970: Double(millis) / 1000)
        e.url = bool() ? URL(string: "https://example.com/\(Int.random(in: 0...999, using: &rng))?q=a%20b") : nil
        e.uuid = UUID(
            uuid: (
                UInt8(truncatingIfNeeded: rng.next()), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                UInt8(truncatingIfNeeded: rng.next())
            ))
        e.data = Data((0..<Int.random(in: 0..<20, using: &rng)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        e.suit = Suit.allCases[Int.random(in: 0..<3, using: &rng)]
        e.optionalString = bool() ? string() : nil
        e.numbers = (0..<Int.random(in: 0..<6, using: &rng)).map { _ in int(Int.self) }
        e.table = Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<4, using: &rng)).map { k in ("k\(k)" + string(), double()) })
        e.names = Set((0..<Int.random(in: 0..<4, using: &rng)).map { _ in string() })
        if depth < 2 {
            e.child = bool() ? Everything.Child(label: string(), weight: bool() ? double() : nil) : nil
            e.children = (0..<Int.random(in: 0..<3, using: &rng)).map { _ in Everything.Child(label: string(), weight: double()) }
        }
        return e
    }
}

@Suite struct RoundTripPropertyTests {
    @Test(arguments: [
        (MappingMode.lenient, FieldAccessStrategy.instanceStorage), (.strict, .instanceStorage), (.strict, .propertyInfo),
    ])
    func modelToJSONToModelIsIdentity(_ mode: MappingMode, _ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(mode: mode, fieldAccess: access))
        for seed in UInt64(1)...300 {
            var generator = ValueGenerator(rng: SeededGenerator(seed: seed))
            let value = generator.everything()
            let data = try mapper.encode(value)
            let back = try mapper.decode(Everything.self, from: data)
            #expect(back.matches(value), "seed \(seed): \(value.differences(from: back))")
            // The JSON itself is valid for an independent reader.
            #expect(throws: Never.self) { _ = try JSONSerialization.jsonObject(with: data) }
            // And the [String: Any] road gives the same model.
            let viaDictionary = try mapper.decode(Everything.self, from: try mapper.encodeToDictionary(value))
            #expect(viaDictionary.matches(value), "seed \(seed) via [String: Any]: \(value.differences(from: viaDictionary))")
        }
    }
}
