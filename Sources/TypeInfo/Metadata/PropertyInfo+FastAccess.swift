import TypeLayout

// The mapper's hot path: reading and writing a field when the caller's types match the
// property's exactly. These functions are inlinable so that they are specialised in the
// caller's module: the field is then read or written as a plain `Value` at a known offset,
// with no `Any` box, no dynamic cast and no generic metadata lookup. Anything else falls
// through to the general path in PropertyInfo.swift.

extension PropertyInfo {
    /// Reads the property's current value as a `Value`.
    ///
    /// When `Value` is the property's type and `instance` is of the declaring type, this reads
    /// the field directly (no `Any` box, no dynamic cast); otherwise the value is read through
    /// the general path and cast to `Value`.
    /// - Parameters:
    ///   - type: the type to read the value as.
    ///   - instance: a value of the declaring struct, or an instance of the declaring class or a
    ///     subclass; an existential holding one (`Any`, `any P`, boxed any number of times) is
    ///     opened to its dynamic type.
    /// - Returns: a copy of the value.
    /// - Throws: ``PropertyAccessError`` when the instance does not own the property or the value is not a `Value`.
    @inlinable
    public func get<Instance, Value>(_ type: Value.Type, from instance: Instance) throws -> Value {
        if allowsDirectAccess, Value.self == self.type, Instance.self == declaringType || isInherited(by: Instance.self) {
            if declaringTypeIsClass {
                // `Instance` is the declaring class or a subclass, so `instance` is a reference to
                // one; the borrowed parameter keeps the object alive during the load.
                let object = unsafeBitCast(instance, to: UnsafeRawPointer.self)
                return (object + offset).assumingMemoryBound(to: Value.self).pointee
            }
            return withUnsafeBytes(of: instance) { bytes in
                ((bytes.baseAddress ?? UnsafeRawPointer(zeroSizedValueAddress)) + offset).assumingMemoryBound(to: Value.self).pointee
            }
        }
        return try getThroughStorage(type, from: instance)
    }

    /// Reads the property's current value as a `Value` from a variable, in place (`&model`).
    ///
    /// Passing a `var` by value (`get(_:from: model)`) can make Swift copy the whole value
    /// first, retaining every reference it holds, when the variable lives in a box (a closure
    /// captured it) or exclusivity must be enforced; reading through `&model` copies only the
    /// field. Otherwise the same as the by-value `get(_:from:)`.
    /// - Parameters:
    ///   - type: the type to read the value as.
    ///   - instance: the variable holding the struct value or class instance (or an existential
    ///     holding one, opened to its dynamic type); it is not changed.
    /// - Returns: a copy of the field's value.
    /// - Throws: ``PropertyAccessError`` when the instance does not own the property or the value is not a `Value`.
    @inlinable
    public func get<Instance, Value>(_ type: Value.Type, from instance: inout Instance) throws -> Value {
        if allowsDirectAccess, Value.self == self.type, Instance.self == declaringType || isInherited(by: Instance.self) {
            if declaringTypeIsClass {
                let object = unsafeBitCast(instance, to: UnsafeRawPointer.self)
                return (object + offset).assumingMemoryBound(to: Value.self).pointee
            }
            return withUnsafeMutableBytes(of: &instance) { bytes in
                UnsafeRawPointer((bytes.baseAddress ?? zeroSizedValueAddress) + offset).assumingMemoryBound(to: Value.self).pointee
            }
        }
        return try getThroughStorage(type, from: instance)
    }

    /// Writes a value into the property of a struct value (in place) or class instance, `let` properties included.
    ///
    /// When `Value` is the property's type and `instance` is of the declaring type, the write
    /// is direct; otherwise the value is cast (`as?`) to the property's type, so an `Int` fits
    /// an `Int?` and an `Any` holding a `String` fits a `String`. Reference counts are kept
    /// right: the old value is released, the new one retained.
    /// - Parameters:
    ///   - value: the new value.
    ///   - instance: the struct value (modified in place) or the class instance. An existential
    ///     (`Any`, `any P`, `AnyObject`, boxed any number of times) is opened to its dynamic type:
    ///     a struct inside is changed in a copy that then replaces the existential's value, so
    ///     copies of the existential made before keep the old value; a class instance inside is
    ///     changed in place.
    /// - Throws: ``PropertyAccessError/typeMismatch(property:expected:found:)`` when the value does not fit
    ///   (nothing is written), ``PropertyAccessError/notAnInstance(property:owner:found:)`` when the
    ///   instance does not own the property.
    @inlinable
    public func set<Instance, Value>(_ value: Value, on instance: inout Instance) throws {
        if allowsDirectAccess, Value.self == self.type, Instance.self == declaringType || isInherited(by: Instance.self) {
            if declaringTypeIsClass {
                // The `inout` reference keeps the object alive during the store.
                let object = unsafeBitCast(instance, to: UnsafeMutableRawPointer.self)
                (object + offset).assumingMemoryBound(to: Value.self).pointee = value
                return
            }
            withUnsafeMutableBytes(of: &instance) { bytes in
                ((bytes.baseAddress ?? zeroSizedValueAddress) + offset).assumingMemoryBound(to: Value.self).pointee = value
            }
            return
        }
        try setThroughStorage(value, on: &instance)
    }
}

extension PropertyInfo {
    /// Whether `Instance` is a subclass of the declaring class, so that any instance typed as
    /// `Instance` holds this property at ``offset``: an inherited property read or written on an
    /// instance typed as the subclass. Specialised for a class `Instance`, this is a walk up the
    /// superclass chain (one load per level); for any other type it is false.
    @inlinable @inline(__always)
    func isInherited<Instance>(by _: Instance.Type) -> Bool {
        guard declaringTypeIsClass, MemoryLayout<Instance>.size == MemoryLayout<AnyObject>.size,
            let subclass = Instance.self as? AnyClass
        else { return false }
        // Class metadata's second word is the superclass (include/swift/ABI/Metadata.h,
        // TargetClassMetadata); a root class has none.
        var current = unsafeBitCast(subclass, to: UnsafeRawPointer.self)
        // Only class metadata (kind 0, or an isa pointer) has that layout.
        let kind = current.load(as: UInt.self)
        guard kind == MetadataKind.class.rawValue || kind > MetadataKind.lastEnumerated else { return false }
        let target = UInt(bitPattern: declaringTypeID)
        while let superclass = current.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self) {
            if UInt(bitPattern: superclass) == target { return true }
            current = superclass
        }
        return false
    }
}

/// The address handed out for a zero-sized value, whose buffer has no base address: it has no
/// bytes to read or write, so any non-null, maximally aligned address serves.
@inlinable
var zeroSizedValueAddress: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(bitPattern: 16).unsafelyUnwrapped
}
