import BinaryInfo
import Testing
import TypeLayout

@testable import DWARFInfo

/// libdwarf reads a linked image from the bytes BinaryInfo mapped (`dwarf_object_init_b`), not
/// by opening the file again; what it reads must be exactly what it reads from the file.
@Suite struct SharedBytesTests {
    static func fixture(_ name: String) throws -> String {
        switch name {
        case "swift-gdwarf-types": return try FixtureToolchain.swiftFixture.get().executable
        case "swift-plain-g": return try FixtureToolchain.swiftFixturePlainDebug.get()
        case "typeunits-dwarf4": return try CPlusPlusLayoutTests.typeUnitBinary(dwarfVersion: 4, object: false)
        default: return try CPlusPlusLayoutTests.typeUnitBinary(dwarfVersion: 5, object: false)
        }
    }

    @Test(
        "layouts read from the shared bytes equal those libdwarf reads from the file",
        arguments: ["swift-gdwarf-types", "swift-plain-g", "typeunits-dwarf4", "typeunits-dwarf5"])
    func sameLayouts(fixture: String) throws {
        let file = try ImageFile(path: try Self.fixture(fixture))
        // The comparison means something only when the shared bytes are really read.
        #expect(DWARFSectionTable(file: file) != nil)
        var shared = try DWARFReader(file: file)
        shared.shortcuts.readsSharedBytes = true
        var opened = try DWARFReader(file: file)
        opened.shortcuts.readsSharedBytes = false
        let fromShared = try shared.typeLayouts()
        #expect(!fromShared.isEmpty)
        #expect(fromShared == (try opened.typeLayouts()))
    }

    @Test("an object file is left to libdwarf's own reader (relocations, section groups)")
    func objectFilesAreOpened() throws {
        let object = try CPlusPlusLayoutTests.typeUnitBinary(dwarfVersion: 4, object: true)
        #expect(DWARFSectionTable(file: try ImageFile(path: object)) == nil)
    }
}
