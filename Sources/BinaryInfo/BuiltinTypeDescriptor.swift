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

extension SwiftImage {
    /// The layout of a builtin type that no builtin type descriptor of the image describes
    /// (`Builtin.Executor`, `Builtin.Job`, `Builtin.DefaultActorStorage`), from the value witness
    /// table the Swift runtime library exports for it (`$sBeWV`), read from the library on disk.
    ///
    /// Only a whole builtin mangling (`Be`, `Bi64_`, never `BpSg`) is looked up, and never a
    /// vector (`Bi8_Bv2_`): the runtime's vector tables state the vector's own alignment, where
    /// the compiler lays a vector out at its element's (`FieldLayout.hasBuiltinVectorType`).
    func runtimeBuiltinLayout(_ mangling: String) -> ValueWitnessLayout? {
        guard Self.isScalarBuiltinMangling(mangling) else { return nil }
        return runtime?.table(named: "$s" + mangling + "WV")
    }

    /// Whether `mangling` is exactly one non-vector builtin type: `B` and one letter (`Be`,
    /// `BD`), or `Bi`/`Bf` with a bit width (`Bi64_`).
    static func isScalarBuiltinMangling(_ mangling: String) -> Bool {
        let bytes = Array(mangling.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "B") else { return false }
        let isLetter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        if bytes.count == 2 { return isLetter(bytes[1]) }
        guard bytes[1] == UInt8(ascii: "i") || bytes[1] == UInt8(ascii: "f"), bytes.last == UInt8(ascii: "_") else { return false }
        let width = bytes[2..<(bytes.count - 1)]
        return !width.isEmpty && width.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
