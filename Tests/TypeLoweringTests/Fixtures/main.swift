// Prints the layout of every corpus type as the runtime knows it:
//   type <mangling> <size> <alignment> <stride> <instance size or -> <instance alignment or ->
//   field <mangling> <name> <offset> <size> <alignment>
//   extra <mangling> <extra inhabitants>            (the value witness table's count; a class's is its reference's)
//   tagbits <mangling> <tag bytes> <hex mask>       (multi-payload enums: payload bits holding the tag)
//   cases <mangling> <payload cases> <empty cases>  (the enum descriptor's counts)
//   payload <mangling> <case index> <size>           (MemoryLayout of a case's payload)
@_spi(Reflection) import Swift

func sizeAndAlignment(_ type: Any.Type) -> (Int, Int) {
    func measure<T>(_: T.Type) -> (Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
    return _openExistential(type, do: measure)
}

/// `name` stands in for the mangling of a private type, which the runtime spells with an address.
func report<T>(_ type: T.Type, isClass: Bool = false, name: String? = nil) {
    let mangling = name ?? _mangledTypeName(type) ?? "?"
    var instance = "- -"
    if isClass {
        // Class metadata on Linux: instance size (uint32) at +24, instance alignment mask (uint16) at +28.
        let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
        let size = metadata.load(fromByteOffset: 24, as: UInt32.self)
        let mask = metadata.load(fromByteOffset: 28, as: UInt16.self)
        instance = "\(size) \(Int(mask) + 1)"
    }
    print("type \(mangling) \(MemoryLayout<T>.size) \(MemoryLayout<T>.alignment) \(MemoryLayout<T>.stride) \(instance)")
    print("extra \(mangling) \(extraInhabitants(type))")
    let options: _EachFieldOptions = isClass ? [.classType] : []
    _ = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
        let (size, alignment) = sizeAndAlignment(fieldType)
        print("field \(mangling) \(String(cString: name)) \(offset) \(size) \(alignment)")
        return true
    }
}

/// The value witness table's extraInhabitantCount (ValueWitnessTable: 8 function pointers,
/// size, stride, flags (uint32), then the count (uint32) at +84 on 64-bit targets).
func extraInhabitants(_ type: Any.Type) -> Int {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let witnesses = metadata.load(fromByteOffset: -8, as: UnsafeRawPointer.self)
    return Int(witnesses.load(fromByteOffset: 84, as: UInt32.self))
}

/// The payload bits that hold a multi-payload enum's case, found with the enum's own getEnumTag
/// witness (EnumValueWitnessTable, right after the value witness table, at +88): a zeroed value
/// is the first payload case; each bit of the largest payload is set alone, and the bits that
/// change the tag are the tag's. getEnumTag only reads the bits, so the garbage payloads are safe.
func tagSpareBits<T>(_ type: T.Type, largestPayload: Int) {
    let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
    let witnesses = metadata.load(fromByteOffset: -8, as: UnsafeRawPointer.self)
    typealias GetEnumTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    let getEnumTag = unsafeBitCast(witnesses.load(fromByteOffset: 88, as: UnsafeRawPointer.self), to: GetEnumTag.self)
    let size = MemoryLayout<T>.size
    let value = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { value.deallocate() }
    value.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    let base = getEnumTag(value, metadata)
    var mask = ""
    for byte in 0..<largestPayload {
        var bits: UInt8 = 0
        for bit in 0..<8 {
            value.storeBytes(of: UInt8(1) << UInt8(bit), toByteOffset: byte, as: UInt8.self)
            if getEnumTag(value, metadata) != base { bits |= UInt8(1) << UInt8(bit) }
        }
        value.storeBytes(of: 0, toByteOffset: byte, as: UInt8.self)
        mask += String(bits >> 4, radix: 16) + String(bits & 0xf, radix: 16)
    }
    print("tagbits \(_mangledTypeName(type) ?? "?") \(size - largestPayload) \(mask)")
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
report(PublicHeadStorage.self, isClass: true)
func reportClass(_ type: Any.Type, name: String) {
    func open<T>(_ type: T.Type) { report(type, isClass: true, name: name) }
    _openExistential(type, do: open)
}
reportClass(PooledStorage.storageClass, name: "PooledStorageBacking")
report(BoundSubclass.self, isClass: true)
// Bound generic instantiations: laid out on request (`typeinfo layout --type`), not as file types.
report(Wrapper<Int>.self)
report(Wrapper<String?>.self)
report(Wrapper<Wrapper<Bool>>.self)
report(Optional<MultiPayload>.self)
// Multi-payload enums: where the tag lives (spare bits of the payloads, or tag bytes after them).
report(SpareBitPayloads.self)
report(ObjectOrString.self)
tagSpareBits(MultiPayload.self, largestPayload: MemoryLayout<String>.size)
tagSpareBits(PointerPayloads.self, largestPayload: MemoryLayout<Node>.size)
tagSpareBits(SpareBitPayloads.self, largestPayload: MemoryLayout<Bool>.size)
tagSpareBits(ObjectOrString.self, largestPayload: MemoryLayout<String>.size)
// Weak class existentials, single-case enums with a payload, cases sharing a name.
report(WeakDelegateHolder.self)
report(WeakObjectHolder.self)
report(WeakComposedHolder.self)
report(WeakNodeHolder.self)
report(WeakPayload.self)
report(SingleCaseEnumPayload.self)
report(SingleCaseStructPayload.self)
report(SameNamedCases.self)

/// The enum descriptor's payload and empty case counts (TargetEnumDescriptor: flags, parent,
/// name, access function, fields, then `NumPayloadCasesAndPayloadSizeOffset` (low 24 bits) at
/// +20 and `NumEmptyCases` at +24); the descriptor is at +8 of the metadata.
func caseCounts<T>(_ type: T.Type) {
    let metadata = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self)
    let descriptor = metadata.load(fromByteOffset: 8, as: UnsafeRawPointer.self)
    let payloadCases = descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF
    let emptyCases = descriptor.load(fromByteOffset: 24, as: UInt32.self)
    print("cases \(_mangledTypeName(type) ?? "?") \(payloadCases) \(emptyCases)")
}
func payload<T, P>(_ type: T.Type, _ index: Int, _: P.Type) {
    print("payload \(_mangledTypeName(type) ?? "?") \(index) \(MemoryLayout<P>.size)")
}
caseCounts(SingleCaseEnumPayload.self)
caseCounts(SingleCaseStructPayload.self)
caseCounts(SameNamedCases.self)
payload(SingleCaseEnumPayload.self, 0, Sanitizer.self)
payload(SingleCaseStructPayload.self, 0, Wrapper<Int>.self)
payload(SameNamedCases.self, 0, (String, file: String?).self)
payload(SameNamedCases.self, 1, (String, file: String?, lines: [String]?).self)
