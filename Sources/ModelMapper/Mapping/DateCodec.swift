import Foundation
import TypeInfo

/// `Date`, read and written with a ``DateDecodingStrategy`` and ``DateEncodingStrategy``
/// (the property's own, or the mapper's).
final class DateCodec: ValueCodec<Date>, @unchecked Sendable {
    private let decoding: DateDecodingStrategy
    private let encoding: DateEncodingStrategy

    /// Whether dates are written as ISO 8601 text (the plan's encoder does that inline).
    var writesISO8601: Bool { if case .iso8601 = encoding { return true } else { return false } }

    init(decoding: DateDecodingStrategy, encoding: DateEncodingStrategy) {
        self.decoding = decoding
        self.encoding = encoding
    }

    /// Seconds from 1970 at or above which `.automatic` reads a number as milliseconds.
    static let millisecondThreshold = 100_000_000_000.0

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Date {
        let kind = tape.kind(i)
        switch decoding {
        case .custom(let parse):
            guard let date = parse(tape.value(at: i)) else { throw invalid(tape, i) }
            return date
        case .iso8601:
            guard kind == .string else { throw mismatch(tape, i) }
            guard let date = DateText.parseISO8601(tape.slice(i)) else { throw invalid(tape, i) }
            return date
        case .secondsSince1970, .millisecondsSince1970:
            guard kind == .number || (kind == .string && context.convertsTypes) else { throw mismatch(tape, i) }
            let scale = if case .millisecondsSince1970 = decoding { 1000.0 } else { 1.0 }
            return try number(tape, i, scale: scale)
        case .automatic:
            switch kind {
            case .number:
                return try automaticNumber(tape, i)
            case .string:
                let text = tape.slice(i)
                if let date = DateText.parse(text) { return date }
                if JSONNumberScanner.isValidNumber(text) { return try automaticNumber(tape, i) }
                throw invalid(tape, i)
            default:
                throw mismatch(tape, i)
            }
        }
    }

    private func automaticNumber(_ tape: JSONTape, _ i: Int) throws -> Date {
        let seconds = try number(tape, i, scale: 1)
        let t = seconds.timeIntervalSince1970
        return abs(t) >= DateCodec.millisecondThreshold ? Date(timeIntervalSince1970: t / 1000) : seconds
    }

    private func number(_ tape: JSONTape, _ i: Int, scale: Double) throws -> Date {
        guard let value = try? JSONNumberScanner.double(tape.slice(i)) else { throw invalid(tape, i) }
        return Date(timeIntervalSince1970: value / scale)
    }

    private func invalid(_ tape: JSONTape, _ i: Int) -> MappingError {
        let found = tape.kind(i) == .string ? "the string \"\(tape.string(at: i))\"" : tape.typeName(i)
        return MappingError(.invalidValue(expected: "a date", found: found))
    }

    override func encode(_ value: Date, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        switch encoding {
        case .iso8601:
            DateText.writeQuotedISO8601(value, into: &writer.bytes)
        case .secondsSince1970:
            let seconds = value.timeIntervalSince1970
            guard seconds.isFinite else { throw MappingError(.unencodable("date \(seconds) has no JSON form")) }
            writer.double(seconds)
        case .millisecondsSince1970:
            let millis = (value.timeIntervalSince1970 * 1000).rounded()
            guard let exact = Int64(exactly: millis) else {
                throw MappingError(.unencodable("date \(value) out of range for milliseconds"))
            }
            writer.integer(exact)
        case .custom(let format):
            writer.value(format(value))
        }
    }
}
