import Synchronization
import TypeLayout

/// Everything TypeInfo knows about one type, read once from the running process's metadata
/// and cached: the Swift counterpart of YYModel's `YYClassInfo`, for structs, classes,
/// enums and every other kind of type.
///
/// Get one with ``of(_:)``: the same instance comes back for the same type until it is
/// invalidated with ``setNeedsUpdate()`` or ``invalidateAll()``; the next ``of(_:)`` then
/// builds a new one with a higher ``generation``. A ClassInfo never changes after it is
/// built, except for its ``needsUpdate`` mark, so it can be shared freely across threads.
public final class ClassInfo: Sendable, CustomStringConvertible {
    /// The type this describes.
    public let type: Any.Type
    /// What sort of type it is.
    public let kind: TypeKind
    // Names are computed when asked for: building them was a tenth of a first read, and most
    // users of a ClassInfo (the mapper, property access) never ask.

    /// The unqualified name, as `String(describing:)` spells it (`Point`, `Box<Int>`).
    public var name: String { String(describing: type) }
    /// The qualified name, as `String(reflecting:)` spells it (`Demo.Point`).
    public var qualifiedName: String { String(reflecting: type) }
    /// The mangled name, where the runtime has one.
    public var mangledName: String? { _mangledTypeName(type) }

    /// `MemoryLayout.size` (for classes, the size of a reference).
    public let size: Int
    /// `MemoryLayout.stride`.
    public let stride: Int
    /// `MemoryLayout.alignment`.
    public let alignment: Int
    /// Facts from the value witness table's flags.
    public let valueWitnessFlags: ValueWitnessFlags

    /// For classes: the size of an instance, object header included.
    public let instanceSize: Int?
    /// For classes: the alignment of an instance.
    public let instanceAlignment: Int?
    /// For classes: the superclass.
    public let superclass: AnyClass?
    /// For classes: the superclass's ClassInfo (YYClassInfo's `superClassInfo`, spelled like `superclass` here).
    public let superclassInfo: ClassInfo?

    /// Stored properties in declaration order; for classes the superclass's come first.
    public let propertyInfos: [PropertyInfo]
    /// The same properties keyed by name.
    public let propertyInfosByName: [String: PropertyInfo]

    /// The generic arguments of a specialised generic struct, class or enum (`Box<Int>` -> `[Int.self]`).
    public let genericArguments: [Any.Type]
    /// Enum (and optional) cases, in the runtime's order: payload cases first.
    public let cases: [EnumCaseInfo]
    /// Tuple elements.
    public let tupleElements: [TupleElementInfo]
    /// Function type facts.
    public let function: FunctionTypeInfo?
    /// For metatypes and existential metatypes: the instance type.
    public let instanceType: Any.Type?
    /// For existentials: whether only class instances fit (`AnyObject`, `any P` with `P: AnyObject`).
    public let isClassBoundExistential: Bool?

    /// The type and, for classes, its superclasses: the types whose properties an instance
    /// holds. Owned by this ClassInfo (freed in `deinit`), read by ``InstanceStorage``.
    // Immutable after init, so sharing it across threads is safe.
    @usableFromInline nonisolated(unsafe) let storageOwners: UnsafeBufferPointer<ObjectIdentifier>

    /// Increases every time any ClassInfo is built: a rebuilt ClassInfo always has a higher
    /// generation than the one it replaces, so caches derived from it can tell they are stale.
    public let generation: UInt64

    private let updateMark = Atomic<Bool>(false)

    /// Whether this ClassInfo was marked stale; the next ``of(_:)`` rebuilds it.
    public var needsUpdate: Bool { updateMark.load(ordering: .acquiring) }

    /// Marks this ClassInfo stale (YYClassInfo's `setNeedUpdate`): the next ``of(_:)`` for its
    /// type reads the metadata again and returns a new instance. This one stays valid for
    /// whoever holds it.
    public func setNeedsUpdate() {
        updateMark.store(true, ordering: .releasing)
    }

    /// The ClassInfo of `type`, from the cache or read now.
    ///
    /// Reading an already cached type takes no lock: it is a few atomic loads.
    /// - Parameter type: any type.
    /// - Returns: the cached ClassInfo.
    public static func of(_ type: Any.Type) -> ClassInfo {
        ClassInfoCache.shared.info(for: type)
    }

