// Reading and writing a stored property through its address: the second (and last) place
// in TypeInfo that touches raw memory. Everything is generic over the field's declared
// type `F`, opened once when a PropertyInfo is built, so reads and writes go through the
// field type's own value witnesses (copy, assign, destroy) and reference counts stay right.

/// Reads and writes one stored property's storage.
protocol FieldStorage: Sendable {
    /// Copies the field's value out as `Any`.
    func load(from field: UnsafeRawPointer) -> Any
    /// Copies the field's value out as `V`, or nil if it is not a `V`.
    func load<V>(_ type: V.Type, from field: UnsafeRawPointer) -> V?
    /// Assigns `value` to the field; false (and nothing written) if it is not convertible to the field's type.
    func store<V>(_ value: V, to field: UnsafeMutableRawPointer) -> Bool
}

/// Builds the storage accessor for a field of declared type `type` held with `ownership`.
func makeFieldStorage(for type: Any.Type, ownership: MetadataOwnership) -> any FieldStorage {
    func open<F>(_: F.Type) -> any FieldStorage {
        switch ownership {
        case .strong: return DirectFieldStorage<F>()
        case .weak, .unowned, .unownedUnsafe: return ReferenceFieldStorage<F>(ownership: ownership)
        }
    }
    return open(type)
}

/// An ordinary stored property: the memory holds an `F`.
struct DirectFieldStorage<F>: FieldStorage {
    func load(from field: UnsafeRawPointer) -> Any {
        field.assumingMemoryBound(to: F.self).pointee
    }

    func load<V>(_ type: V.Type, from field: UnsafeRawPointer) -> V? {
        if V.self == F.self {
            return field.assumingMemoryBound(to: V.self).pointee
        }
        return field.assumingMemoryBound(to: F.self).pointee as? V
    }

    func store<V>(_ value: V, to field: UnsafeMutableRawPointer) -> Bool {
        if V.self == F.self {
            // Assignment releases the old value and retains the new one.
            field.assumingMemoryBound(to: V.self).pointee = value
            return true
        }
        guard let converted = value as? F else { return false }
        field.assumingMemoryBound(to: F.self).pointee = converted
        return true
    }
}

/// A `weak`, `unowned` or `unowned(unsafe)` property. The memory holds reference storage,
/// not an `F`: one word for the object, then the witness tables of a class-bound existential.
/// Values are moved between that storage and a real `F` through the runtime's own
/// reference-storage entry points.
struct ReferenceFieldStorage<F>: FieldStorage {
    let ownership: MetadataOwnership

    private var wordCount: Int { MemoryLayout<F>.size / MemoryLayout<UInt>.size }

    func load(from field: UnsafeRawPointer) -> Any {
        loadValue(from: field)
    }

    func load<V>(_ type: V.Type, from field: UnsafeRawPointer) -> V? {
        loadValue(from: field) as? V
    }

    private func loadValue(from field: UnsafeRawPointer) -> F {
        let mutableField = UnsafeMutableRawPointer(mutating: field)
        // A +1 reference to the object, or nil.
        let object: UnsafeMutableRawPointer?
        switch ownership {
        case .weak:
            object = ReferenceStorageRuntime.shared.weakLoadStrong(mutableField)
        case .unowned:
            object = field.load(as: UnsafeMutableRawPointer?.self)
            if let object { ReferenceStorageRuntime.shared.unownedRetainStrong(object) }
        case .unownedUnsafe, .strong:
            object = field.load(as: UnsafeMutableRawPointer?.self)
            if let object { _ = ReferenceStorageRuntime.shared.retain(object) }
        }
        let temporary = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<F>.size, alignment: MemoryLayout<F>.alignment)
        defer { temporary.deallocate() }
        temporary.storeBytes(of: object, as: UnsafeMutableRawPointer?.self)
        if wordCount > 1 {
            let tail = (wordCount - 1) * MemoryLayout<UInt>.size
            (temporary + MemoryLayout<UInt>.size).copyMemory(from: field + MemoryLayout<UInt>.size, byteCount: tail)
        }
        // The temporary now holds an F that owns the +1 reference; move it out.
        return temporary.assumingMemoryBound(to: F.self).move()
    }

    func store<V>(_ value: V, to field: UnsafeMutableRawPointer) -> Bool {
        let converted: F
        if V.self == F.self, let same = value as? F {
            converted = same
        } else if let cast = value as? F {
            converted = cast
        } else {
            return false
        }
        withTemporaryCopy(of: converted) { temporary in
            let raw = UnsafeRawPointer(temporary)
            let object = raw.load(as: UnsafeMutableRawPointer?.self)
            switch ownership {
            case .weak:
                _ = ReferenceStorageRuntime.shared.weakAssign(field, object)
            case .unowned:
                // Retain the new referent before releasing the old one: they may be the same object.
                if let object { _ = ReferenceStorageRuntime.shared.unownedRetain(object) }
                let old = field.load(as: UnsafeMutableRawPointer?.self)
                field.storeBytes(of: object, as: UnsafeMutableRawPointer?.self)
                if let old { ReferenceStorageRuntime.shared.unownedRelease(old) }
            case .unownedUnsafe, .strong:
                field.storeBytes(of: object, as: UnsafeMutableRawPointer?.self)
            }
            if wordCount > 1 {
                let tail = (wordCount - 1) * MemoryLayout<UInt>.size
                (field + MemoryLayout<UInt>.size).copyMemory(from: raw + MemoryLayout<UInt>.size, byteCount: tail)
            }
        }
        return true
    }
}
