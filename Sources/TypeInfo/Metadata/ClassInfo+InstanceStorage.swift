// Bulk access to one instance's stored properties, for code that reads or writes many of them
// per instance (ModelMapper filling or encoding a model). The instance is checked against the
// ClassInfo once; each property is checked against the instance with a few comparisons; then
// a value whose type is the property's own is loaded or stored at the property's offset.
// Everything else (weak and unowned storage, casts) takes PropertyInfo's general path.

/// Read access to the stored properties of one instance, valid only inside the closure of
/// ``ClassInfo/withStorage(reading:_:)``: like the buffer of `withUnsafeBytes`, it must not
/// be stored or returned.
public struct InstanceStorage {
    @usableFromInline let base: UnsafeRawPointer
    /// The types whose properties the instance holds (its own first), in memory the ClassInfo
    /// owns: plain words, so the hot path takes no reference counts.
    @usableFromInline let owners: UnsafeBufferPointer<ObjectIdentifier>

    @usableFromInline
    init(base: UnsafeRawPointer, owners: UnsafeBufferPointer<ObjectIdentifier>) {
        self.base = base
        self.owners = owners
    }

    /// Reads a property of the instance.
    ///
    /// - Parameters:
    ///   - type: the type to read as; reading as the property's own type is a plain load.
    ///   - property: a property of the ClassInfo this storage came from (or of a superclass).
    /// - Returns: a copy of the value.
    /// - Throws: ``PropertyAccessError`` when the property belongs to another type or the value is not a `Value`.
    @inlinable @inline(__always)
    public func get<Value>(_ type: Value.Type, for property: PropertyInfo) throws -> Value {
        if property.declaringTypeID == owners[0], property.allowsDirectAccess, Value.self == property.type {
            return (base + property.offset).assumingMemoryBound(to: Value.self).pointee
        }
        return try getSlow(type, property)
    }

    /// Lends a property's value to `body` without copying it: a `String` or a class reference
    /// is neither retained nor released, as when hand-written code reads `value.field`.
    ///
    /// Like the buffer of `withUnsafeBytes`, the value is the instance's own: `body` must not
    /// change the instance or let it go, and must not keep the value beyond the call (it may
    /// copy it). A value that is not a plain load (weak and unowned storage, a cast from the
    /// property's type) is a copy made by the general path of ``get(_:for:)``.
    /// - Parameters:
    ///   - type: the type to read as.
    ///   - property: a property of the ClassInfo this storage came from (or of a superclass).
    ///   - body: works with the value.
    /// - Returns: what `body` returns.
    /// - Throws: ``PropertyAccessError`` as ``get(_:for:)`` does; what `body` throws.
    @inlinable @inline(__always)
    public func withValue<Value, Result>(
        _ type: Value.Type, for property: PropertyInfo, _ body: (borrowing Value) throws -> Result
    ) throws -> Result {
        if property.declaringTypeID == owners[0], property.allowsDirectAccess, Value.self == property.type {
            return try Self.lend((base + property.offset).assumingMemoryBound(to: Value.self), to: body)
        }
        return try body(getSlow(type, property))
    }

    /// Passes the pointee to `body` as a borrow. Generic over `~Copyable` on purpose: for such a
    /// `Value` the compiler cannot copy, so the borrow stays a borrow once specialised for a
    /// copyable type (with `Value` copyable here, `pointee` would be loaded with a retain).
    @inlinable @inline(__always)
    static func lend<Value: ~Copyable, Result>(
        _ pointer: UnsafePointer<Value>, to body: (borrowing Value) throws -> Result
    ) rethrows -> Result {
        try body(pointer.pointee)
    }

    @usableFromInline @inline(never)
    func getSlow<Value>(_ type: Value.Type, _ property: PropertyInfo) throws -> Value {
        guard owners.contains(property.declaringTypeID) else {
            throw property.foreignPropertyError()
        }
        if property.allowsDirectAccess, Value.self == property.type {
            return (base + property.offset).assumingMemoryBound(to: Value.self).pointee
        }
        return try property.loadThroughStorage(Value.self, at: base + property.offset)
    }
}

