import Foundation
import Testing

@testable import ModelMapper

/// Exact number conversion, with the standard library's parsers and `Decimal` as oracles.
@Suite struct JSONNumberTests {
    func integer<I: FixedWidthInteger>(_ text: String, _ type: I.Type) -> Result<I, NumberConversionFailure> {
        var text = text
        return text.withUTF8 { bytes in
            Result { () throws(NumberConversionFailure) -> I in try JSONNumberScanner.integer(bytes, as: I.self) }
        }
    }

    func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { try? JSONNumberScanner.double($0) }
    }

    @Test(arguments: [
        "0", "-0", "7", "-7", "127", "-128", "255", "32767", "-32768", "65535", "2147483647", "-2147483648",
        "4294967295", "9223372036854775807", "-9223372036854775808", "18446744073709551615",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999999",
    ])
    func plainIntegersMatchTheStandardLibrary(_ text: String) {
        func check<I: FixedWidthInteger>(_ type: I.Type) {
            let ours = try? integer(text, I.self).get()
            let oracle = I(text) ?? (text == "-0" ? 0 : nil)
            #expect(ours == oracle, "\(text) as \(I.self)")
            if oracle == nil { #expect(throws: NumberConversionFailure.overflow) { try integer(text, I.self).get() } }
        }
        check(Int8.self); check(UInt8.self); check(Int16.self); check(UInt16.self)
        check(Int32.self); check(UInt32.self); check(Int64.self); check(UInt64.self)
        check(Int.self); check(UInt.self)
    }

    @Test(
        arguments: [
            ("1.0", 1), ("1e3", 1000), ("1E+3", 1000), ("12.50e1", 125), ("-2.000", -2),
            ("100e-2", 1), ("9.223372036854775807e18", 9_223_372_036_854_775_807), ("-0.0", 0),
        ] as [(String, Int64)])
    func wholeNumbersWithFractionOrExponentBecomeIntegers(_ text: String, _ expected: Int64) throws {
        // Oracle: Decimal parses the same text exactly.
        let decimal = try #require(Decimal(string: text))
        #expect(NSDecimalNumber(decimal: decimal).int64Value == expected)
        #expect(try integer(text, Int64.self).get() == expected)
    }

    @Test(arguments: ["1.5", "0.1", "-0.5", "1e-1", "12345e-3", "1.0000000000000000000001", "1e-999999999"])
    func fractionsIntoIntegersAreErrors(_ text: String) {
        #expect(throws: NumberConversionFailure.fractional) { try integer(text, Int.self).get() }
    }

    @Test(arguments: ["1e20", "1e999999999", "2.56e2", "-1.29e2", "18446744073709551616.0"])
    func overflowIntoIntegersIsAnErrorNotATrap(_ text: String) {
        #expect(throws: NumberConversionFailure.overflow) { try integer(text, Int8.self).get() }
        if text != "2.56e2" && text != "-1.29e2" {
            #expect(throws: NumberConversionFailure.overflow) { try integer(text, UInt64.self).get() }
        }
    }

    @Test func zeroWithAnyExponentIsZero() throws {
        #expect(try integer("0.0e99999", Int.self).get() == 0)
        #expect(try integer("-0e-99999", Int.self).get() == 0)
    }

    @Test func negativeIntoUnsignedIsOverflow() throws {
        #expect(throws: NumberConversionFailure.overflow) { try integer("-1", UInt.self).get() }
        #expect(try integer("-0", UInt.self).get() == 0)
    }

    @Test(arguments: [
        "0", "-0", "1", "0.1", "0.3", "3.141592653589793", "2.2250738585072014e-308", "4.9e-324",
        "1.7976931348623157e308", "123456789012345678901234567890", "0.000001", "1e22", "1e23",
        "9007199254740993", "-12.5", "1.00000000000000011102230246251565404236316680908203125",
        "123456789012345.6789", "1e-400",
    ])
    func doublesAreCorrectlyRounded(_ text: String) {
        let ours = double(text)
        let oracle = Double(text)
        #expect(ours == oracle, "\(text)")
        #expect(ours?.sign == oracle?.sign)
    }

    @Test func doublesBeyondRangeAreErrors() {
        #expect(double("1e309") == nil)
        #expect(double("-1e400") == nil)
    }

    @Test func randomDoublesRoundTripThroughTheWriter() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<5000 {
            let bits = generator.next()
            let value = Double(bitPattern: bits)
            guard value.isFinite else { continue }
            let text = JSONWriter.text(for: value)
            #expect(double(text) == value, "\(text)")
            var copy = text
            #expect(copy.withUTF8 { JSONNumberScanner.isValidNumber($0) }, "\(text) is JSON")
        }
    }

    @Test func numberValueAccessors() throws {
        let number = try #require(JSONNumber(text: "-12.5e1"))
        #expect(number.int64Value == -125)
        #expect(number.doubleValue == -125)
        #expect(number.decimalValue == Decimal(-125))
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "1 ") == nil)
        #expect(JSONNumber(Double.nan) == nil)
    }
}

/// A small deterministic generator (SplitMix64) so generated tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
