import Foundation
import TypeInfo

/// State of one decode call, shared by every codec it reaches.
final class DecodeContext {
    let mapper: ModelMapper
    let strict: Bool
    let convertsTypes: Bool
    /// Problems skipped in lenient mode, when the caller asked for them.
    var issues: [MappingError]?
    /// Where decoding is, from the root; kept only while issues are collected, so that a
    /// skipped problem deep inside records its full path.
    var path: [JSONPathComponent] = []
    let tracksPath: Bool

    init(mapper: ModelMapper, collectsIssues: Bool) {
        self.mapper = mapper
        self.strict = mapper.options.mode == .strict
        self.convertsTypes = mapper.options.convertsTypes ?? !strict
        self.issues = collectsIssues ? [] : nil
        self.tracksPath = collectsIssues
    }

    /// Records a lenient skip (its path relative to ``path``) when the caller collects them.
    @inline(__always)
    func skipped(_ error: MappingError) {
        guard tracksPath else { return }
        var located = error
        located.path.insert(contentsOf: path, at: 0)
        issues?.append(located)
    }

    /// Runs `body` with `components` pushed on ``path`` when paths are tracked.
    @inline(__always)
    func within<R>(_ components: [JSONPathComponent], _ body: () throws -> R) rethrows -> R {
        guard tracksPath else { return try body() }
        path.append(contentsOf: components)
        defer { path.removeLast(components.count) }
        return try body()
    }
}

/// State of one encode call: immutable, so a value (no allocation per call).
struct EncodeContext {
    let mapper: ModelMapper
    let strict: Bool
    let writesNilAsNull: Bool

    init(mapper: ModelMapper) {
        self.mapper = mapper
        self.strict = mapper.options.mode == .strict
        self.writesNilAsNull = mapper.options.writesNilAsNull
    }
}

/// Reads one Swift type from a tape node and writes it back: the mapper's unit of conversion.
///
/// Subclasses exist per scalar type and per container shape; containers hold the codec of
/// their elements, so a property's whole conversion is built once, when its plan is built.
/// Codecs are immutable after creation and shared across threads.
class ValueCodec<V>: @unchecked Sendable {
    /// The type name used in error messages.
    var expected: String { String(describing: V.self) }

    /// Reads a `V` from the node at `i`.
    ///
    /// - Throws: ``MappingError`` with a path relative to this value.
    func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> V {
        throw MappingError(.invalidConfiguration("no conversion for \(expected)"))
    }

    /// Reads a `V` from the node at `i` into the property's `current` value: nested struct
    /// models keep what the JSON does not mention; every other type replaces it.
    func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, merging current: V) throws -> V {
        try decode(tape, i, context)
    }

    /// Writes `value` as JSON.
    func encode(_ value: V, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        throw MappingError(.unencodable("no conversion for \(expected)"))
    }

    /// Whether `value` is `nil` (only optionals say yes).
    func isNil(_ value: V) -> Bool { false }

    /// Whether the node means "no value" for an optional of this type besides `null` (a blank
    /// string for a URL).
    func isAbsent(_ tape: JSONTape, _ i: Int) -> Bool { false }

    /// Reads the node and stores it in `property` through the instance's storage (TypeInfo
    /// does the write). The plan's decoder stores the common scalars without this generic
    /// path (see ``FieldDecoding``); a nested struct model overrides it to merge.
    func decode(
        into storage: MutableInstanceStorage, _ property: PropertyInfo, _ tape: JSONTape, _ i: Int, _ context: DecodeContext
    ) throws {
        try storage.set(decode(tape, i, context), for: property)
    }

    /// Writes the value of `property`, read through the instance's storage; returns `false`,
    /// writing nothing, for a `nil` left out.
    ///
    /// A struct's field is borrowed (a nested model or an array is not copied): the value being
    /// encoded cannot change meanwhile. A class instance's field is copied: user code that runs
    /// while a nested value is written (a hook, a transformer) could reassign the field, and a
    /// borrow would not survive that.
    func encode(
        from storage: InstanceStorage, _ property: PropertyInfo, into writer: inout JSONWriter, _ context: EncodeContext
    ) throws -> Bool {
        if property.declaringType is AnyClass {
            return try encodeUnlessOmitted(storage.get(V.self, for: property), into: &writer, context)
        }
        return try storage.withValue(V.self, for: property) { try encodeUnlessOmitted($0, into: &writer, context) }
    }

    private func encodeUnlessOmitted(_ value: borrowing V, into writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        // Not `&&`: its autoclosure would have to copy the borrowed value.
        if !context.writesNilAsNull, isNil(value) { return false }
        try encode(value, into: &writer, context)
        return true
    }

    /// The error for a node of the wrong JSON type.
    final func mismatch(_ tape: JSONTape, _ i: Int) -> MappingError {
        MappingError(.typeMismatch(expected: expected, found: tape.typeName(i)))
    }
}

