extension FieldLayout {
    /// Whether the field's type is a builtin SIMD vector (`Builtin.Vec4xFPIEEE32`, mangled `Bf32_Bv4_`).
    ///
    /// Such a type has two alignments, and no reader can say which one a field's "alignment"
    /// would mean: the compiler lays a vector out at its element's alignment (its builtin type
    /// descriptor in `swift5_builtin` says so, and so does the reflection library's lowering; a
    /// `struct { var a: Builtin.Int8; var v: Builtin.Vec2xInt8 }` puts `v` at offset 1), while the
    /// runtime's metadata for the vector states the vector's own alignment (2, up to 256 for
    /// `Builtin.Vec64xFPIEEE64`), by which a generic container is laid out. The standard
    /// library's SIMD storage structs carry `@_alignment` of their own, so their size, alignment
    /// and field offsets are one fact for every source; only the field's alignment is two.
    public var hasBuiltinVectorType: Bool {
        if type.hasPrefix("Builtin.Vec") { return true }
        guard let mangledType, mangledType.hasPrefix("B") else { return false }
        return Self.isBuiltinVectorMangling(mangledType)
    }

    /// Whether `mangling` is exactly a builtin vector type: an integer or float element
    /// (`Bi8_`, `Bf32_`) followed by `Bv<count>_`.
    public static func isBuiltinVectorMangling(_ mangling: String) -> Bool {
        let bytes = Array(mangling.utf8)
        var index = 0
        func number() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            return index > start
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard expect("B"), expect("i") || expect("f"), number(), expect("_"), expect("B"), expect("v"), number(), expect("_") else {
            return false
        }
        return index == bytes.count
    }
}
