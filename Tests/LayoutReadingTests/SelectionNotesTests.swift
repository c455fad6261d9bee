import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import LayoutReading

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
        // One note of each form the sources write (BinaryInfo, TypeLowering, the merge).
        let notes = [
            "no .symtab (stripped): private and local types are named without their file discriminator",
            "3 records could not be read; the first, at 0x40: truncated",
            "M.Kept: static metadata at 0x1000 unreadable (truncated); layout unknown",
            "M.Other: static metadata at 0x2000 unreadable (truncated); layout unknown",
            "M.Kept: size: static metadata says 8, computed layout says 16",
            "M.Other: field 'x' offset: static metadata says 0, computed layout says 8",
            "type lowering crashed (signal 11) on $s1M4KeptV: its computed layout is unknown",
            "type lowering crashed (signal 11) on $s1M5OtherV: its computed layout is unknown",
            "the Swift runtime merges imported C types by name: M.Known (8 bytes), M.Twin (4 bytes) are one type at run time, laid out as whichever is registered first",
            "the Swift runtime merges imported C types by name: M.A (8 bytes), M.B (4 bytes) are one type at run time, laid out as whichever is registered first",
            "59 non-generic structs and enums still have an unknown size (static metadata lacks it, and type lowering could not compute it)",
            "type lowering: 122 non-generic types have no computed layout (private names the library cannot resolve, @_rawLayout storage, actors, generic superclasses)",
            "7 classes have a superclass defined in another image (or a generic one) that could not be laid out: their inherited fields are not listed, their own fields keep their offsets",
            "computed layouts unavailable for /x: libswiftRemoteMirror.so not found",
        ]
        #expect(
            BinaryLayoutReader.selectionNotes(notes, selected: selected) == [
                notes[0], notes[1], notes[2], notes[4], notes[6], notes[8], notes[13],
                "1 of the selected non-generic structs and enums have an unknown size",
            ])
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
                let recounted =
                    note.hasSuffix("selected non-generic structs and enums have an unknown size")
                    || note.hasPrefix("DWARF does not state every fact ")
                #expect(whole.document.image.notes.contains(note) || recounted, "\(build): \(note)")
            }
            #expect(!lazy.document.image.notes.contains { $0.hasPrefix("type lowering: ") }, "\(build)")
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
        #expect(wholeNotes.contains { $0.hasPrefix("DWARF disagrees: witness.Other:") }, "\(wholeNotes)")
        let filter = try TypeFilter(typePatterns: ["witness.Holder"])
        let lazy = try BinaryLayoutReader.read(path: program, selection: filter, options: Self.lazy)
        let eager = try BinaryLayoutReader.read(path: program, selection: filter, options: Self.eager)
        #expect(lazy.document == eager.document)
        let notes = lazy.document.image.notes
        #expect(notes.filter { $0.hasPrefix("DWARF disagrees: witness.Holder:") }.count == 2, "\(notes)")
        #expect(!notes.contains { $0.hasPrefix("DWARF disagrees: witness.Other") }, "\(notes)")
        #expect(
            notes.filter { $0.hasPrefix("DWARF disagrees: witness.Holder:") }
                == wholeNotes.filter { $0.hasPrefix("DWARF disagrees: witness.Holder:") })
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
}
