import Foundation

/// A parsed document for hand-written decoders: the same reader the mapper uses, with
/// values converted only when asked for. Exposed as SPI so the benchmark's hand-written
/// floor and the mapper parse identically; not part of the stable API.
///
/// The view borrows its storage and is valid only inside ``with(_:options:_:)``'s closure.
@_spi(HandWritten)
public struct RawJSONDocument {
    let tape: JSONTape

    /// Parses `data` and hands the document to `body`.
    ///
    /// - Throws: ``JSONReadError`` for malformed input, or what `body` throws.
    public static func with<R>(
        _ data: Data, options: JSONReadOptions = JSONReadOptions(), _ body: (RawJSONDocument) throws -> R
    ) throws -> R {
        try data.withUnsafeBytes { raw in
            try JSONReader.withTape(raw.bindMemory(to: UInt8.self), options: options) { try body(RawJSONDocument(tape: $0)) }
        }
    }

    /// The index of the top-level value.
    public var root: Int { 0 }

    /// Whether the value at `i` is `null`.
    public func isNull(_ i: Int) -> Bool { tape.kind(i) == .null }

    /// Calls `body` with each member's key and value index, in order.
    ///
    /// - Throws: ``DocumentError`` when the value is not an object, or what `body` throws.
    public func forEachMember(_ object: Int, _ body: (String, Int) throws -> Void) throws {
        guard tape.kind(object) == .object else { throw DocumentError.typeMismatch }
        try tape.forEachMember(of: object) { key, value in try body(tape.string(at: key), value) }
    }

    /// Calls `body` with each element's index, in order.
    public func forEachElement(_ array: Int, _ body: (Int) throws -> Void) throws {
        guard tape.kind(array) == .array else { throw DocumentError.typeMismatch }
        try tape.forEachElement(of: array, body)
    }

    /// The string at `i`.
    public func string(_ i: Int) throws -> String {
        guard tape.kind(i) == .string else { throw DocumentError.typeMismatch }
        return tape.string(at: i)
    }

    /// The integer at `i`.
    public func int(_ i: Int) throws -> Int {
        guard tape.kind(i) == .number else { throw DocumentError.typeMismatch }
        do { return try JSONNumberScanner.integer(tape.slice(i), as: Int.self) } catch { throw DocumentError.typeMismatch }
    }

    /// The `Double` at `i`.
    public func double(_ i: Int) throws -> Double {
        guard tape.kind(i) == .number else { throw DocumentError.typeMismatch }
        do { return try JSONNumberScanner.double(tape.slice(i)) } catch { throw DocumentError.typeMismatch }
    }

    /// The Boolean at `i`.
    public func bool(_ i: Int) throws -> Bool {
        switch tape.kind(i) {
        case .true: return true
        case .false: return false
        default: throw DocumentError.typeMismatch
        }
    }

    /// An ISO 8601 date string at `i`.
    public func date(_ i: Int) throws -> Date {
        guard tape.kind(i) == .string, let date = DateText.parseISO8601(tape.slice(i)) else {
            throw DocumentError.typeMismatch
        }
        return date
    }

    /// A value of the wrong type.
    public enum DocumentError: Error { case typeMismatch }
}

/// The mapper's writer, for hand-written encoders (SPI, see ``RawJSONDocument``).
@_spi(HandWritten)
public struct RawJSONWriter {
    var writer = JSONWriter(capacity: 1024)

    /// Creates an empty writer.
    public init() {}

    /// The bytes written so far.
    public var data: Data { Data(writer.bytes) }

    /// Appends raw ASCII punctuation or pre-escaped text.
    public mutating func raw(_ text: StaticString) {
        writer.bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a quoted, escaped string.
    public mutating func string(_ value: String) { writer.string(value) }

    /// Appends an integer.
    public mutating func int(_ value: Int) { writer.integer(value) }

    /// Appends a finite `Double`.
    public mutating func double(_ value: Double) { writer.double(value) }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) { writer.bool(value) }

    /// Appends `null`.
    public mutating func null() { writer.null() }

    /// Appends an ISO 8601 date string.
    public mutating func date(_ value: Date) { DateText.writeQuotedISO8601(value, into: &writer.bytes) }
}
