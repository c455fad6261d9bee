import BinaryFixtures
import BinaryInfo
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

    @Test(
        "typeinfo dump prints the entry point's document unchanged",
        .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"),
        arguments: [FixtureBuild.plain, .debug, .optimized, .sharedLibrary, .object])
    func dumpPrintsTheReading(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        let printed = try DumpCommandTests.run(["dump", path, "--format", "json"])
        #expect(printed.status == 0, "\(printed.errors)")
        #expect(printed.output == (try Self.libraryJSON(path)))
    }

    @Test(
        "a selection gives exactly the selected types of the whole reading, in order",
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
            // The notes follow the selection (SelectionNotesTests); the rest of the summary is the file's.
            var image = whole.image
            image.notes = selected.image.notes
            #expect(selected.image == image)
        }
    }

    @Test(
        "a selection on a toolchain library gives the selected part of the whole reading",
        .enabled(if: FileManager.default.fileExists(atPath: toolchainCore), "no toolchain libswiftCore.so at \(toolchainCore)"))
    func selectionOnToolchainLibrary() throws {
        let whole = try BinaryLayoutReader.read(path: Self.toolchainCore).document
        let filter = try TypeFilter(typePatterns: ["Swift.Dictionary", "/^Swift\\.Int(8|16)$/"], kinds: [.struct])
        let selected = try BinaryLayoutReader.read(path: Self.toolchainCore, selection: filter).document
        #expect(selected.types.map(\.name).contains("Swift.Int16"))
        #expect(selected.types == whole.types.filter(filter.matches))
    }

    /// The hole analyses `typeinfo layout` prints for a reading.
    static func holes(_ result: LayoutReadResult) -> String {
        let alignments = result.alignments
        let analyses = result.document.types.map {
            LayoutHoles($0, alignmentOf: alignments.alignment(of:), superclass: result.superclass(of: $0))
        }
        return LayoutHoles.textReport(analyses, includeTight: true)
    }

    static let lazy = LayoutReadOptions(checksSwiftAgainstDWARF: false, wantsFileNotes: false)
    static let eager = LayoutReadOptions(checksSwiftAgainstDWARF: false, wantsFileNotes: false, selectionReachesReaders: false)

    @Test(
        "a selection that reaches the readers gives what reading everything and filtering gives",
        arguments: [FixtureBuild.plain, .debug, .optimized, .sharedLibrary, .object])
    func lazyEqualsEager(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        for patterns in [
            ["Fixture.Inner"], ["Fixture.Leaf", "Fixture.MixedScalars"], ["/^Fixture\\.(Base|Leaf)$/"],
            ["/^(Fixture\\.Base|Fixture\\.Leaf)$/"], ["Fixture."],
        ] {
            let filter = try TypeFilter(typePatterns: patterns)
            let lazy = try BinaryLayoutReader.read(path: path, selection: filter, options: Self.lazy)
            let eager = try BinaryLayoutReader.read(path: path, selection: filter, options: Self.eager)
            #expect(!lazy.document.types.isEmpty, "\(patterns)")
            Self.expectSame(lazy, eager, "\(build) \(patterns)")
            let named = try BinaryLayoutReader.read(path: path, typeNames: patterns, options: Self.lazy)
            let namedEager = try BinaryLayoutReader.read(path: path, typeNames: patterns, options: Self.eager)
            Self.expectSame(named, namedEager, "\(build) \(patterns)", notes: false)
        }
    }

    /// The whole of two readings agrees: summary and notes, selected and related types, warnings,
    /// and the hole analysis `typeinfo layout` prints from them. `typeinfo layout` without file
    /// notes (`wantsFileNotes: false`) prints no notes, and its eager reading keeps all the
    /// file's: `notes: false` compares everything else.
    static func expectSame(_ lazy: LayoutReadResult, _ eager: LayoutReadResult, _ context: String, notes: Bool = true) {
        var lazyImage = lazy.document.image
        if !notes { lazyImage.notes = eager.document.image.notes }
        #expect(lazyImage == eager.document.image, "\(context)")
        #expect(lazy.document.types == eager.document.types, "\(context)")
        #expect(lazy.relatedTypes == eager.relatedTypes, "\(context)")
        #expect(lazy.warnings == eager.warnings, "\(context)")
        #expect(holes(lazy) == holes(eager), "\(context)")
    }

    static let toolchainFoundationEssentials = "/opt/swift/usr/lib/swift/linux/libFoundationEssentials.so"

    @Test(
        "a selective static reading lays each type out as the whole reading does, and keeps what the selection needs",
        .enabled(
            if: FileManager.default.fileExists(atPath: toolchainFoundationEssentials),
            "no toolchain libFoundationEssentials.so at \(toolchainFoundationEssentials)"))
    func selectiveStaticReading() throws {
        let path = Self.toolchainFoundationEssentials
        let whole = try BinaryImage.read(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore).document
        for patterns in [["FoundationEssentials.Date"], ["/^FoundationEssentials\\.(URL|Calendar|JSONDecoder)$/"]] {
            let filter = try TypeFilter(typePatterns: patterns)
            let partial = try BinaryImage.read(atPath: path, selecting: filter.matches, runtimeLibrary: ToolchainRuntime.libswiftCore)
                .document
            #expect(partial.types.count < whole.types.count / 2, "\(patterns): \(partial.types.count) of \(whole.types.count) laid out")
            // The types laid out are a part of the whole reading, in its order, each identical.
            var remaining = whole.types[...]
            for type in partial.types {
                guard let position = remaining.firstIndex(of: type) else {
                    Issue.record("\(patterns): \(type.name) differs from the whole reading's")
                    continue
                }
                remaining = remaining[(position + 1)...]
            }
            let selected = whole.types.filter(filter.matches)
            #expect(!selected.isEmpty, "\(patterns)")
            let needed = selected + BinaryLayoutReader.related(to: selected, in: whole.types)
            for type in needed { #expect(partial.types.contains(type), "\(patterns): \(type.name) missing") }
        }
    }

    @Test(
        "lazy and eager selections agree on a toolchain library",
        .enabled(if: FileManager.default.fileExists(atPath: toolchainCore), "no toolchain libswiftCore.so at \(toolchainCore)"))
    func lazyEqualsEagerOnToolchainLibrary() throws {
        for patterns in [["Swift.Dictionary"], ["/^Swift\\.(Int16|String|Array<.*>)$/"], ["Swift.__RawDictionaryStorage"]] {
            let filter = try TypeFilter(typePatterns: patterns)
            let lazy = try BinaryLayoutReader.read(path: Self.toolchainCore, selection: filter, options: Self.lazy)
            let eager = try BinaryLayoutReader.read(path: Self.toolchainCore, selection: filter, options: Self.eager)
            #expect(!lazy.document.types.isEmpty, "\(patterns)")
            Self.expectSame(lazy, eager, "\(patterns)")
            let named = try BinaryLayoutReader.read(path: Self.toolchainCore, typeNames: patterns, options: Self.lazy)
            let namedEager = try BinaryLayoutReader.read(path: Self.toolchainCore, typeNames: patterns, options: Self.eager)
            Self.expectSame(named, namedEager, "\(patterns)", notes: false)
        }
    }

    @Test("which selections can skip DWARF's C types")
    func cFamilyExclusion() throws {
        #expect(try TypeFilter(typePatterns: ["NIOCore.ByteBuffer"]).excludesCFamilyTypes)
        #expect(try TypeFilter(typePatterns: [], modules: ["NIOCore"]).excludesCFamilyTypes)
        #expect(try TypeFilter(typePatterns: [], kinds: [.protocol]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["ByteBuffer"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["NIOCore.ByteBuffer", "sockaddr"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: [], kinds: [.struct]).excludesCFamilyTypes)
        #expect(!TypeFilter.all.excludesCFamilyTypes)
        // Regular expressions: anchored to `Module.` names (the form a snapshot of named types stores), or not.
        #expect(try TypeFilter(typePatterns: ["/^(NIOCore\\.ByteBuffer|NIOHTTP1\\.HTTPRequestHead)$/"]).excludesCFamilyTypes)
        #expect(try TypeFilter(typePatterns: ["/^Fixture\\.Leaf/"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["/^(NIOCore\\.ByteBuffer|sockaddr)$/"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["/^(NIOCore\\.ByteBuffer)|sockaddr/"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["/^(NIOCore\\.ByteBuffer)?sock/"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["/^Fixture\\.Leaf|sock/"]).excludesCFamilyTypes)
        #expect(try !TypeFilter(typePatterns: ["/^Fix.*\\.Leaf/"]).excludesCFamilyTypes)
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
        #expect(
            throws: LayoutReadingError.unreadable(path: "/nonexistent/typeinfo-test", .fileNotFound(path: "/nonexistent/typeinfo-test"))
        ) {
            _ = try BinaryLayoutReader.read(path: "/nonexistent/typeinfo-test")
        }
    }

    @Test("a DWARF disagreement names the source the kept value came from")
    func disagreementNamesTheSource() {
        // The merged layout: `a` and the size from static metadata and the computed layout, `b`
        // from the computed layout alone. DWARF places `b` elsewhere.
        var b = FieldLayout(name: "b", type: "Swift.Int", offset: 8, size: 8)
        b.factSources = [.offset: [.computed]]
        var a = FieldLayout(name: "a", type: "Swift.UInt8", offset: 0, size: 1)
        a.factSources = [.offset: [.metadata, .computed]]
        var merged = TypeLayout(name: "M.S", kind: .struct, size: 16, fields: [a, b], source: .metadata)
        merged.factSources = [.size: [.metadata, .computed]]
        let dwarf = TypeLayout(
            name: "M.S", mangledName: "$s1M1SVD", kind: .struct, size: 9,
            fields: [
                FieldLayout(name: "a", type: "Swift.UInt8", offset: 0, size: 1),
                FieldLayout(name: "b", type: "Swift.Int", offset: 1, size: 8),
            ], source: .dwarf)
        let notes = BinaryLayoutReader.dwarfAgreementNotes(merged: [merged], dwarf: [dwarf])
        #expect(
            notes.map(\.text).contains {
                $0.hasPrefix("DWARF disagrees: M.S: size metadata+computed 16, DWARF 9 (using metadata+computed:")
            })
        #expect(notes.map(\.text).contains { $0.hasPrefix("DWARF disagrees: M.S: field 'b' offset computed 8, DWARF 1 (using computed:") })
        let kept = notes.compactMap { note -> [LayoutSource]? in
            guard case .dwarfDisagreement(_, let kept) = note else { return nil }
            return kept
        }
        #expect(kept == [[.metadata, .computed], [.computed]])
        #expect(notes.count == 2)
    }
}