    /// Marks every cached ClassInfo stale.
    public static func invalidateAll() {
        ClassInfoCache.shared.invalidateAll()
    }

    deinit {
        storageOwners.deallocate()
    }

    /// The stored property named `name`, if any.
    public func propertyInfo(named name: String) -> PropertyInfo? {
        propertyInfosByName[name]
    }

    public var description: String {
        "ClassInfo(\(qualifiedName), \(kind.rawValue), size \(size), \(propertyInfos.count) properties, generation \(generation))"
    }

    init(reading type: Any.Type, generation: UInt64) {
        let reader = MetadataReader(type)
        let witnesses = reader.valueWitnesses
        let metadataKind = reader.kind
        self.type = type
        self.kind = Self.typeKind(metadataKind)
        self.size = witnesses.size
        self.stride = witnesses.stride
        self.alignment = witnesses.alignment
        self.valueWitnessFlags = ValueWitnessFlags(
            isPOD: witnesses.isPOD,
            isBitwiseTakable: witnesses.isBitwiseTakable,
            isInlineStorage: witnesses.isInlineStorage,
            extraInhabitantCount: witnesses.extraInhabitantCount
        )
        self.generation = generation

        let instance = reader.classInstanceSizeAndAlignment
        self.instanceSize = instance?.size
        self.instanceAlignment = instance?.alignment
        let superclass: AnyClass? = reader.superclass
        self.superclass = superclass
        let superInfo = superclass.map { ClassInfo.of($0) }
        self.superclassInfo = superInfo

        var properties: [PropertyInfo] = []
        var cases: [EnumCaseInfo] = []
        switch metadataKind {
        case .struct:
            properties = Self.readProperties(of: type, inheriting: [], reader: reader)
        case .class where reader.descriptorName != nil:
            properties = Self.readProperties(of: type, inheriting: superInfo?.propertyInfos ?? [], reader: reader)
        case .enum, .optional:
            cases = reader.fieldRecords(resolvingTypes: true).map {
                EnumCaseInfo(name: $0.name, payloadType: $0.type, isIndirect: $0.isIndirectCase)
            }
        default:
            break
        }
        let owners = [ObjectIdentifier(type)] + (superInfo.map { Array($0.storageOwners) } ?? [])
        let ownerStorage = UnsafeMutableBufferPointer<ObjectIdentifier>.allocate(capacity: owners.count)
        _ = ownerStorage.initialize(from: owners)
        self.storageOwners = UnsafeBufferPointer(ownerStorage)
        self.propertyInfos = properties
        self.propertyInfosByName = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.cases = cases
        self.genericArguments = reader.genericArguments
        self.tupleElements = reader.tupleElements.map { TupleElementInfo(label: $0.label, type: $0.type, offset: $0.offset) }
        self.function = reader.function.map(FunctionTypeInfo.init)
        self.instanceType = reader.metatypeInstanceType
        self.isClassBoundExistential = reader.isClassBoundExistential
    }

    /// Reads stored properties from the type's own field records and field offset vector
    /// (each field type resolved once), after the superclass's cached ones.
    private static func readProperties(of type: Any.Type, inheriting inherited: [PropertyInfo], reader: MetadataReader) -> [PropertyInfo] {
        if let own = reader.ownStoredFields() {
            var properties = inherited
            properties.reserveCapacity(inherited.count + own.count)
            for field in own {
                properties.append(
                    PropertyInfo(
                        name: field.name, offset: field.offset, type: field.type,
                        isVar: field.isVar, ownership: field.ownership, declaringType: type, storage: field.storage))
            }
            return properties
        }
        return readPropertiesThroughReflection(of: type, inheriting: inherited, reader: reader)
    }

