import Foundation
import TypeInfo

/// How the plan's encoder writes one field: the common scalars inline (``FieldScalar``), as
/// ``ValueCodec/encode(from:_:into:_:)`` does with those codecs, everything else through the
/// field's binding and codec. (The codecs keep no concrete `encode(from:)` of their own: only
/// the tree encoder, for key paths and `didEncode`, reaches them through the generic one.)
extension FieldScalar {
    /// Writes the field's value; returns `false`, having written nothing, for an omitted `nil`.
    @inline(__always)
    func write(
        _ binding: Unmanaged<FieldBinding>, _ info: PropertyInfo, from storage: InstanceStorage, _ writer: inout JSONWriter,
        _ context: EncodeContext
    ) throws -> Bool {
        switch self {
        case .string:
            // Borrowed, not copied: no retain and release per field (see InstanceStorage.withValue).
            try storage.withValue(String.self, for: info) { writer.string($0) }
        case .int:
            writer.integer(try storage.get(Int.self, for: info))
        case .bool:
            writer.bool(try storage.get(Bool.self, for: info))
        case .double:
            let value = try storage.get(Double.self, for: info)
            // Infinities and NaN: the codec decides (null, or an error in strict mode).
            guard value.isFinite else { return try Self.general(binding, storage, &writer, context) }
            writer.double(value)
        case .date:
            // Only for ISO 8601 dates (see EncodingSlot); the codec writes the other encodings.
            DateText.writeQuotedISO8601(try storage.get(Date.self, for: info), into: &writer.bytes)
        case .optionalString:
            let written = try storage.withValue(String?.self, for: info) { optional in
                guard let value = optional else { return false }
                writer.string(value)
                return true
            }
            guard written else { return Self.writeNil(&writer, context) }
        case .optionalInt:
            guard let value = try storage.get(Int?.self, for: info) else { return Self.writeNil(&writer, context) }
            writer.integer(value)
        case .optionalBool:
            guard let value = try storage.get(Bool?.self, for: info) else { return Self.writeNil(&writer, context) }
            writer.bool(value)
        case .other:
            return try Self.general(binding, storage, &writer, context)
        }
        return true
    }

    /// Through the binding and its codec.
    private static func general(
        _ binding: Unmanaged<FieldBinding>, _ storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext
    ) throws -> Bool {
        try binding._withUnsafeGuaranteedRef { try $0.encode(from: storage, &writer, context) }
    }

    @inline(__always)
    private static func writeNil(_ writer: inout JSONWriter, _ context: EncodeContext) -> Bool {
        guard context.writesNilAsNull else { return false }
        writer.null()
        return true
    }
}

/// One field as the encoder's loop sees it. The references are `Unmanaged`: the plan keeps
/// the bindings (and through them the properties) alive in its `fields` for as long as it
/// exists, and `_withUnsafeGuaranteedRef` then lends them without reference counting per
/// field (an `unowned(unsafe)` reference is retained and released when read, as a strong one).
struct EncodingSlot {
    /// The field's scalar; ``FieldScalar/other`` for a date not written as ISO 8601.
    let encoding: FieldScalar
    let binding: Unmanaged<FieldBinding>
    let info: Unmanaged<PropertyInfo>
    /// `,"key":`, escaped, in the plan's prefix buffer (which lives as long as the plan).
    let member: UnsafeBufferPointer<UInt8>

    init(binding: FieldBinding, member: UnsafeBufferPointer<UInt8>) {
        let scalar = FieldScalar(binding)
        let writesISO8601 = (binding.codecObject as? DateCodec)?.writesISO8601 ?? false
        self.encoding = scalar == .date && !writesISO8601 ? .other : scalar
        self.binding = Unmanaged.passUnretained(binding)
        self.info = Unmanaged.passUnretained(binding.info)
        self.member = member
    }
}
