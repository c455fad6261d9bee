import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import LayoutReading

/// The reading entry point: the CLI prints what it returns, and a selection gives exactly the
/// selected part of the whole reading (on the fixtures and a toolchain library).
@Suite("LayoutReading")
struct LayoutReadingTests {
    static let toolchainCore = "/opt/swift/usr/lib/swift/linux/libswiftCore.so"

    /// The library's JSON for a whole reading, as `typeinfo dump --format json` prints it.
    static func libraryJSON(_ path: String) throws -> String {
        var result = try BinaryLayoutReader.read(path: path)
        result.document.image.notes += result.warnings
        return String(decoding: try result.document.jsonData(), as: UTF8.self)
    }

    @Test("typeinfo dump prints the entry point's document unchanged", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"),
          arguments: [FixtureBuild.plain, .debug, .optimized, .sharedLibrary, .object])
    func dumpPrintsTheReading(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        let printed = try DumpCommandTests.run(["dump", path, "--format", "json"])
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output == (try Self.libraryJSON(path)))
    }

    @Test("a selection gives exactly the selected types of the whole reading, in order",
          arguments: [FixtureBuild.plain, .debug, .optimized, .sharedLibrary])
    func selectionMatchesFilteredWhole(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        let whole = try BinaryLayoutReader.read(path: path).document
        let filters = [
            try TypeFilter(typePatterns: ["Fixture.Inner"]),
            try TypeFilter(typePatterns: [], kinds: [.class]),
            try TypeFilter(typePatterns: ["/^Fixture\\.(Base|Leaf)$/"], kinds: [.class]),
            try TypeFilter(typePatterns: [], modules: ["__C"]),
        ]
        for filter in filters {
            let selected = try BinaryLayoutReader.read(path: path, selection: filter).document
            #expect(!selected.types.isEmpty)
            #expect(selected.types == whole.types.filter(filter.matches))
            #expect(selected.image == whole.image)
        }
    }

    @Test("a selection on a toolchain library gives the selected part of the whole reading",
          .enabled(if: FileManager.default.fileExists(atPath: toolchainCore), "no toolchain libswiftCore.so at \(toolchainCore)"))
    func selectionOnToolchainLibrary() throws {
        let whole = try BinaryLayoutReader.read(path: Self.toolchainCore).document
        let filter = try TypeFilter(typePatterns: ["Swift.Dictionary", "/^Swift\\.Int(8|16)$/"], kinds: [.struct])
        let selected = try BinaryLayoutReader.read(path: Self.toolchainCore, selection: filter).document
        #expect(selected.types.map(\.name).contains("Swift.Int16"))
        #expect(selected.types == whole.types.filter(filter.matches))
    }

    @Test("related types hold the superclasses and field types the selected layouts need")
    func relatedTypes() throws {
        let path = try FixtureToolchain.product(.plain)
        let whole = try BinaryLayoutReader.read(path: path).document
        let result = try BinaryLayoutReader.read(path: path, selection: try TypeFilter(typePatterns: ["/^Fixture\\.Leaf$/"]))
        let leaf = try #require(result.document.types.first)
        let superclass = try #require(leaf.superclass)
        #expect(result.superclass(of: leaf)?.name == superclass)
        #expect(result.superclass(of: leaf) == whole.types.first { $0.name == superclass })
    }

    @Test("a /REGEX/ that does not compile is an error naming the pattern")
    func invalidPattern() {
        #expect {
            _ = try TypeFilter(typePatterns: ["/[/"])
        } throws: { error in
            (error as? TypeFilterError).map { "\($0)".hasPrefix("--type /[/: not a valid regular expression:") } ?? false
        }
    }

    @Test("a file that is not there: one error naming it")
    func missingFile() {
        #expect(throws: LayoutReadingError.unreadable(path: "/nonexistent/typeinfo-test", .fileNotFound)) {
            _ = try BinaryLayoutReader.read(path: "/nonexistent/typeinfo-test")
        }
    }

    @Test("a DWARF disagreement names the source the kept value came from")
    func disagreementNamesTheSource() {
        // The merged layout: `a` and the size from static metadata and the computed layout, `b`
        // from the computed layout alone. DWARF places `b` elsewhere.
        var b = FieldLayout(name: "b", type: "Swift.Int", offset: 8, size: 8)
        b.factSources = ["offset": [.computed]]
        var a = FieldLayout(name: "a", type: "Swift.UInt8", offset: 0, size: 1)
        a.factSources = ["offset": [.metadata, .computed]]
        var merged = TypeLayout(name: "M.S", kind: .struct, size: 16, fields: [a, b], source: .metadata)
        merged.factSources = ["size": [.metadata, .computed]]
        let dwarf = TypeLayout(name: "M.S", kind: .struct, size: 9, fields: [
            FieldLayout(name: "a", type: "Swift.UInt8", offset: 0, size: 1),
            FieldLayout(name: "b", type: "Swift.Int", offset: 1, size: 8),
        ], source: .dwarf)
        let notes = BinaryLayoutReader.dwarfAgreementNotes(merged: [merged], dwarf: [dwarf])
        #expect(notes.contains { $0.hasPrefix("DWARF disagrees: M.S: size metadata+computed 16, DWARF 9 (using metadata+computed:") })
        #expect(notes.contains { $0.hasPrefix("DWARF disagrees: M.S: field 'b' offset computed 8, DWARF 1 (using computed:") })
        #expect(notes.count == 2)
    }
}