/// Issue 8 §3 through every source: the computed layouts know each imported C type by its own
/// record too, so what the runtime shares stays unknown after the merge.
@Suite("Imported C types, all sources merged")
struct ImportedCMergeTests {
    @Test("runtime-shared C anonymous member types stay unknown after the computed layouts are merged")
    func sharedStayUnknown() throws {
        let (path, oracle) = try ImportedCFixture.program()
        let document = try BinaryLayoutReader.read(path: path).document
        #expect(oracle.runtimeShared.contains("__C.token_s.__Unnamed_union_data"))
        #expect(ImportedCFixture.disagreements(of: document.types, with: oracle) == [])
    }
}

/// Layout documents of real libraries: LayoutJSON's writer and JSONEncoder give the same bytes.
@Suite("Layout documents encode to JSONEncoder's exact bytes")
struct LayoutDocumentEncodingTests {
    @Test(
        "the toolchain's libswiftCore and libFoundationEssentials, pretty and compact",
        .enabled(
            if: FileManager.default.fileExists(atPath: LayoutReadingTests.toolchainCore),
            "no toolchain libswiftCore.so at \(LayoutReadingTests.toolchainCore)"),
        arguments: ["libswiftCore.so", "libFoundationEssentials.so"])
    func sameBytes(library: String) throws {
        let path = (LayoutReadingTests.toolchainCore as NSString).deletingLastPathComponent + "/" + library
        let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        for pretty in [true, false] {
            let encoder = JSONEncoder()
            encoder.outputFormatting =
                pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
            var expected = try encoder.encode(document)
            expected.append(0x0A)
            let written = try document.jsonData(pretty: pretty)
            #expect(written == expected, "\(library), pretty \(pretty): \(written.count) bytes, JSONEncoder \(expected.count)")
        }
    }
}
