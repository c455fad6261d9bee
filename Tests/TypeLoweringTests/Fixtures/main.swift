// Prints the layout of every corpus type as the runtime knows it:
//   type <mangling> <size> <alignment> <stride> <instance size or -> <instance alignment or ->
//   field <mangling> <name> <offset> <size> <alignment>
@_spi(Reflection) import Swift

func sizeAndAlignment(_ type: Any.Type) -> (Int, Int) {
    func measure<T>(_: T.Type) -> (Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
    return _openExistential(type, do: measure)
}

func report<T>(_ type: T.Type, isClass: Bool = false) {
    let mangling = _mangledTypeName(type) ?? "?"
    var instance = "- -"
    if isClass {
        // Class metadata on Linux: instance size (uint32) at +24, instance alignment mask (uint16) at +28.
        let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        let size = metadata.load(fromByteOffset: 24, as: UInt32.self)
        let mask = metadata.load(fromByteOffset: 28, as: UInt16.self)
        instance = "\(size) \(Int(mask) + 1)"
    }
    print("type \(mangling) \(MemoryLayout<T>.size) \(MemoryLayout<T>.alignment) \(MemoryLayout<T>.stride) \(instance)")
    let options: _EachFieldOptions = isClass ? [.classType] : []
    _ = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
        let (size, alignment) = sizeAndAlignment(fieldType)
        print("field \(mangling) \(String(cString: name)) \(offset) \(size) \(alignment)")
        return true
    }
}

report(BoundGenerics.self)
report(Optionals.self)
report(MultiPayload.self)
report(PointerPayloads.self)
report(NoPayload.self)
report(Tree.self)
report(Enums.self)
report(FoundationTypes.self)
report(References.self, isClass: true)
report(Functions.self)
report(Existentials.self)
report(Tuples.self)
report(Base.self, isClass: true)
report(Middle.self, isClass: true)
report(Leaf.self, isClass: true)
report(CustomEncoder.self, isClass: true)
report(CustomDecoder.self, isClass: true)
report(AtomicHolder.self, isClass: true)
// Bound generic instantiations: laid out on request (`typeinfo layout --type`), not as file types.
report(Wrapper<Int>.self)
report(Wrapper<String?>.self)
report(Wrapper<Wrapper<Bool>>.self)
report(Optional<MultiPayload>.self)
