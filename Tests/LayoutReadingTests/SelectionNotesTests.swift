import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import LayoutReading
import TypeLowering

/// A filtered reading's notes describe the selected types and the file (the rule of a filtered
/// `typeinfo dump`), and are the same whether the selection reached the readers or not.
@Suite("Selection notes")
struct SelectionNotesTests {
    static let lazy = LayoutReadOptions()
    static let eager = LayoutReadOptions(selectionReachesReaders: false)

    @Test("file notes stay, notes about unselected types and counts over the file go")
    func rule() {
        let selected = [
            TypeLayout(name: "M.Kept", mangledName: "$s1M4KeptV", kind: .struct, source: .metadata),
            TypeLayout(name: "M.Known", mangledName: "$s1M5KnownV", kind: .struct, size: 8, source: .metadata),
        ]
        // One note of each kind the sources write (BinaryInfo, TypeLowering, the merge), with the
        // text each printed before notes were values: the rendering must not change it.
        let merged =
            " are one type at run time, laid out as whichever is registered first: their sizes and field offsets, and the sizes of fields of these types, are unknown"
        let cases: [(LayoutNote, String)] = [
            (.symbolTableMissing, "no .symtab (stripped): private and local types are named without their file discriminator"),
            (
                .recordsUnreadable(count: 3, firstAddress: 0x40, problem: "truncated"),
                "3 records could not be read; the first, at 0x40: truncated"
            ),
            (
                .metadataUnreadable(type: "M.Kept", address: 0x1000, problem: "truncated"),
                "M.Kept: static metadata at 0x1000 unreadable (truncated); layout unknown"
            ),
            (
                .metadataUnreadable(type: "M.Other", address: 0x2000, problem: "truncated"),
                "M.Other: static metadata at 0x2000 unreadable (truncated); layout unknown"
            ),
            (
                .metadataDisagreesWithComputed(type: "M.Kept", fact: .type(.size), metadata: 8, computed: 16),
                "M.Kept: size: static metadata says 8, computed layout says 16"
            ),
            (
                .metadataDisagreesWithComputed(type: "M.Other", fact: .field("x", .offset), metadata: 0, computed: 8),
                "M.Other: field 'x' offset: static metadata says 0, computed layout says 8"
            ),
            (
                .loweringFailed(
                    mangling: "$s1M4KeptV", text: "type lowering crashed (signal 11) on $s1M4KeptV: its computed layout is unknown"),
                "type lowering crashed (signal 11) on $s1M4KeptV: its computed layout is unknown"
            ),
            (
                .loweringFailed(
                    mangling: "$s1M5OtherV", text: "type lowering crashed (signal 11) on $s1M5OtherV: its computed layout is unknown"),
                "type lowering crashed (signal 11) on $s1M5OtherV: its computed layout is unknown"
            ),
            (
                .runtimeMergedCTypes([.init(name: "M.Known", size: 8), .init(name: "M.Twin", size: 4)]),
                "the Swift runtime merges imported C types by name: M.Known (8 bytes), M.Twin (4 bytes)" + merged
            ),
            (
                .runtimeMergedCTypes([.init(name: "M.A", size: 8), .init(name: "M.B", size: nil)]),
                "the Swift runtime merges imported C types by name: M.A (8 bytes), M.B (size unknown)" + merged
            ),
            (
                .sizesStillUnknown(count: 59),
                "59 non-generic structs and enums still have an unknown size (static metadata lacks it, and type lowering could not compute it)"
            ),
            (
                .layoutsNotComputed(count: 122, cause: .libraryCannotLower),
                "type lowering: 122 non-generic types have no computed layout (private names the library cannot resolve, @_rawLayout storage, actors, generic superclasses)"
            ),
            (
                .unlaidForeignSuperclasses(count: 7),
                "7 classes have a superclass defined in another image (or a generic one) that could not be laid out: their inherited fields are not listed, their own fields keep their offsets"
            ),
            (
                .lowering("computed layouts unavailable for /x: libswiftRemoteMirror.so not found"),
                "computed layouts unavailable for /x: libswiftRemoteMirror.so not found"
            ),
            (
                .loweringGaveUp("type lowering gave up after 8 worker crashes: 3 types have no computed layout"),
                "type lowering gave up after 8 worker crashes: 3 types have no computed layout"
            ),
        ]
        let notes = cases.map(\.0)
        #expect(notes.map(\.text) == cases.map(\.1))
        #expect(
            BinaryLayoutReader.selectionNotes(notes, selected: selected) == [
                notes[0], notes[1], notes[2], notes[4], notes[6], notes[8], notes[13], .selectedSizesUnknown(count: 1),
            ])
        #expect(LayoutNote.selectedSizesUnknown(count: 1).text == "1 of the selected non-generic structs and enums have an unknown size")
    }

    @Test(
        "a filtered reading with notes gives what reading everything and filtering by the rule gives",
        arguments: [FixtureBuild.plain, .debug, .sharedLibrary, .object])
    func lazyEqualsEager(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        let whole = try BinaryLayoutReader.read(path: path, options: Self.lazy)
        for filter in [try TypeFilter(typePatterns: ["Fixture.Inner"]), try TypeFilter(typePatterns: [], kinds: [.class])] {
            let lazy = try BinaryLayoutReader.read(path: path, selection: filter, options: Self.lazy)
            let eager = try BinaryLayoutReader.read(path: path, selection: filter, options: Self.eager)
            #expect(!lazy.document.types.isEmpty)
            #expect(lazy.document == eager.document, "\(build)")
            #expect(lazy.warnings == eager.warnings, "\(build)")
            #expect(lazy.document.types == whole.document.types.filter(filter.matches), "\(build)")
            // Notes of the whole reading, or counts of the selected types only.
            for note in lazy.document.image.notes {
                let recounted: Bool
                switch note {
                case .selectedSizesUnknown, .dwarfUnstatedFacts: recounted = true
                default: recounted = false
                }
                #expect(whole.document.image.notes.contains(note) || recounted, "\(build): \(note)")
            }
            #expect(!lazy.document.image.notes.contains { $0.subject == .fileCount && !Self.isSelectionCount($0) }, "\(build)")
        }
    }

    @Test("a filtered reading keeps the DWARF disagreements of the selected types only, lazily as eagerly")
    func dwarfDisagreementsOfSelectedTypes() throws {
        let directory = FixtureToolchain.buildDirectory + "/selection-notes"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = directory + "/witness.swift"
        try """
        public final class Holder { var first: Int = 1; var second: Bool = false }
        public final class Other { var only: Int = 2 }
        print(Holder().first, Other().only)
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let program = directory + "/witness"
        try FixtureToolchain.run(FixtureToolchain.swiftc, ["-g", "-Xfrontend", "-gdwarf-types", source, "-o", program], in: directory)

        let wholeNotes = try BinaryLayoutReader.read(path: program).document.image.notes
        #expect(!Self.dwarfDisagreements(of: "witness.Other", in: wholeNotes).isEmpty, "\(wholeNotes)")
        let filter = try TypeFilter(typePatterns: ["witness.Holder"])
        let lazy = try BinaryLayoutReader.read(path: program, selection: filter, options: Self.lazy)
        let eager = try BinaryLayoutReader.read(path: program, selection: filter, options: Self.eager)
        #expect(lazy.document == eager.document)
        let notes = lazy.document.image.notes
        #expect(Self.dwarfDisagreements(of: "witness.Holder", in: notes).count == 2, "\(notes)")
        #expect(Self.dwarfDisagreements(of: "witness.Other", in: notes).isEmpty, "\(notes)")
        #expect(Self.dwarfDisagreements(of: "witness.Holder", in: notes) == Self.dwarfDisagreements(of: "witness.Holder", in: wholeNotes))
        #expect(
            notes.allSatisfy { note in
                guard case .dwarfDisagreement(let disagreement, _) = note else { return true }
                return note.text.hasPrefix("DWARF disagrees: \(disagreement.typeName): ")
            })
    }

    @Test(
        "lazy and eager filtered readings with notes agree on a toolchain library",
        .enabled(if: FileManager.default.fileExists(atPath: LayoutReadingTests.toolchainCore), "no toolchain libswiftCore.so"))
    func lazyEqualsEagerOnToolchainLibrary() throws {
        let filter = try TypeFilter(typePatterns: ["Swift.Dictionary"], kinds: [.struct])
        let lazy = try BinaryLayoutReader.read(path: LayoutReadingTests.toolchainCore, selection: filter, options: Self.lazy)
        let eager = try BinaryLayoutReader.read(path: LayoutReadingTests.toolchainCore, selection: filter, options: Self.eager)
        #expect(!lazy.document.types.isEmpty)
        #expect(lazy.document == eager.document)
    }

    /// The DWARF disagreements about the type named `typeName`.
    static func dwarfDisagreements(of typeName: String, in notes: [LayoutNote]) -> [LayoutDisagreement] {
        notes.compactMap { note in
            guard case .dwarfDisagreement(let disagreement, _) = note, disagreement.typeName == typeName else { return nil }
            return disagreement
        }
    }

    /// The one count a filtered reading states itself.
    static func isSelectionCount(_ note: LayoutNote) -> Bool {
        if case .selectedSizesUnknown = note { return true }
        return false
    }
}
