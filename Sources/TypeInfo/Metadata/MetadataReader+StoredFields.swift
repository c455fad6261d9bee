import TypeLayout
// A struct's or class's own stored properties, read straight from its type descriptor: the
// field descriptor's records (name, var/let, mangled type) and the metadata's field offset
// vector, each field type resolved once by `swift_getTypeByMangledNameInContext` against this
// metadata's generic arguments. Layouts per include/swift/ABI/Metadata.h (TargetStructDescriptor,
// TargetClassDescriptor) and include/swift/RemoteInspection/Records.h (FieldDescriptor).
//
// This replaces the runtime's reflection entry points on the first-read path: those re-demangle
// every field's type on every read and walk the superclass chain on every call. Tests cross-check every fact
// against them (and against MemoryLayout, offset(of:) and live addresses).

/// One stored property as the type's own records describe it.
struct StoredFieldFacts {
    var name: String
    var offset: Int
    var type: Any.Type
    var isVar: Bool
    var ownership: MetadataOwnership
    /// The accessor for the field's storage (generic over its type, so instantiating it costs a
    /// metadata lookup): kept with the resolved type.
    var storage: any FieldStorage
}

extension MetadataReader {
    /// The stored properties the struct or class itself declares (for classes, not its
    /// superclasses'), in declaration order; nil when this reader cannot vouch for them (a class
    /// with a resilient superclass, whose offset vector moves; a count that does not match; a
    /// field type the runtime cannot resolve), so that the caller uses the runtime's reflection.
    func ownStoredFields() -> [StoredFieldFacts]? {
        guard let descriptor, let flags = descriptorFlags else { return nil }
        let fieldCount: Int
        let offsetVectorWords: Int
        let wordSizedOffsets: Bool
        switch ContextDescriptorKind(flags: flags) {
        case .struct?:  // struct: numFields at 20, fieldOffsetVectorOffset at 24
            fieldCount = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self))
            offsetVectorWords = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
            wordSizedOffsets = false
        case .class?:  // class: numFields at 36, fieldOffsetVectorOffset at 40
            guard (flags >> 16) & (1 << 13) == 0 else { return nil }  // resilient superclass
            fieldCount = Int(descriptor.load(fromByteOffset: 36, as: UInt32.self))
            offsetVectorWords = Int(descriptor.load(fromByteOffset: 40, as: UInt32.self))
            wordSizedOffsets = true
        default:
            return nil
        }
        guard fieldCount > 0 else { return [] }
        guard let fields = Self.relativeTarget(descriptor + 16) else { return nil }
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let recordCount = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12, recordCount == fieldCount else { return nil }
        let offsets = base + offsetVectorWords * Self.wordSize
        let genericArguments = genericArgumentOffset.map { base + $0 }
        let key = UInt(bitPattern: base)
        let cachedFields = ResolvedFieldTypes.shared.fields(forMetadata: key)
        var resolvedFields: [ResolvedField] = []
        var result: [StoredFieldFacts] = []
        result.reserveCapacity(fieldCount)
        for index in 0..<fieldCount {
            let record = fields + 16 + index * recordSize
            let recordFlags = record.load(as: UInt32.self)
            guard let mangled = Self.relativeTarget(record + 4), let name = Self.relativeTarget(record + 8) else { return nil }
            let (length, plainFrom) = Self.mangledNameLength(mangled)
            let ownership = Self.ownership(ofMangledName: mangled, length: length, plainFrom: plainFrom)
            let resolved: ResolvedField
            if let cachedFields, index < cachedFields.count {
                resolved = cachedFields[index]
            } else {
                guard
                    let type = _getTypeByMangledNameInContext(
                        mangled.assumingMemoryBound(to: UInt8.self), UInt(length),
                        genericContext: descriptor, genericArguments: genericArguments
                    )
                else { return nil }
                resolved = ResolvedField(type: type, storage: makeFieldStorage(for: type, ownership: ownership))
                resolvedFields.append(resolved)
            }
            let offset =
                wordSizedOffsets
                ? offsets.load(fromByteOffset: index * Self.wordSize, as: Int.self)
                : Int(offsets.load(fromByteOffset: index * 4, as: UInt32.self))
            result.append(
                StoredFieldFacts(
                    name: String(cString: name.assumingMemoryBound(to: CChar.self)),
                    offset: offset,
                    type: resolved.type,
                    isVar: recordFlags & 0x2 != 0,
                    ownership: ownership,
                    storage: resolved.storage
                ))
        }
        if cachedFields == nil {
            ResolvedFieldTypes.shared.store(resolvedFields, forMetadata: key)
        }
        return result
    }
}

/// Field types already resolved, per type metadata: resolving a mangled name is most of the
/// cost of reading a type, and its answer cannot change within a process (the records are in
/// the binary, the metadata and its generic arguments are never freed), so a ClassInfo rebuilt
/// after ``ClassInfo/setNeedsUpdate()`` re-reads the records and offsets but resolves no type twice.
final class ResolvedFieldTypes: Sendable {
    static let shared = ResolvedFieldTypes()

    private let table = PthreadMutex<[UInt: [ResolvedField]]>([:])

    /// The resolved fields of the metadata at `address`, in record order, if stored.
    func fields(forMetadata address: UInt) -> [ResolvedField]? {
        table.withLock { $0[address] }
    }

    /// Stores the resolved fields of the metadata at `address`.
    func store(_ fields: [ResolvedField], forMetadata address: UInt) {
        table.withLock { $0[address] = fields }
    }
}

/// A field's type as resolved from its mangled name, and its storage accessor.
struct ResolvedField: @unchecked Sendable {
    // Metatypes and the immutable accessor are safe to share; Swift cannot see that `Any.Type` is.
    var type: Any.Type
    var storage: any FieldStorage
}
