import Foundation
import TypeInfo

/// How the plan's encoder writes one field: the common scalars inline (a typed load through
/// the instance's storage and the writer call, as hand-written code does), everything else
/// through the field's binding and codec. Chosen once per plan from the field's codec; the
/// inline cases do exactly what those codecs' `encode(from:...)` do.
enum FieldEncoding {
    case string, int, bool, double, isoDate, optionalString, optionalInt, optionalBool
    /// Through ``FieldBinding/encode(from:_:_:)``.
    case general

    init(_ binding: FieldBinding) {
        switch binding.codecObject {
        case is StringCodec: self = .string
        case is IntCodec: self = .int
        case is BoolCodec: self = .bool
        case is DoubleCodec: self = .double
        case let date as DateCodec where date.writesISO8601: self = .isoDate
        case is OptionalStringCodec: self = .optionalString
        case is OptionalIntCodec: self = .optionalInt
        case is OptionalBoolCodec: self = .optionalBool
        default: self = .general
        }
    }

    /// Writes the field's value; returns `false`, having written nothing, for an omitted `nil`.
    @inline(__always)
    func write(
        _ binding: FieldBinding, _ info: PropertyInfo, from storage: InstanceStorage, _ writer: inout JSONWriter,
        _ context: EncodeContext
    ) throws -> Bool {
        switch self {
        case .string:
            writer.string(try storage.get(String.self, info))
        case .int:
            writer.integer(try storage.get(Int.self, info))
        case .bool:
            writer.bool(try storage.get(Bool.self, info))
        case .double:
            let value = try storage.get(Double.self, info)
            // Infinities and NaN: the codec decides (null, or an error in strict mode).
            guard value.isFinite else { return try binding.encode(from: storage, &writer, context) }
            writer.double(value)
        case .isoDate:
            DateText.writeQuotedISO8601(try storage.get(Date.self, info), into: &writer.bytes)
        case .optionalString:
            guard let value = try storage.get(String?.self, info) else { return Self.writeNil(&writer, context) }
            writer.string(value)
        case .optionalInt:
            guard let value = try storage.get(Int?.self, info) else { return Self.writeNil(&writer, context) }
            writer.integer(value)
        case .optionalBool:
            guard let value = try storage.get(Bool?.self, info) else { return Self.writeNil(&writer, context) }
            writer.bool(value)
        case .general:
            return try binding.encode(from: storage, &writer, context)
        }
        return true
    }

    @inline(__always)
    private static func writeNil(_ writer: inout JSONWriter, _ context: EncodeContext) -> Bool {
        guard context.writesNilAsNull else { return false }
        writer.null()
        return true
    }
}

/// One field as the encoder's loop sees it. The references are `unowned(unsafe)`: the plan
/// keeps the bindings (and through them the properties) alive in its `fields` for as long as
/// it exists, and reading them here then costs no reference counting per field.
struct EncodingSlot {
    let encoding: FieldEncoding
    unowned(unsafe) let binding: FieldBinding
    unowned(unsafe) let info: PropertyInfo
    /// `"key":`, escaped, in the plan's prefix buffer (which lives as long as the plan).
    let prefix: UnsafeBufferPointer<UInt8>
}
