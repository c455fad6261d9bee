// Addressing the instance a caller hands to PropertyInfo: a struct value in place, a class
// instance through its reference, or either behind an existential. With
// PropertyInfo+FastAccess.swift and FieldStorage.swift, the only code in TypeInfo that
// touches instance memory.

extension PropertyInfo {
    /// The general path of ``get(_:from:)``: any owner, any storage, casts.
    @usableFromInline
    func getThroughStorage<Instance, Value>(_ type: Value.Type, from instance: Instance) throws -> Value {
        guard canAccessValue else { throw unsupported }
        let value = try withFieldAddress(of: instance) { storage.load(Value.self, from: $0) }
        guard let value else {
            // The property holds its own type; the caller asked for `Value`.
            throw PropertyAccessError.typeMismatch(
                property: name, expected: String(reflecting: self.type), found: String(reflecting: Value.self))
        }
        return value
    }

    // MARK: Writing

    /// The general path of ``set(_:on:)-(_,Instance)``: any owner, any storage, casts.
    @usableFromInline
    func setThroughStorage<Instance, Value>(_ value: Value, on instance: inout Instance) throws {
        guard canAccessValue else { throw unsupported }
        if declaringClass == nil, Instance.self == declaringType {
            let written = withUnsafeMutableBytes(of: &instance) { bytes in
                storage.store(value, to: (bytes.baseAddress ?? zeroSizedValueAddress) + offset)
            }
            guard written else { throw mismatch(value) }
            return
        }
        if let object = Self.classInstance(instance) {
            try set(value, onObject: object)
            return
        }
        if Instance.self == declaringType {
            let written = withUnsafeMutableBytes(of: &instance) { bytes in
                storage.store(value, to: (bytes.baseAddress ?? zeroSizedValueAddress) + offset)
            }
            guard written else { throw mismatch(value) }
            return
        }
        // An existential (`Any`, `any P`) holding a struct: open it to its concrete type, write
        // into a copy and put the copy back in a new box, so that copies of the existential made
        // before the write keep the old value (value semantics).
        guard Self.isExistential(Instance.self) else { throw notAnInstance(Instance.self) }
        let opened = unboxedExistential(instance)
        func writeOpened<T>(_ concrete: T) throws -> Any {
            guard T.self == declaringType else { throw notAnInstance(T.self) }
            var copy = concrete
            try setThroughStorage(value, on: &copy)
            return copy
        }
        // `_openExistential` on the unboxed value binds `T` to the dynamic type; passing
        // `opened` to a generic parameter directly would bind it to `Any` and recurse.
        guard let updated = try _openExistential(opened, do: writeOpened) as? Instance else {
            throw notAnInstance(Swift.type(of: opened))
        }
        instance = updated
    }

    /// Writes a value into the property of a class instance.
    ///
    /// - Parameters:
    ///   - value: the new value.
    ///   - object: an instance of the declaring class or a subclass.
    /// - Throws: ``PropertyAccessError`` as ``set(_:on:)`` does.
    public func set<Value>(_ value: Value, on object: AnyObject) throws {
        try set(value, onObject: object)
    }

    func set<Value>(_ value: Value, onObject object: AnyObject) throws {
        guard canAccessValue else { throw unsupported }
        guard owns(object) else { throw notAnInstance(Swift.type(of: object)) }
        let written = withExtendedLifetime(object) {
            storage.store(value, to: Unmanaged.passUnretained(object).toOpaque() + offset)
        }
        guard written else { throw mismatch(value) }
    }

    // MARK: Ownership checks

    func withFieldAddress<Instance, R>(of instance: Instance, _ body: (UnsafeRawPointer) -> R) throws -> R {
        if declaringClass == nil, Instance.self == declaringType {
            return withUnsafeBytes(of: instance) { body(($0.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress)) + offset) }
        }
        if let object = Self.classInstance(instance) {
            guard owns(object) else { throw notAnInstance(Swift.type(of: object)) }
            return withExtendedLifetime(object) {
                body(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset)
            }
        }
        if Instance.self == declaringType {
            return withUnsafeBytes(of: instance) { body(($0.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress)) + offset) }
        }
        guard Self.isExistential(Instance.self) else { throw notAnInstance(Instance.self) }
        let opened = unboxedExistential(instance)
        func readOpened<T>(_ concrete: T) throws -> R {
            guard T.self == declaringType else { throw notAnInstance(T.self) }
            return withUnsafeBytes(of: concrete) { body(($0.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress)) + offset) }
        }
        if let object = Self.classInstance(opened) {
            return try withFieldAddress(of: object, body)
        }
        return try _openExistential(opened, do: readOpened)
    }

    /// Whether `object` is an instance of the declaring class or one of its subclasses.
    func owns(_ object: AnyObject) -> Bool {
        guard let declaringClass else { return false }
        var current: AnyClass? = Swift.type(of: object)
        while let candidate = current {
            if candidate == declaringClass { return true }
            current = MetadataReader(candidate).superclass
        }
        return false
    }

    /// The instance as an object, when `Instance` is a class type or an existential holding a class instance.
    static func classInstance<Instance>(_ instance: Instance) -> AnyObject? {
        // Reading the metadata kind is much cheaper than a dynamic cast of the metatype.
        switch MetadataReader(Instance.self).kind {
        case .class: return unsafeBitCast(instance, to: AnyObject.self)
        case .existential: break
        default: return nil
        }
        let boxed: Any = instance
        guard MetadataReader(Swift.type(of: boxed)).kind == .class else { return nil }
        // Unboxed first: cast straight to AnyObject, an `any Error` gives its error box, not the instance.
        return unboxedExistential(boxed) as AnyObject
    }

    static func isExistential(_ type: Any.Type) -> Bool {
        isExistentialType(type)
    }
}
