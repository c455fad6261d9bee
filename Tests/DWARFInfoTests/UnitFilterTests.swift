import BinaryInfo
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TypeLayout

@testable import DWARFInfo

/// A reading of a few Swift types reads only the units whose top-level names can hold them
/// (`DWARFReader.typeLayouts(languages:selecting:)`); what it gives for those types must be
/// exactly what a reading of every unit gives (the oracle here), in a debug and a `-O` build.
@Suite struct UnitFilterTests {
    /// The three-file `Units` library (three Swift compile units), built with `-gdwarf-types`.
    static func library(optimized: Bool) throws -> String {
        try (optimized ? optimizedLibrary : debugLibrary).get()
    }

    private static let debugLibrary = Result { try build(optimized: false) }
    private static let optimizedLibrary = Result { try build(optimized: true) }

    private static func build(optimized: Bool) throws -> String {
        let directory = FixtureToolchain.fixtures.appendingPathComponent("Swift/Units")
        let sources = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }.sorted()
        let output = FixtureToolchain.workDirectory.appendingPathComponent(optimized ? "libUnits-O.so" : "libUnits.so").path
        try FixtureToolchain.run(
            FixtureToolchain.swiftc,
            ["-g", "-Xfrontend", "-gdwarf-types", "-emit-library", "-module-name", "Units"] + (optimized ? ["-O"] : [])
                + sources.map { directory.appendingPathComponent($0).path } + ["-o", output])
        return output
    }

    /// The first layout under each name, as `LayoutWitnessComparison` picks it.
    private static func firstByName(_ layouts: [TypeLayout]) -> [String: TypeLayout] {
        var byName: [String: TypeLayout] = [:]
        for layout in layouts where byName[layout.name] == nil { byName[layout.name] = layout }
        return byName
    }

    @Test("each type read alone, and with its superclasses, is what the whole reading gives", arguments: [false, true])
    func eachTypeAlone(optimized: Bool) throws {
        let reader = try DWARFReader(path: try Self.library(optimized: optimized))
        let whole = Self.firstByName(try reader.typeLayouts(languages: .swift))
        let ours = whole.values.filter { $0.module == "Units" }
        // Every kind of the fixture is there to be read alone: a nested struct, a subclass, enums.
        #expect(Set(ours.map(\.name)).isSuperset(of: ["Units.Pen.Gate", "Units.Dog", "Units.Animal", "Units.Diet", "Units.Rake"]))
        for type in ours {
            let alone = Self.firstByName(try reader.typeLayouts(languages: .swift, selecting: DWARFTypeSelection([type])).swift)
            #expect(alone[type.name] == type, "\(type.name)")
            var superclass = type.superclass
            while let name = superclass {
                #expect(alone[name] == whole[name], "\(name), superclass of \(type.name)")
                superclass = whole[name]?.superclass
            }
        }
    }

    @Test("a unit whose top-level names cannot hold the selected type is read to its root only")
    func otherUnitsAreSkipped() throws {
        let reader = try DWARFReader(path: try Self.library(optimized: false))
        let whole = try reader.debugInfoTree(languages: .swift)
        let keys = SwiftUnitKeys(names: ["Units.Rake"])
        let rake = try reader.debugInfoTree(languages: .swift, swiftUnits: keys)
        // Each Swift file is a unit (the C units of the runtime's shims are read to their root either way).
        let units = whole.entries.filter { $0.parent == nil }.count
        #expect(whole.entries.filter { $0.parent == nil && $0.language == 0x1e }.count == 3)
        // Tools.swift's unit is read; Animals.swift's and Farm.swift's stop at their root.
        #expect(rake.entries.filter { $0.parent == nil }.count == units)
        #expect(rake.entries.count < whole.entries.count / 2)
        #expect(rake.entries.contains { $0.name == "Rake" })
        #expect(!rake.entries.contains { $0.name == "Barn" || $0.name == "Animal" })
    }

    @Test("a reading of a few types stops at the unit that gives the last of them", arguments: [false, true])
    func stopsOnceFound(optimized: Bool) throws {
        let reader = try DWARFReader(path: try Self.library(optimized: optimized))
        let whole = try reader.typeLayouts(languages: .swift)
        let ours = Self.firstByName(whole).values.filter { $0.module == "Units" }.sorted { $0.name < $1.name }
        var stoppedEarly = 0
        for type in ours {
            let selection = DWARFTypeSelection([type])
            let stopped = try reader.typeLayouts(languages: .swift, selecting: selection).swift
            var readsToEnd = reader
            readsToEnd.shortcuts.stopsOnceFound = false
            let toEnd = try readsToEnd.typeLayouts(languages: .swift, selecting: selection).swift
            // What a stopped reading gives is the start of what a reading to the end gives, and
            // holds the type's first layout, which is the one compared.
            #expect(Array(toEnd.prefix(stopped.count)) == stopped, "\(type.name)")
            #expect(Self.firstByName(stopped)[type.name] == type, "\(type.name)")
            if stopped.count < toEnd.count { stoppedEarly += 1 }
        }
        // The types of the first units stop the reading before the last unit.
        #expect(stoppedEarly > 0)
    }

    @Test("a name the first pass cannot look for, or does not find, reads every unit")
    func fallBackToEveryUnit() throws {
        let reader = try DWARFReader(path: try Self.library(optimized: false))
        let whole = try reader.typeLayouts(languages: .swift)
        for name in ["Units.Missing", "Units.Box<Swift.Int>", "Units.(Hidden in _0123)"] {
            let selection = DWARFTypeSelection([TypeLayout(name: name, kind: .struct, size: 1, source: .metadata)])
            #expect(try reader.typeLayouts(languages: .swift, selecting: selection).swift == whole, "\(name)")
        }
        #expect(SwiftUnitKeys(names: ["Units.Box<Swift.Int>"]) == nil)
        #expect(SwiftUnitKeys(names: ["Unqualified"]) == nil)
        #expect(SwiftUnitKeys(names: ["Units.Pen.Gate"])?.outermostTypes == ["Units": ["Pen"]])
    }

    /// Found by Tools/fuzz-dwarfinfo: a Swift unit whose `DW_AT_language` was overwritten with 0
    /// (no known language). Its types, marked Swift's by `DW_AT_APPLE_runtime_class`, were Swift
    /// in a reading of every language and missing from a reading of Swift alone, which skipped
    /// the unit as a C one.
    @Test("a unit of no known language is read for the Swift types it marks")
    func unitOfUnknownLanguage() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.library(optimized: false))))
        let info = try #require(try BadInputTests.debugSections(of: bytes).first { $0.name == ".debug_info" })
        // The first unit's root: DW_AT_language (DW_LANG_Swift, 0x1e as data2) among its first attributes.
        let language = try #require((info.offset + 12..<info.offset + 40).first { bytes[$0] == 0x1E && bytes[$0 + 1] == 0 })
        bytes[language] = 0
        let path = try BadInputTests.write(bytes, named: "libUnits-no-language.so")
        let reader = try DWARFReader(path: path)
        // The patch hit the language: the first root now says 0.
        #expect(try reader.debugInfoTree(languages: .all).entries.first?.language == 0)
        let whole = try reader.typeLayoutsByLanguage().swift
        #expect(whole.contains { $0.name == "Units.Pen" })
        #expect(try reader.typeLayouts(languages: .swift) == whole)
        let pen = try #require(whole.first { $0.name == "Units.Pen" })
        #expect(
            try reader.typeLayouts(languages: .swift, selecting: DWARFTypeSelection([pen])).swift.first { $0.name == "Units.Pen" } == pen)
    }
}