/// Read and write access to the stored properties of one instance, valid only inside the
/// closure of ``ClassInfo/withStorage(of:_:)``: it must not be stored or returned.
public struct MutableInstanceStorage {
    /// The same instance read through ``InstanceStorage``: reads go there, so there is one
    /// read path; writes use its address, which ``ClassInfo/withStorage(of:_:)`` made mutable.
    @usableFromInline let reading: InstanceStorage

    @usableFromInline
    init(base: UnsafeMutableRawPointer, owners: UnsafeBufferPointer<ObjectIdentifier>) {
        self.reading = InstanceStorage(base: UnsafeRawPointer(base), owners: owners)
    }

    @inlinable var base: UnsafeMutableRawPointer { UnsafeMutableRawPointer(mutating: reading.base) }
    @inlinable var owners: UnsafeBufferPointer<ObjectIdentifier> { reading.owners }

    /// Reads a property of the instance (see ``InstanceStorage/get(_:for:)``).
    @inlinable
    public func get<Value>(_ type: Value.Type, for property: PropertyInfo) throws -> Value {
        try reading.get(type, for: property)
    }

    /// Writes a property of the instance, `let` properties included.
    ///
    /// A value of the property's own type is stored directly (the old value released, the new
    /// one retained); any other value is cast to the property's type, and weak or unowned
    /// properties go through the runtime's reference-storage functions.
    /// - Parameters:
    ///   - value: the new value.
    ///   - property: a property of the ClassInfo this storage came from (or of a superclass).
    /// - Throws: ``PropertyAccessError`` when the property belongs to another type or the value
    ///   does not fit; nothing is written then.
    @inlinable @inline(__always)
    public func set<Value>(_ value: consuming Value, for property: PropertyInfo) throws {
        if property.declaringTypeID == owners[0], property.allowsDirectAccess, Value.self == property.type {
            (base + property.offset).assumingMemoryBound(to: Value.self).pointee = value
            return
        }
        try setSlow(value, property)
    }

    @usableFromInline @inline(never)
    func setSlow<Value>(_ value: consuming Value, _ property: PropertyInfo) throws {
        guard owners.contains(property.declaringTypeID) else {
            throw property.foreignPropertyError()
        }
        if property.allowsDirectAccess, Value.self == property.type {
            (base + property.offset).assumingMemoryBound(to: Value.self).pointee = value
            return
        }
        try property.storeThroughStorage(value, at: base + property.offset)
    }
}

extension ClassInfo {
    /// Gives read and write access to the stored properties of a struct value (in place) or a
    /// class instance, for writing many properties with one ownership check.
    ///
    /// An existential (`Any`, `any P`, `AnyObject`, boxed any number of times) is opened to its
    /// dynamic type: a struct inside is changed in a copy that then replaces the existential's
    /// value, so copies of the existential made before keep theirs; a class instance inside is
    /// changed in place.
    /// - Parameters:
    ///   - instance: a value of this ClassInfo's struct, or an instance of its class or a subclass.
    ///   - body: works with the storage; the storage must not escape it.
    /// - Returns: what `body` returns.
    /// - Throws: ``PropertyAccessError/notAnInstance(property:owner:found:)`` naming the dynamic type when `instance` is
    ///   not of this type; what `body` throws.
    @inlinable
    public func withStorage<Instance, Result>(
        of instance: inout Instance, _ body: (MutableInstanceStorage) throws -> Result
    ) throws -> Result {
        if Instance.self != type, Self.isExistential(Instance.self) {
            return try withOpenedStorage(of: &instance, body)
        }
        if let object = try objectForStorage(instance) {
            return try withExtendedLifetime(object) {
                try body(MutableInstanceStorage(base: Unmanaged.passUnretained(object).toOpaque(), owners: storageOwners))
            }
        }
        return try withUnsafeMutableBytes(of: &instance) { bytes in
            try body(MutableInstanceStorage(base: (bytes.baseAddress ?? zeroSizedValueAddress), owners: storageOwners))
        }
    }

