import Testing
@testable import TypeInfo

/// Checks a ClassInfo against the language's own answers for a value of type `T`:
/// MemoryLayout for size/stride/alignment, Mirror for property names and order, and, for
/// every key path given, `MemoryLayout.offset(of:)` for the property's offset. Then reads
/// every property through PropertyInfo and compares it with Mirror's value.
func expectMatchesLanguage<T>(
    _ value: T,
    other: T? = nil,
    offsets: [String: PartialKeyPath<T>] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let info = ClassInfo.of(T.self)
    #expect(info.size == MemoryLayout<T>.size, "size", sourceLocation: sourceLocation)
    #expect(info.stride == MemoryLayout<T>.stride, "stride", sourceLocation: sourceLocation)
    #expect(info.alignment == MemoryLayout<T>.alignment, "alignment", sourceLocation: sourceLocation)
    #expect(info.qualifiedName == String(reflecting: T.self), sourceLocation: sourceLocation)
    #expect(info.name == String(describing: T.self), sourceLocation: sourceLocation)
    #expect(info.mangledName == _mangledTypeName(T.self), sourceLocation: sourceLocation)

    let mirror = Mirror(reflecting: value)
    let labels = mirror.children.map { $0.label ?? "" }
    #expect(info.propertyInfos.map(\.name) == labels, "names and order", sourceLocation: sourceLocation)

    for (name, keyPath) in offsets {
        let expected = MemoryLayout<T>.offset(of: keyPath)
        #expect(expected != nil, "oracle for \(name)", sourceLocation: sourceLocation)
        #expect(info.propertyInfo(named: name)?.offset == expected, "offset of \(name)", sourceLocation: sourceLocation)
    }
    #expect(Set(offsets.keys).isSubset(of: Set(labels)), sourceLocation: sourceLocation)

    for (property, child) in zip(info.propertyInfos, mirror.children) {
        let read = try property.get(from: value)
        #expect(String(describing: read) == String(describing: child.value), "value of \(property.name)", sourceLocation: sourceLocation)
        #expect(isSame(type(of: child.value), type(of: read)), "dynamic type of \(property.name)", sourceLocation: sourceLocation)
        #expect(isSame(property.declaringType, T.self), sourceLocation: sourceLocation)
    }

    // Writes: copy each property of `other` into a copy of `value` through PropertyInfo, and
    // check with Mirror that exactly that property changed.
    guard let other else { return }
    let otherChildren = Mirror(reflecting: other).children.map { String(describing: $0.value) }
    let valueChildren = mirror.children.map { String(describing: $0.value) }
    for (index, property) in info.propertyInfos.enumerated() where property.canAccessValue {
        var copy = value
        try property.set(try property.get(from: other), on: &copy)
        var expected = valueChildren
        expected[index] = otherChildren[index]
        let after = Mirror(reflecting: copy).children.map { String(describing: $0.value) }
        #expect(after == expected, "write of \(property.name)", sourceLocation: sourceLocation)
    }
}

/// The offset of a class instance's stored property, measured from a live instance: the
/// address of the property's storage minus the object's address.
func liveOffset<Object: AnyObject, Value>(_ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>) -> Int {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeRawPointer($0) - base }
}

/// Metatype identity (`==` on metatypes does not resolve inside `#expect`).
func isSame(_ lhs: Any.Type?, _ rhs: Any.Type?) -> Bool {
    lhs.map(ObjectIdentifier.init) == rhs.map(ObjectIdentifier.init)
}

/// The byte positions inside a value that `mutate` changes: where the mutated field lives.
/// An oracle for fields whose offset `MemoryLayout.offset(of:)` does not give (closures).
func changedBytes<T>(of value: T, _ mutate: (inout T) -> Void) -> [Int] {
    var copy = value
    let before = withUnsafeBytes(of: &copy) { Array($0) }
    mutate(&copy)
    let after = withUnsafeBytes(of: &copy) { Array($0) }
    return before.indices.filter { before[$0] != after[$0] }
}

/// The byte positions inside a live object that `mutate` changes. The scan covers the whole
/// heap allocation as malloc reports it, so it does not rely on what TypeInfo says.
func changedBytes(in object: AnyObject, _ mutate: () -> Void) -> [Int] {
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let size = mallocUsableSize(UnsafeMutableRawPointer(mutating: base))
    let before = Array(UnsafeRawBufferPointer(start: base, count: size))
    mutate()
    let after = Array(UnsafeRawBufferPointer(start: base, count: size))
    return before.indices.filter { before[$0] != after[$0] }
}

/// Whether a property's reported storage covers exactly the bytes a mutation changed.
func covers(_ property: PropertyInfo?, _ changed: [Int]) -> Bool {
    guard let property, !changed.isEmpty else { return false }
    return changed.allSatisfy { (property.offset..<property.offset + property.size).contains($0) }
}

/// glibc's `malloc_usable_size`: how many bytes the allocation behind `pointer` holds.
@_silgen_name("malloc_usable_size")
func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
