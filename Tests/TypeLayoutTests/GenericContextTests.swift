import Testing
import TypeLayout

/// Which layouts are generic or in a generic context: the counts of "non-generic" types in the
/// notes leave out both.
@Suite struct GenericContextTests {
    @Test("declared parameters, a bound mangling unlike the nominal one, or an unknown mangling mean generic")
    func genericOrInGenericContext() {
        var plain = TypeLayout(name: "M.Point", mangledName: "1M5PointV", kind: .struct)
        plain.nominalMangledName = "1M5PointV"
        #expect(!plain.isGenericOrInGenericContext)
        var declared = TypeLayout(name: "M.Box<A>", mangledName: "1M3BoxVyxG", kind: .struct, genericParameters: ["A"])
        declared.nominalMangledName = "1M3BoxV"
        #expect(declared.isGenericOrInGenericContext)
        var nested = TypeLayout(name: "M.Box<A>.Storage", mangledName: "1M3BoxV7StorageCyx_G", kind: .class)
        nested.nominalMangledName = "1M3BoxV7StorageC"
        #expect(nested.isGenericOrInGenericContext)
        var unspelled = TypeLayout(name: "M.Box<A>.Storage", kind: .class)
        unspelled.nominalMangledName = "1M3BoxV7StorageC"
        #expect(unspelled.isGenericOrInGenericContext)
        // A decoded document keeps no nominal mangling: only declared parameters tell.
        #expect(!TypeLayout(name: "M.Box<A>.Storage", kind: .class).isGenericOrInGenericContext)
    }
}
