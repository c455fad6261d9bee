import TypeLayout

/// One stored property of a struct or class: its name, offset, type and storage, and the
/// mapper's primitive for reading and writing it in a live instance.
///
/// Lazy vars and property wrappers appear as the storage they really are
/// (`$__lazy_storage_$_x`, `_x`). Instances are immutable and shared by every
/// ``ClassInfo`` that contains the property (a subclass shares its superclass's).
public final class PropertyInfo: Sendable, CustomStringConvertible {
    /// The stored property's name.
    public let name: String
    /// Byte offset from the start of the value (for classes, from the start of the object).
    public let offset: Int
    /// The property's declared type (`C?` for `weak var x: C?`).
    public let type: Any.Type
    /// `var` (true) or `let` (false).
    public let isVar: Bool
    /// How the property holds its value.
    public let ownership: Ownership
    /// The struct or class that declares the property (a superclass, for inherited ones).
    public let declaringType: Any.Type
    /// The size in bytes of the property's storage.
    public let size: Int
    /// The alignment in bytes of the property's type.
    public let alignment: Int

    /// Whether `get(from:)` and `set(_:on:)` can read and write this property.
    ///
    /// False for properties that hold functions (`(Int) -> Int`, or an optional or tuple
    /// of them): a stored closure is kept in the calling convention of its declared type,
    /// which only compiler-generated thunks can convert, so TypeInfo reports its offset
    /// and type but refuses to read or write it rather than hand out a closure that
    /// would crash when called.
    public let canAccessValue: Bool

    /// Whether the fast path may read and write the field as a plain value of `type`:
    /// a strong, accessible property (see `PropertyInfo+FastAccess.swift`).
    @usableFromInline let allowsDirectAccess: Bool
    /// Whether the declaring type is a class (instances are references).
    @usableFromInline let declaringTypeIsClass: Bool

    /// The declaring type's identity, for the ownership check of ``InstanceStorage``.
    @usableFromInline let declaringTypeID: ObjectIdentifier

    let storage: any FieldStorage
    let declaringClass: AnyClass?

    init(
        name: String, offset: Int, type: Any.Type, isVar: Bool, ownership: MetadataOwnership, declaringType: Any.Type,
        storage: (any FieldStorage)? = nil
    ) {
        self.name = name
        self.offset = offset
        self.type = type
        self.isVar = isVar
        self.ownership =
            switch ownership {
            case .strong: .strong
            case .weak: .weak
            case .unowned: .unowned
            case .unownedUnsafe: .unownedUnsafe
            }
        self.declaringType = declaringType
        self.declaringTypeID = ObjectIdentifier(declaringType)
        self.declaringClass = declaringType as? AnyClass
        let witnesses = MetadataReader(type).valueWitnesses
        self.size = witnesses.size
        self.alignment = witnesses.alignment
        self.storage = storage ?? makeFieldStorage(for: type, ownership: ownership)
        self.canAccessValue = !Self.holdsFunction(type)
        self.allowsDirectAccess = canAccessValue && ownership == .strong
        self.declaringTypeIsClass = declaringClass != nil
    }

    /// Whether values of `type` are, or contain inline, function values.
    private static func holdsFunction(_ type: Any.Type) -> Bool {
        let reader = MetadataReader(type)
        switch reader.kind {
        case .function: return true
        case .optional: return reader.genericArguments.contains(where: holdsFunction)
        case .tuple: return reader.tupleElements.contains { holdsFunction($0.type) }
        default: return false
        }
    }

    public var description: String {
        "\(isVar ? "var" : "let") \(name): \(String(reflecting: type)) @\(offset)"
    }

    /// The property as a plain layout value.
    public var layout: FieldLayout {
        FieldLayout(
            name: name,
            type: demangledTypeName(type),
            mangledType: _mangledTypeName(type).map { $0 + ownershipSuffix },
            offset: offset,
            size: size,
            alignment: alignment,
            isVar: isVar,
            ownership: ownership
        )
    }

    /// The mangling's reference-storage marker, as the field record spells it.
    private var ownershipSuffix: String {
        switch ownership {
        case .strong: ""
        case .weak: "Xw"
        case .unowned: "Xo"
        case .unownedUnsafe: "Xu"
        }
    }

    // MARK: Reading

    /// Reads the property's current value from a struct value or class instance.
    ///
    /// - Parameter instance: a value of the declaring struct, or an instance of the declaring
    ///   class or a subclass; an existential (`Any`, `any P`, `AnyObject`) holding one, boxed any
    ///   number of times, is opened to its dynamic type.
    /// - Returns: a copy of the value, as `Any`.
    /// - Throws: ``PropertyAccessError/notAnInstance(property:owner:found:)`` naming the instance's
    ///   dynamic type when it does not own the property.
    public func get<Instance>(from instance: Instance) throws -> Any {
        guard canAccessValue else { throw unsupported }
        return try withFieldAddress(of: instance) { storage.load(from: $0) }
    }

    func mismatch<Value>(_ value: Value) -> PropertyAccessError {
        let found: Any.Type = Self.isExistential(Value.self) ? Swift.type(of: value as Any) : Value.self
        return .typeMismatch(property: name, expected: String(reflecting: type), found: String(reflecting: found))
    }

    var unsupported: PropertyAccessError {
        .unsupportedStorage(property: name, type: String(reflecting: type))
    }

    func notAnInstance(_ found: Any.Type) -> PropertyAccessError {
        .notAnInstance(property: name, owner: String(reflecting: declaringType), found: String(reflecting: found))
    }
}

/// Why a property could not be read or written.
public enum PropertyAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The value is not of (and cannot be cast to) the property's type; nothing was written.
    case typeMismatch(property: String, expected: String, found: String)
    /// The instance is not a value of the struct, or an instance of the class, that declares the property.
    case notAnInstance(property: String, owner: String, found: String)
    /// The property holds function values, which cannot be read or written through memory (see ``PropertyInfo/canAccessValue``).
    case unsupportedStorage(property: String, type: String)

    public var description: String {
        switch self {
        case .typeMismatch(let property, let expected, let found):
            return "property '\(property)' holds \(expected), not \(found)"
        case .notAnInstance(let property, let owner, let found):
            return "property '\(property)' belongs to \(owner), not to \(found)"
        case .unsupportedStorage(let property, let type):
            return "property '\(property)' holds \(type): stored closures cannot be read or written through TypeInfo"
        }
    }
}
