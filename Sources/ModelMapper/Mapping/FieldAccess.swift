import TypeInfo

/// The seam between the mapper and `PropertyInfo`: how a plan reads and writes one stored
/// property of a `T` as a `V` (the property's own type).
///
/// Two paths, both from the same `PropertyInfo`:
/// - `PropertyInfo.set`/`get`, the general primitive (ownership checks, casts, weak/unowned);
/// - for strong stored properties of the plan's own type, a direct typed access at
///   `PropertyInfo.offset`. The plan is built from `ClassInfo.of(T.self)`, so the offset is
///   the one TypeInfo read for this very type (a subclass instance keeps its superclass's
///   field offsets), and `V` is exactly the property's type, checked when the accessor is made.
///
/// The direct path exists because `PropertyInfo.set` in unspecialised generic code spends most
/// of its time instantiating generic metadata (measured: about a third of a GitHub-user decode,
/// see docs/performance.md). ``MappingOptions/fieldAccess`` switches a mapper to the primitive
/// alone (`.propertyInfo`); tests run both.
struct FieldAccess<T, V> {
    let property: PropertyInfo
    private let direct: Bool

    /// The offset the plan may use for raw access from the instance's base address, or `nil`
    /// when this property must go through `PropertyInfo`.
    var directOffset: Int? { direct ? property.offset : nil }

    /// - Parameters:
    ///   - property: the property, from `ClassInfo.of(T.self)`.
    ///   - strategy: whether the direct path may be used.
    ///   - instanceSize: for classes, the object's size from `ClassInfo.instanceSize`, so the
    ///     field is checked to lie inside the object (`nil` disables the direct path).
    init(_ property: PropertyInfo, strategy: FieldAccessStrategy, instanceSize: Int?) {
        self.property = property
        let isClass = T.self is AnyClass
        let ownsProperty = isClass || property.declaringType == T.self
        self.direct = strategy == .direct && property.ownership == .strong && MemoryLayout<V>.size > 0 && property.type == V.self
            && ownsProperty && property.offset >= 0
            && property.offset + MemoryLayout<V>.size <= (isClass ? instanceSize ?? 0 : MemoryLayout<T>.size)
    }

    @inline(__always)
    func set(_ value: V, on instance: inout T) throws {
        guard direct else { return try property.set(value, on: &instance) }
        let offset = property.offset
        if T.self is AnyClass {
            let object = unsafeBitCast(instance, to: AnyObject.self)
            withExtendedLifetime(object) {
                (Unmanaged.passUnretained(object).toOpaque() + offset).assumingMemoryBound(to: V.self).pointee = value
            }
        } else {
            withUnsafeMutableBytes(of: &instance) { raw in
                guard let base = raw.baseAddress else { return }
                (base + offset).assumingMemoryBound(to: V.self).pointee = value
            }
        }
    }

    @inline(__always)
    func get(from instance: T) throws -> V {
        guard direct else { return try property.get(V.self, from: instance) }
        let offset = property.offset
        if T.self is AnyClass {
            let object = unsafeBitCast(instance, to: AnyObject.self)
            return withExtendedLifetime(object) {
                (UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset).assumingMemoryBound(to: V.self).pointee
            }
        }
        return try withUnsafeBytes(of: instance) { raw in
            guard let base = raw.baseAddress else { return try property.get(V.self, from: instance) }
            return (base + offset).assumingMemoryBound(to: V.self).pointee
        }
    }
}

