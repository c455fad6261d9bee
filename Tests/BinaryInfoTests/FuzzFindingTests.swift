import BinaryFixtures
import Foundation
import Testing
@testable import BinaryInfo

/// Inputs the fuzzer (`Tools/fuzz-binaryinfo`) found, kept with the outcome each must have.
@Suite("Fuzzer findings")
struct FuzzFindingTests {
    static let directory = FixtureToolchain.fixturesDirectory + "/fuzz-findings"

    @Test("an object file whose section headers became SHT_NULL with offsets near 2^54: no overflow trap in the symbol names")
    func nullSectionsWithHugeOffsets() throws {
        // Found on 2026-11-23 by the structure-aware mutator: `.strtab` read through an inactive
        // (SHT_NULL) header, whose offset was never checked, trapped in LoadableImage.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/null-string-table-offset.bin")))
        #expect(throws: BinaryInfoError.notSwift(path: "finding")) {
            try BinaryImage.layouts(of: bytes, name: "finding", runtimeLibrary: ToolchainRuntime.libswiftCore)
        }
        let image = try LoadableImage(bytes: bytes, name: "finding")
        #expect(image.address(ofSymbol: "$sSiN") == nil)
    }

    @Test("a symbol string table turned SHT_NULL and moved past 2^62: not a section, so its symbols go unnamed")
    func stringTableMadeInactive() throws {
        var table = try HostileSectionTests.fixture()
        let clean = try LoadableImage(bytes: table.bytes, name: "clean")
        #expect(clean.address(ofSymbol: "$s7Fixture10FinalClassCMn") != nil)
        let strings = try table.index(of: ".strtab")
        table.set(strings, HostileSectionTests.SectionTable.type, UInt32(0))
        table.set(strings, HostileSectionTests.SectionTable.offset, UInt64(1) << 62)
        let image = try LoadableImage(bytes: table.bytes, name: "inactive string table")
        #expect(image.address(ofSymbol: "$s7Fixture10FinalClassCMn") == nil)
        // The metadata does not need the names: every type is still read.
        let document = try BinaryImage.layouts(
            of: table.bytes, name: "inactive string table", runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(
            document.types.count
                == (try BinaryImage.layouts(
                    of: try HostileSectionTests.fixture().bytes, name: "clean", runtimeLibrary: ToolchainRuntime.libswiftCore)).types.count)
    }
}