/// Integer reading shared by the integer codecs: exact, with overflow and fractions
/// reported, never trapping. Inlined into each concrete codec so it is specialised there.
enum IntegerConversion {
    @inline(__always)
    static func decode<I: FixedWidthInteger>(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> I {
        switch tape.kind(i) {
        case .number:
            return try convert(tape.slice(i))
        case .string where context.convertsTypes:
            let text = tape.slice(i)
            guard JSONNumberScanner.isValidNumber(text) else {
                throw MappingError(.invalidValue(expected: "\(I.self)", found: "the string \"\(tape.string(at: i))\""))
            }
            return try convert(text)
        case .true where context.convertsTypes: return 1
        case .false where context.convertsTypes: return 0
        default:
            throw MappingError(.typeMismatch(expected: "\(I.self)", found: tape.typeName(i)))
        }
    }

    @inline(__always)
    private static func convert<I: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) throws -> I {
        do {
            return try JSONNumberScanner.integer(text, as: I.self)
        } catch {
            let found = String(decoding: text, as: UTF8.self)
            switch error {
            case .fractional: throw MappingError(.fractionalNumber(expected: "\(I.self)", found: found))
            case .overflow: throw MappingError(.numberOverflow(expected: "\(I.self)", found: found))
            case .malformed: throw MappingError(.invalidValue(expected: "\(I.self)", found: found))
            }
        }
    }
}

/// Any integer type (the rarer widths; `Int` and `Int64` have concrete codecs below).
final class IntegerCodec<I: FixedWidthInteger>: ValueCodec<I>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> I {
        try IntegerConversion.decode(tape, i, context)
    }

    override func encode(_ value: I, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.integer(value)
    }
}

/// `Int`, specialised: the most common field type.
final class IntCodec: ValueCodec<Int>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Int {
        try IntegerConversion.decode(tape, i, context)
    }

    override func encode(_ value: Int, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.integer(value)
    }
}

/// `Int64`, specialised.
final class Int64Codec: ValueCodec<Int64>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Int64 {
        try IntegerConversion.decode(tape, i, context)
    }

    override func encode(_ value: Int64, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.integer(value)
    }
}

/// `Double`.
final class DoubleCodec: ValueCodec<Double>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Double {
        switch tape.kind(i) {
        case .number:
            return try convert(tape.slice(i))
        case .string where context.convertsTypes:
            let text = tape.slice(i)
            guard JSONNumberScanner.isValidNumber(text) else {
                throw MappingError(.invalidValue(expected: expected, found: "the string \"\(tape.string(at: i))\""))
            }
            return try convert(text)
        case .true where context.convertsTypes: return 1
        case .false where context.convertsTypes: return 0
        default: throw mismatch(tape, i)
        }
    }

    private func convert(_ text: UnsafeBufferPointer<UInt8>) throws -> Double {
        do { return try JSONNumberScanner.double(text) } catch {
            throw MappingError(.numberOverflow(expected: expected, found: String(decoding: text, as: UTF8.self)))
        }
    }

    override func encode(_ value: Double, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard value.isFinite else {
            if context.strict { throw MappingError(.unencodable("\(value) has no JSON form")) }
            return writer.null()
        }
        writer.double(value)
    }
}

/// `Float`.
final class FloatCodec: ValueCodec<Float>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Float {
        let kind = tape.kind(i)
        if context.convertsTypes && (kind == .true || kind == .false) { return kind == .true ? 1 : 0 }
        guard kind == .number || (kind == .string && context.convertsTypes) else { throw mismatch(tape, i) }
        let text = tape.slice(i)
        guard JSONNumberScanner.isValidNumber(text) else {
            throw MappingError(.invalidValue(expected: expected, found: "the string \"\(tape.string(at: i))\""))
        }
        do { return try JSONNumberScanner.float(text) } catch {
            throw MappingError(.numberOverflow(expected: expected, found: String(decoding: text, as: UTF8.self)))
        }
    }

    override func encode(_ value: Float, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard value.isFinite else {
            if context.strict { throw MappingError(.unencodable("\(value) has no JSON form")) }
            return writer.null()
        }
        var text = value.description
        text.withUTF8 { writer.bytes.append(contentsOf: $0) }
    }
}

/// `CGFloat` (Foundation's, a `Double` on 64-bit Linux): read and written as a `Double`.
final class CGFloatCodec: ValueCodec<CGFloat>, @unchecked Sendable {
    private let double = DoubleCodec()

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> CGFloat {
        do { return CGFloat(try double.decode(tape, i, context)) } catch let error as MappingError {
            throw error.retyped(from: "Double", to: expected)
        }
    }

    override func encode(_ value: CGFloat, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        try double.encode(Double(value), into: &writer, context)
    }
}

