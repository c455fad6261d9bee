/// A builtin type descriptor (`swift5_builtin`, `BuiltinTypeDescriptor` in RemoteInspection/Records.h):
/// the layout of a type the image's fields use but whose layout reflection cannot compute from
/// field records (builtin types, imported C types): `int32 typeName` (relative, mangled),
/// `uint32 size`, `uint32 alignmentAndFlags` (alignment in the low 16 bits), `uint32 stride`,
/// `uint32 numExtraInhabitants`.
extension SwiftImage {
    /// The layouts the image's builtin type descriptors record, by the type's textual mangling.
    func builtinTypeLayouts() throws(BinaryInfoError) -> [String: ValueWitnessLayout] {
        var layouts: [String: ValueWitnessLayout] = [:]
        for section in sections["swift5_builtin"] ?? [] where section.size > 0 {
            let end = try recordTableEnd(section, name: "swift5_builtin", recordSize: 20)
            for record in Swift.stride(from: section.address, to: end, by: 20) {
                guard let name = try mangledName(at: record, what: "builtin type name") else { continue }
                let size = try space.read(UInt32.self, at: record &+ 4, what: "builtin type size")
                let alignment = try space.read(UInt32.self, at: record &+ 8, what: "builtin type alignment") & 0xFFFF
                let stride = try space.read(UInt32.self, at: record &+ 12, what: "builtin type stride")
                guard alignment > 0, alignment & (alignment - 1) == 0, stride >= size || stride == 1 else {
                    throw BinaryInfoError.malformedRecord(
                        path: path, what: "builtin type descriptor", address: record,
                        detail: "size \(size), alignment \(alignment), stride \(stride) are not a real layout")
                }
                layouts[name] = ValueWitnessLayout(size: Int(size), alignment: Int(alignment), stride: Int(stride))
            }
        }
        return layouts
    }
}