    /// Gives read access to the stored properties of a struct value or a class instance.
    ///
    /// - Parameters:
    ///   - instance: a value of this ClassInfo's struct, or an instance of its class or a subclass;
    ///     an existential holding one (boxed any number of times) is opened to its dynamic type.
    ///   - body: works with the storage; the storage must not escape it.
    /// - Returns: what `body` returns.
    /// - Throws: ``PropertyAccessError/notAnInstance(property:owner:found:)`` naming the dynamic type when `instance` is
    ///   not of this type; what `body` throws.
    @inlinable
    public func withStorage<Instance, Result>(
        reading instance: Instance, _ body: (InstanceStorage) throws -> Result
    ) throws -> Result {
        if Instance.self != type, Self.isExistential(Instance.self) {
            return try withOpenedStorage(reading: instance, body)
        }
        if let object = try objectForStorage(instance) {
            return try withExtendedLifetime(object) {
                try body(InstanceStorage(base: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), owners: storageOwners))
            }
        }
        return try withUnsafeBytes(of: instance) { bytes in
            try body(InstanceStorage(base: (bytes.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress)), owners: storageOwners))
        }
    }

    /// Whether `type` is an existential (`Any`, `any P`), whose value must be opened first.
    @usableFromInline
    static func isExistential(_ type: Any.Type) -> Bool {
        isExistentialType(type)
    }

    /// ``withStorage(reading:_:)`` on the value inside an existential.
    @usableFromInline
    func withOpenedStorage<Instance, Result>(reading instance: Instance, _ body: (InstanceStorage) throws -> Result) throws -> Result {
        func opened<T>(_ concrete: T) throws -> Result { try withStorage(reading: concrete, body) }
        return try _openExistential(unboxedExistential(instance), do: opened)
    }

    /// ``withStorage(of:_:)`` on the value inside an existential: a struct is changed in a copy
    /// that then replaces the existential's value, so copies of the existential made before keep
    /// theirs (value semantics); a class instance is changed in place.
    @usableFromInline
    func withOpenedStorage<Instance, Result>(of instance: inout Instance, _ body: (MutableInstanceStorage) throws -> Result) throws
        -> Result
    {
        func opened<T>(_ concrete: T) throws -> (Result, Any) {
            var copy = concrete
            let result = try withStorage(of: &copy, body)
            return (result, copy)
        }
        let (result, updated) = try _openExistential(unboxedExistential(instance), do: opened)
        guard let replacement = updated as? Instance else {
            throw PropertyAccessError.notAnInstance(property: "*", owner: qualifiedName, found: String(reflecting: Swift.type(of: updated)))
        }
        instance = replacement
        return result
    }

    /// Checks that `instance` is of this type: nil for a struct value of exactly this type,
    /// the object for an instance of this class or a subclass.
    @usableFromInline
    func objectForStorage<Instance>(_ instance: Instance) throws -> AnyObject? {
        if Instance.self == type, kind != .class { return nil }
        if kind == .class, MetadataReader(Instance.self).kind == .class {
            let object = unsafeBitCast(instance, to: AnyObject.self)
            var current: AnyClass? = Swift.type(of: object)
            while let candidate = current {
                if ObjectIdentifier(candidate) == ObjectIdentifier(type) { return object }
                current = MetadataReader(candidate).superclass
            }
        }
        throw PropertyAccessError.notAnInstance(property: "*", owner: qualifiedName, found: String(reflecting: Instance.self))
    }
}

extension PropertyInfo {
    /// The general path of ``InstanceStorage``: casts, weak and unowned storage.
    @usableFromInline
    func loadThroughStorage<Value>(_ type: Value.Type, at field: UnsafeRawPointer) throws -> Value {
        guard canAccessValue else { throw unsupported }
        guard let value = storage.load(Value.self, from: field) else {
            throw PropertyAccessError.typeMismatch(
                property: name, expected: String(reflecting: self.type), found: String(reflecting: Value.self))
        }
        return value
    }

    /// The general path of ``MutableInstanceStorage/set(_:for:)``.
    @usableFromInline
    func storeThroughStorage<Value>(_ value: Value, at field: UnsafeMutableRawPointer) throws {
        guard canAccessValue else { throw unsupported }
        guard storage.store(value, to: field) else { throw mismatch(value) }
    }

    /// The error for a property used with another type's storage.
    @usableFromInline
    func foreignPropertyError() -> PropertyAccessError {
        .notAnInstance(property: name, owner: String(reflecting: declaringType), found: "an instance of another type")
    }
}