/// `Decimal`, exact from the number's text.
final class DecimalCodec: ValueCodec<Decimal>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Decimal {
        let kind = tape.kind(i)
        guard kind == .number || (kind == .string && context.convertsTypes) else { throw mismatch(tape, i) }
        let text = tape.slice(i)
        guard JSONNumberScanner.isValidNumber(text), let value = try? JSONNumberScanner.decimal(text) else {
            throw MappingError(.invalidValue(expected: expected, found: tape.typeName(i)))
        }
        return value
    }

    override func encode(_ value: Decimal, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard !value.isNaN else { throw MappingError(.unencodable("Decimal NaN has no JSON form")) }
        var text = value.description
        text.withUTF8 { writer.bytes.append(contentsOf: $0) }
    }
}

/// `Bool`: `true`/`false`; converting: `0`/`1` and `"true"`, `"false"`, `"yes"`, `"no"`, `"1"`, `"0"`.
final class BoolCodec: ValueCodec<Bool>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Bool {
        switch tape.kind(i) {
        case .true: return true
        case .false: return false
        case .number where context.convertsTypes:
            // Any non-zero number is true, as in YYModel, KakaJSON and HandyJSON (100, -1, 0.666).
            return !BoolCodec.isZero(tape.slice(i))
        case .string where context.convertsTypes:
            let text = tape.string(at: i)
            switch text.lowercased() {
            case "true", "yes": return true
            case "false", "no": return false
            default:
                guard JSONNumberScanner.isValidNumber(tape.slice(i)) else {
                    throw MappingError(.invalidValue(expected: expected, found: "the string \"\(text)\""))
                }
                return !BoolCodec.isZero(tape.slice(i))
            }
        default: throw mismatch(tape, i)
        }
    }

    /// Whether the valid JSON number `text` is zero: every digit before the exponent is `0`
    /// (exact for any magnitude, with no conversion that could overflow).
    static func isZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    override func encode(_ value: Bool, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.bool(value)
    }
}

/// `String`; converting: the text of a number, `"true"`/`"false"`.
final class StringCodec: ValueCodec<String>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> String {
        switch tape.kind(i) {
        case .string: return tape.string(at: i)
        case .number where context.convertsTypes: return String(decoding: tape.slice(i), as: UTF8.self)
        case .true where context.convertsTypes: return "true"
        case .false where context.convertsTypes: return "false"
        default: throw mismatch(tape, i)
        }
    }

    override func encode(_ value: String, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.string(value)
    }
}

/// `URL` from a string.
final class URLCodec: ValueCodec<URL>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> URL {
        guard tape.kind(i) == .string else { throw mismatch(tape, i) }
        let text = tape.string(at: i)
        guard !URLCodec.isBlank(text), let url = URL(string: text) else {
            throw MappingError(.invalidValue(expected: "a URL", found: "the string \"\(text)\""))
        }
        return url
    }

    /// Blank and whitespace-only strings are no URL (Foundation would make `%20` of them).
    override func isAbsent(_ tape: JSONTape, _ i: Int) -> Bool {
        tape.kind(i) == .string && URLCodec.isBlank(tape.string(at: i))
    }

    static func isBlank(_ text: String) -> Bool { text.allSatisfy(\.isWhitespace) }

    override func encode(_ value: URL, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.string(value.absoluteString)
    }
}

/// `UUID` from its 36-character string.
final class UUIDCodec: ValueCodec<UUID>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> UUID {
        guard tape.kind(i) == .string else { throw mismatch(tape, i) }
        let text = tape.string(at: i)
        guard let uuid = UUID(uuidString: text) else {
            throw MappingError(.invalidValue(expected: "a UUID", found: "the string \"\(text)\""))
        }
        return uuid
    }

    override func encode(_ value: UUID, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.string(value.uuidString)
    }
}

/// `Data` from base64.
final class DataCodec: ValueCodec<Data>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Data {
        guard tape.kind(i) == .string else { throw mismatch(tape, i) }
        guard let data = Data(base64Encoded: tape.string(at: i)) else {
            throw MappingError(.invalidValue(expected: "base64 data", found: tape.typeName(i)))
        }
        return data
    }

    override func encode(_ value: Data, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.string(value.base64EncodedString())
    }
}

/// ``JSONValue`` itself: any JSON, kept as a tree.
final class JSONValueCodec: ValueCodec<JSONValue>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> JSONValue {
        tape.value(at: i)
    }

    override func encode(_ value: JSONValue, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.value(value)
    }
}

/// `Any` (and so `[String: Any]`, `[Any]`): Foundation-style values.
final class AnyCodec: ValueCodec<Any>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Any {
        tape.anyValue(at: i)
    }

    override func encode(_ value: Any, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        do { try writer.any(value) } catch { throw MappingError(.unencodable(String(describing: error))) }
    }
}
