import TypeLayout

/// A class's own stored properties as the library reads them from the class's field record.
///
/// The client lays class instances out itself (the library adds up every ancestor's instance
/// size on Linux), from each property's type lowered by name. Some properties' mangled types
/// cannot be spelled as text (accessor-function and indirect symbolic references, a private
/// class in an `Optional`): the library reads those from the record with its own symbolic
/// reference resolution. So the class is handed to it as a synthetic metadata record that names
/// the descriptor and no superclass, and each child's typeref is lowered for its size and
/// alignment. The offsets the library gives are after a bare object header, not after the real
/// superclass, and are not used.
extension LoweringSession {
    /// Metadata kind of a Swift class without Objective-C interop (MetadataValues.h).
    static let classMetadataKind = UInt64(MetadataKind.class.rawValue)
    /// Where `TargetClassMetadata` holds its descriptor pointer without Objective-C interop:
    /// kind, superclass, flags, instance address point, instance size, alignment mask, reserved,
    /// class size, class address point (8 + 8 + 4 + 4 + 4 + 2 + 2 + 4 + 4).
    static let classDescriptorOffset = 40

    /// The own stored properties of the non-generic class `mangling` (without `$s`), each with
    /// its type's kind, size and alignment; the reply's own size and alignment are the library's
    /// instance for a root class and are not used.
    func lowerInstance(mangling: String) -> LoweredType {
        let key = LoweringWire.instanceKey(mangling)
        guard mangling.hasSuffix("C"), !mangling.hasSuffix("G"),
            let descriptor = memory.symbolAddress("$s" + mangling + "Mn"),
            let metadata = memory.syntheticMetadata(
                kind: Self.classMetadataKind, descriptor: descriptor, descriptorOffset: Self.classDescriptorOffset)
        else {
            return LoweredType(mangling: key, unknownReason: "no class descriptor named $s\(mangling)Mn in the images")
        }
        guard let info = context.info(ofMetadata: metadata), info.kind == .classInstance else {
            return LoweredType(
                mangling: key, unknownReason: "the reflection library cannot lay out its fields (a field type it cannot lower)")
        }
        var result = LoweredType(mangling: key)
        result.take(info)
        result.appendChildren(
            count: info.fieldCount, reading: { context.child(ofMetadata: metadata, at: $0) },
            lowering: { child, _ in
                let lowerable = child.typeRef.flatMap { restsOnZeroSizedStruct($0, depth: 0) ? nil : $0 }
                return lowerable.flatMap { context.info(of: $0) }
            })
        return result
    }
}
