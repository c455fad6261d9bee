import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import DWARFInfo

/// The compiler's own DWARF as a second oracle for a generic type's printed mangling (issue 8):
/// with `-gdwarf-types` it names each generic declaration by the declaration bound to its own
/// parameters (`$s7Nesting5OuterV5InnerVyx_qd__GD`), which is what the dump prints as
/// `mangledName`. (Such a declaration has no size in DWARF, so the DWARF reader gives it no
/// layout and the witness comparison never meets it; its linkage name is read from the entries.)
@Suite struct GenericLinkageNameTests {
    @Test("a generic type's mangledName is DWARF's linkage name of its declaration")
    func genericManglingsAreDWARFLinkageNames() throws {
        let source = FixtureToolchain.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BinaryInfoTests/Fixtures/GenericNesting/main.swift").path
        let executable = FixtureToolchain.workDirectory.appendingPathComponent("generic-nesting-dwarf").path
        try FixtureToolchain.run(
            FixtureToolchain.swiftc, ["-g", "-Xfrontend", "-gdwarf-types", "-module-name", "Nesting", source, "-o", executable])
        let generic = try BinaryImage.layouts(atPath: executable, runtimeLibrary: ToolchainRuntime.libswiftCore).types.filter { type in
            type.module == "Nesting" && type.mangledName != type.nominalMangledName
        }
        #expect(generic.count == 10, "\(generic.map(\.name))")
        let linkageNames = Set(try DWARFReader(path: executable).debugInfoTree().entries.compactMap(\.linkageName))
        for type in generic {
            let mangling = try #require(type.mangledName, "\(type.name) has no mangling")
            // DWARF names a type in a constrained extension with the extension's requirements
            // (`…VAASQRzlE11Constrained…`), which the runtime's own manglings of it leave out.
            if type.name.hasPrefix("(extension in Nesting):Nesting.") { continue }
            #expect(linkageNames.contains("$s" + mangling + "D"), "\(type.name): $s\(mangling)D is not a DWARF linkage name")
        }
    }
}
