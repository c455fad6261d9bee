import Foundation
import Testing
import TypeLayout
@testable import DWARFInfo

/// C++ layouts read from DWARF against the compiler's own numbers.
@Suite struct CPlusPlusLayoutTests {
    /// The types of `Fixtures/CPlusPlus/layouts.hpp` with their data members in layout order
    /// (base-class members first, the virtual table pointer where the compiler puts it).
    static let expectedMembers: [String: (kind: TypeKind, members: [String])] = [
        "geo::Vec": (.struct, ["x", "y", "z"]),
        "geo::detail::Node": (.struct, ["link", "id"]),
        "geo::detail::Node::Link": (.struct, ["next", "weight"]),
        "geo::Base": (.struct, ["a", "tag"]),
        "geo::Derived": (.struct, ["a", "tag", "extra", "value"]),
        "geo::Shape": (.class, ["_vptr$Shape", "sides"]),
        "geo::Kind": (.enum, ["point", "line", "polygon"]),
        "geo::Bits": (.union, ["word", "bytes"]),
        "geo::Holder": (.struct, ["ref", "pointer", "kind", "bits", "flag", "level"]),
    ]

    static let layouts: Result<[TypeLayout], any Error> = Result {
        try DWARFReader(path: try FixtureToolchain.cPlusPlusObject.get()).typeLayouts()
    }

    static let oracle: Result<CLayoutOracle, any Error> = Result {
        let program = CLayoutOracle.program(for: try layouts.get(), header: "layouts.hpp", cPlusPlus: true)
        return try CLayoutOracle(output: try FixtureToolchain.compileAndRun(cPlusPlusSource: program, named: "cpp-layout-oracle"))
    }

    @Test("scoped names, kinds, members and base classes")
    func membersAreComplete() throws {
        let layouts = try Self.layouts.get()
        #expect(Set(layouts.map(\.name)) == Set(Self.expectedMembers.keys))
        #expect(layouts.count == Self.expectedMembers.count)
        for layout in layouts {
            let expected = try #require(Self.expectedMembers[layout.name])
            #expect(layout.kind == expected.kind, "\(layout.name)")
            let members = layout.kind == .enum ? layout.cases.map(\.name) : layout.fields.map(\.name)
            #expect(members == expected.members, "\(layout.name)")
        }
        #expect(layouts.first { $0.name == "geo::Derived" }?.superclass == "geo::Base")
    }

    @Test("sizes, alignments, offsets, member sizes, bitfields and member types match the compiler")
    func layoutsMatchCompiler() throws {
        let oracle = try Self.oracle.get()
        var checked = 0
        for layout in try Self.layouts.get() {
            let truth = try #require(oracle.types[layout.name], "\(layout.name)")
            #expect(layout.size == truth.size, "sizeof(\(layout.name))")
            #expect(layout.alignment == truth.alignment, "alignof(\(layout.name))")
            for field in layout.fields where !field.name.hasPrefix("_vptr") {
                if let width = field.bitWidth {
                    let bits = try #require(oracle.bitfields[layout.name]?[field.name])
                    #expect((field.offset ?? -1) * 8 + (field.bitOffset ?? -1) == bits.firstBit, "\(layout.name)::\(field.name)")
                    #expect(width == bits.width)
                } else {
                    let facts = try #require(oracle.fields[layout.name]?[field.name], "\(layout.name)::\(field.name)")
                    #expect(field.offset == facts.offset, "offsetof(\(layout.name), \(field.name))")
                    if let size = facts.size { #expect(field.size == size, "\(layout.name)::\(field.name)") }
                    if let alignment = facts.alignment { #expect(field.alignment == alignment, "alignof \(layout.name)::\(field.name)") }
                    #expect(
                        oracle.typeNameMatches[layout.name]?[field.name] == true, "\(layout.name)::\(field.name) is not '\(field.type)'")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
        // The virtual table pointer is real storage: a pointer at the start of the object.
        let shape = try #require(try Self.layouts.get().first { $0.name == "geo::Shape" })
        #expect(shape.fields.first?.offset == 0)
        #expect(shape.fields.first?.size == MemoryLayout<UnsafeRawPointer>.size)
    }
}

extension CPlusPlusLayoutTests {
    /// The fixture linked into a shared library with its types in type units
    /// (`-fdebug-types-section`): DWARF 4 puts them in `.debug_types`, DWARF 5 in `.debug_info`.
    /// In a linked library the type units are merged into the sections; in an object file each
    /// sits in a COMDAT section group of its own.
    static func typeUnitBinary(dwarfVersion: Int, object: Bool) throws -> String {
        let name = object ? "typeunits-\(dwarfVersion).o" : "libtypeunits-\(dwarfVersion).so"
        let output = FixtureToolchain.workDirectory.appendingPathComponent(name).path
        try FixtureToolchain.run(
            FixtureToolchain.clangPlusPlus,
            [
                "-g", "-gdwarf-\(dwarfVersion)", "-fdebug-types-section", object ? "-c" : "-shared", "-fPIC",
                FixtureToolchain.cPlusPlusSource.path, "-o", output,
            ])
        return output
    }

    @Test(
        "types in type units read the same as types in compile units",
        arguments: [(4, false), (5, false), (4, true), (5, true)])
    func typeUnits(dwarfVersion: Int, object: Bool) throws {
        let expected = try Self.layouts.get()
        let layouts = try DWARFReader(path: try Self.typeUnitBinary(dwarfVersion: dwarfVersion, object: object)).typeLayouts()
        #expect(Set(layouts) == Set(expected))
        #expect(layouts.count == expected.count)
    }
}

extension CPlusPlusLayoutTests {
    @Test(
        "a g++ build reads the same as the clang++ build, virtual table pointer included",
        .enabled(if: FixtureToolchain.gxx != nil, FixtureToolchain.missingGXX))
    func producersAgree() throws {
        let compiler = try #require(FixtureToolchain.gxx)
        let object = FixtureToolchain.workDirectory.appendingPathComponent("layouts-gxx.o").path
        try FixtureToolchain.run(compiler, ["-g", "-c", FixtureToolchain.cPlusPlusSource.path, "-o", object])
        let gcc = try DWARFReader(path: object).typeLayouts()
        let clang = try Self.layouts.get()
        #expect(Set(gcc) == Set(clang))
        #expect(gcc.count == clang.count)
    }
}