    /// The runtime's reflection (what `Mirror` uses): the fallback where the type's own
    /// records cannot be read directly, and the cross-check in tests.
    static func readPropertiesThroughReflection(of type: Any.Type, inheriting inherited: [PropertyInfo], reader: MetadataReader)
        -> [PropertyInfo]
    {
        let count = _reflectionRecursiveCount(type)
        guard count >= inherited.count else { return inherited }
        // Field records are read only if some field is not a strong reference: most types
        // have none, and the runtime already resolved every field's type.
        var records: [FieldRecordFacts]?
        var properties = inherited
        properties.reserveCapacity(count)
        for index in inherited.count..<count {
            var metadata = FieldReflectionMetadata()
            let fieldType = _reflectionRecursiveChildMetadata(type, index: index, fieldMetadata: &metadata)
            let name = metadata.name.map { String(cString: $0) } ?? ""
            if let freeName = metadata.freeName { freeName(metadata.name) }
            let offset = _reflectionRecursiveChildOffset(type, index: index)
            var ownership = MetadataOwnership.strong
            if !metadata.isStrong {
                let own = records ?? reader.fieldRecords(resolvingTypes: false)
                records = own
                let ownIndex = index - inherited.count
                let record = ownIndex < own.count && own[ownIndex].name == name ? own[ownIndex] : own.first { $0.name == name }
                ownership = record?.ownership ?? .strong
            }
            properties.append(
                PropertyInfo(
                    name: name,
                    offset: offset,
                    type: fieldType,
                    isVar: metadata.isVar,
                    ownership: ownership,
                    declaringType: type
                ))
        }
        return properties
    }

    private static func typeKind(_ kind: MetadataKind?) -> TypeKind {
        switch kind {
        case .class, .objcClassWrapper: return .class
        case .struct: return .struct
        case .enum: return .enum
        case .optional: return .optional
        case .foreignClass, .foreignReferenceType: return .foreignClass
        case .tuple: return .tuple
        case .function: return .function
        case .existential, .extendedExistential: return .existential
        case .metatype: return .metatype
        case .existentialMetatype: return .existentialMetatype
        case .opaque, .fixedArray, nil: return .opaque
        }
    }
}

/// Facts from a type's value witness table flags.
public struct ValueWitnessFlags: Hashable, Sendable {
    /// Values can be copied with `memcpy` and destroyed as a no-op.
    public var isPOD: Bool
    /// Values can be moved with `memcpy` (false for types holding weak references).
    public var isBitwiseTakable: Bool
    /// Values fit an existential's three-word inline buffer.
    public var isInlineStorage: Bool
    /// Bit patterns that are not valid values, available to enclosing enums.
    public var extraInhabitantCount: Int
}

/// One enum case.
public struct EnumCaseInfo: Sendable, CustomStringConvertible {
    /// The case name.
    public let name: String
    /// The payload type, or nil for a case without payload.
    public let payloadType: Any.Type?
    /// Whether the payload is stored indirectly (`indirect case` or `indirect enum`).
    public let isIndirect: Bool

    public var description: String {
        (isIndirect ? "indirect " : "") + "case \(name)" + (payloadType.map { "(\(String(reflecting: $0)))" } ?? "")
    }
}

/// One tuple element.
public struct TupleElementInfo: Sendable {
    /// The element's label, or nil.
    public let label: String?
    /// The element's type.
    public let type: Any.Type
    /// The element's byte offset within the tuple.
    public let offset: Int
}

/// What a function type's metadata says.
public struct FunctionTypeInfo: Sendable {
    /// How a function of this type is called.
    public enum Convention: Sendable, Hashable {
        case swift, block, thin, c
        case unknown(UInt8)
    }

    /// Parameter types in order.
    public let parameterTypes: [Any.Type]
    /// The result type.
    public let resultType: Any.Type
    /// `throws`.
    public let isThrowing: Bool
    /// `async`.
    public let isAsync: Bool
    /// Escaping (stored closures are).
    public let isEscaping: Bool
    /// `@Sendable`.
    public let isSendable: Bool
    /// The calling convention.
    public let convention: Convention

    init(_ facts: FunctionFacts) {
        parameterTypes = facts.parameters
        resultType = facts.result
        isThrowing = facts.isThrowing
        isAsync = facts.isAsync
        isEscaping = facts.isEscaping
        isSendable = facts.isSendable
        convention =
            switch facts.convention {
            case 0: .swift
            case 1: .block
            case 2: .thin
            case 3: .c
            default: .unknown(facts.convention)
            }
    }
}
