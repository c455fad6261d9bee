import Testing
@testable import TypeLayout

/// The comparison's rules on small hand-built pairs of layouts: each expected disagreement
/// repeats the input values, so the test states rules, not measured numbers.
@Suite struct LayoutWitnessComparisonTests {
    static func field(_ name: String, at offset: Int?) -> FieldLayout {
        FieldLayout(name: name, type: "T", offset: offset)
    }

    @Test("types are matched by mangled name when the names differ")
    func mangledNameFallback() {
        let metadata = TypeLayout(name: "M.Point", mangledName: "1M5PointV", kind: .struct, size: 4, fields: [Self.field("x", at: 0)])
        let dwarf = TypeLayout(name: "Point", mangledName: "$s1M5PointVD", kind: .struct, size: 8, fields: [Self.field("x", at: 0)])
        let report = LayoutWitnessComparison.compare(metadata: [metadata], dwarf: [dwarf])
        #expect(report.comparedTypes == ["M.Point"])
        #expect(
            report.disagreements == [
                LayoutDisagreement(typeName: "M.Point", fact: .size(metadata: 4, dwarf: 8), reason: .synthesizedSize)
            ])
    }

    @Test("a type DWARF does not describe is listed, not reported as a disagreement")
    func absentType() {
        let metadata = [TypeLayout(name: "M.A", kind: .struct), TypeLayout(name: "M.P", kind: .protocol)]
        let report = LayoutWitnessComparison.compare(metadata: metadata, dwarf: [])
        #expect(report.typesWithoutDWARF == ["M.A"])
        #expect(report.comparedTypes.isEmpty)
        #expect(report.disagreements.isEmpty)
    }

    @Test("members in one source only are reported both ways; unknown offsets are not compared")
    func missingMembers() {
        let metadata = TypeLayout(
            name: "M.S", kind: .struct,
            fields: [
                Self.field("a", at: 0), Self.field("generic", at: nil), Self.field("onlyMetadata", at: 8),
            ])
        let dwarf = TypeLayout(
            name: "M.S", kind: .struct,
            fields: [
                Self.field("a", at: 0), Self.field("generic", at: 4), Self.field("onlyDWARF", at: 8),
            ])
        let report = LayoutWitnessComparison.compare(metadata: [metadata], dwarf: [dwarf])
        #expect(
            report.disagreements == [
                LayoutDisagreement(typeName: "M.S", fact: .fieldMissingFromDWARF(field: "onlyMetadata"), reason: .memberNotDescribed),
                LayoutDisagreement(typeName: "M.S", fact: .fieldMissingFromMetadata(field: "onlyDWARF"), reason: .memberNotDescribed),
            ])
    }

    @Test("class fields: a constant shift is the header, anything else is synthesis")
    func classReasons() {
        let header = 2 * MemoryLayout<UnsafeRawPointer>.size
        // The metadata leaves out inherited fields here (BinaryInfo may); DWARF has the chain.
        let metadata = TypeLayout(
            name: "M.C", kind: .class, superclass: "M.B",
            fields: [
                Self.field("first", at: header + 8), Self.field("second", at: header + 16),
            ])
        let dwarfBase = TypeLayout(name: "M.B", kind: .class, fields: [Self.field("inherited", at: 0)])
        let dwarf = TypeLayout(
            name: "M.C", kind: .class, superclass: "M.B",
            fields: [
                Self.field("first", at: 0), Self.field("second", at: 1),
            ])
        let report = LayoutWitnessComparison.compare(metadata: [metadata], dwarf: [dwarf, dwarfBase])
        #expect(
            report.disagreements == [
                LayoutDisagreement(
                    typeName: "M.C", fact: .fieldOffset(field: "first", metadata: header + 8, dwarf: 0),
                    reason: .classOffsetsOmitObjectHeader),
                LayoutDisagreement(
                    typeName: "M.C", fact: .fieldOffset(field: "second", metadata: header + 16, dwarf: 1), reason: .synthesizedMemberOffsets
                ),
            ])
        #expect(report.disagreements.allSatisfy { $0.usedSource == .metadata })
    }

    @Test("a superclass cycle in DWARF ends")
    func superclassCycle() {
        let metadata = TypeLayout(name: "M.A", kind: .class, superclass: "M.B", fields: [Self.field("x", at: 16)])
        let a = TypeLayout(name: "M.A", kind: .class, superclass: "M.B", fields: [])
        let b = TypeLayout(name: "M.B", kind: .class, superclass: "M.A", fields: [Self.field("x", at: 0)])
        let report = LayoutWitnessComparison.compare(metadata: [metadata], dwarf: [a, b])
        #expect(report.disagreements.count == 1)
    }

    @Test("kinds that differ are reported; enums compare sizes only")
    func kinds() {
        let metadata = [
            TypeLayout(name: "M.E", kind: .enum, size: 1, cases: [EnumCaseLayout(name: "a")]),
            TypeLayout(name: "M.K", kind: .class, size: 8),
        ]
        let dwarf = [
            TypeLayout(name: "M.E", kind: .enum, size: 1, cases: []),
            TypeLayout(name: "M.K", mangledName: "$s1M1KVD", kind: .struct, size: 8),
        ]
        let report = LayoutWitnessComparison.compare(metadata: metadata, dwarf: dwarf)
        #expect(
            report.disagreements == [
                LayoutDisagreement(typeName: "M.K", fact: .kind(metadata: .class, dwarf: .struct), reason: .differentKind)
            ])
        #expect(
            report.disagreements.first?.description
                == "M.K: kind metadata class, DWARF struct (using metadata: the two sources classify the type differently)")
    }

    @Test("what DWARF does not state is not compared, and each type is counted once per unstated fact")
    func unstatedFacts() {
        let metadata = [
            // A class in a generic context: DWARF's structure_type, named by a bound generic mangling.
            TypeLayout(name: "M.Box<A>.Storage", kind: .class, size: 8, fields: [Self.field("value", at: nil)]),
            // An imported C enum: DWARF's structure_type, named by its typedef.
            TypeLayout(name: "__C.kind_t", kind: .enum, size: 4),
            // A struct DWARF gives no size (DW_AT_byte_size 0, no members: the reader's nil).
            TypeLayout(name: "M.Rule", kind: .struct, size: 120, fields: [Self.field("a", at: 0), Self.field("b", at: 8)]),
            // A struct whose stated kind, size and member really differ.
            TypeLayout(name: "M.Real", kind: .class, size: 16, fields: [Self.field("a", at: 0), Self.field("b", at: 8)]),
        ]
        let dwarf = [
            TypeLayout(name: "M.Box<A>.Storage", mangledName: "$s1M3BoxV7StorageCyx_GD", kind: .struct, size: 8),
            TypeLayout(name: "__C.kind_t", mangledName: "$sSo6kind_taD", kind: .struct, size: 4),
            TypeLayout(name: "M.Rule", mangledName: "$s1M4RuleVD", kind: .struct, size: nil),
            TypeLayout(name: "M.Real", mangledName: "$s1M4RealVD", kind: .struct, size: 9, fields: [Self.field("a", at: 0)]),
        ]
        let report = LayoutWitnessComparison.compare(metadata: metadata, dwarf: dwarf)
        #expect(report.typesDescribedWithoutMembers == ["M.Box<A>.Storage", "__C.kind_t", "M.Rule"])
        #expect(report.typesDescribedWithoutSize == ["M.Rule"])
        #expect(report.typesDescribedWithoutKind == ["M.Box<A>.Storage", "__C.kind_t"])
        #expect(
            report.disagreements == [
                LayoutDisagreement(typeName: "M.Real", fact: .kind(metadata: .class, dwarf: .struct), reason: .differentKind),
                LayoutDisagreement(typeName: "M.Real", fact: .size(metadata: 16, dwarf: 9), reason: .synthesizedSize),
                LayoutDisagreement(typeName: "M.Real", fact: .fieldMissingFromDWARF(field: "b"), reason: .memberNotDescribed),
            ])
    }

    @Test("extreme offsets (from a decoded document) do not trap")
    func extremeOffsets() {
        let metadata = TypeLayout(name: "M.C", kind: .class, fields: [Self.field("a", at: Int.min), Self.field("b", at: Int.max)])
        let dwarf = TypeLayout(name: "M.C", kind: .class, fields: [Self.field("a", at: Int.max), Self.field("b", at: Int.min)])
        let report = LayoutWitnessComparison.compare(metadata: [metadata], dwarf: [dwarf])
        #expect(report.disagreements.count == 2)
        #expect(report.disagreements.allSatisfy { $0.reason == .synthesizedMemberOffsets })
    }

    @Test("mangled names normalise with and without the symbol prefix and type suffix")
    func normalisation() {
        #expect(LayoutWitnessComparison.normalizedMangling("$s4main5PointVD") == "4main5PointV")
        #expect(LayoutWitnessComparison.normalizedMangling("_$s4main5PointVD") == "4main5PointV")
        #expect(LayoutWitnessComparison.normalizedMangling("4main5PointV") == "4main5PointV")
        // A bare mangling ending in D (a type named ...D) keeps its D.
        #expect(LayoutWitnessComparison.normalizedMangling("4main3ABDV") == "4main3ABDV")
    }
}
