import Testing
import TypeLayout

@testable import DWARFInfo

/// The layouts made one unit at a time (each unit's entries dropped once its layouts are made)
/// must be those made from the whole tree, list by list and in the same order.
@Suite struct UnitByUnitTests {
    static func fixture(_ name: String) throws -> String {
        switch name {
        case "c-dwarf2", "c-dwarf4", "c-dwarf5":
            return try #require(try FixtureToolchain.cObjects.get()["clang-\(name.suffix(1))"])
        case "swift-gdwarf-types": return try FixtureToolchain.swiftFixture.get().executable
        case "swift-plain-g": return try FixtureToolchain.swiftFixturePlainDebug.get()
        case "swift-units": return try UnitFilterTests.library(optimized: false)
        default: return try CPlusPlusLayoutTests.typeUnitBinary(dwarfVersion: 5, object: false)
        }
    }

    @Test(
        "unit by unit equals the whole tree",
        arguments: ["c-dwarf2", "c-dwarf4", "c-dwarf5", "swift-gdwarf-types", "swift-plain-g", "swift-units"])
    func sameLayouts(fixture: String) throws {
        let reader = try DWARFReader(path: try Self.fixture(fixture))
        let tree = try reader.debugInfoTree(languages: .all)
        let lists: [DWARFLanguages] = [.all, .cFamily, .swift]
        let byUnit = try #require(try reader.layoutsUnitByUnit(lists), "\(fixture) has a unit that refers outside itself")
        #expect(byUnit == lists.map { tree.typeLayouts(languages: $0) })
        #expect(!byUnit[0].isEmpty)
    }

    @Test("a file whose units refer to type units by signature is read whole")
    func typeUnitsAreReadWhole() throws {
        let reader = try DWARFReader(path: try Self.fixture("type-units"))
        #expect(try reader.layoutsUnitByUnit([.all]) == nil)
        #expect(try reader.typeLayouts() == (try reader.debugInfoTree(languages: .all).typeLayouts(languages: .all)))
    }
}
