import Testing

@testable import DWARFInfo

/// The walk finds the entry after a top-level subtree from where libdwarf stopped reading it
/// (`LibDwarfFile+SubtreeEnd.swift`) instead of asking libdwarf to walk the subtree again: the
/// entries read must be exactly those the second walk gives, in the same order.
@Suite struct SubtreeEndTests {
    /// Every fact of an entry, for comparing two readings.
    static func facts(_ entry: DebugEntry) -> String {
        let numbers: [UInt64?] = [
            entry.byteSize, entry.bitSize, entry.dataMemberLocation, entry.dataBitOffset, entry.legacyBitOffset, entry.type?.rawValue,
            entry.typeSignature, entry.definitionSignature, entry.definition?.rawValue, entry.specification?.rawValue,
            entry.upperBound.map { UInt64(bitPattern: $0) }, entry.count, entry.alignment, entry.language, entry.encoding,
            entry.runtimeClass,
        ]
        return
            "\(entry.offset.rawValue) \(entry.tag) \(entry.isDeclaration) \(entry.hasUnreadableMemberLocation) \(entry.unitVersion) "
            + "\(entry.isClangUnit) \(String(describing: entry.parent)) \(entry.children) \(entry.unitRoot) "
            + "\(entry.name ?? "-") \(entry.linkageName ?? "-") \(numbers)"
    }

    /// The entries of every unit of the base group, read with or without the jump.
    static func entries(of path: String, jumping: Bool, swiftUnits: SwiftUnitKeys? = nil) throws -> (
        entries: [String], skipped: [Range<UInt64>]
    ) {
        let reader = try DWARFReader(path: path)
        let session = try LibDwarfFile(file: reader.file)
        var entries: [DebugEntry] = []
        var signatures: [UInt64: DebugOffset] = [:]
        var skipped: [Range<UInt64>] = []
        try session.readEntries(
            limit: 10_000_000, group: 0, swiftUnits: swiftUnits, into: &entries, signatures: &signatures, skipped: &skipped,
            jumpsPastTopLevel: jumping)
        return (entries.map(facts), skipped)
    }

    @Test(
        "jumping past a top-level subtree reads the same entries as walking it again",
        arguments: ["c-dwarf2", "c-dwarf4", "c-dwarf5", "swift-gdwarf-types", "swift-plain-g", "swift-units", "type-units"])
    func sameEntries(fixture: String) throws {
        let path = try UnitByUnitTests.fixture(fixture)
        let jumped = try Self.entries(of: path, jumping: true)
        let walked = try Self.entries(of: path, jumping: false)
        #expect(jumped.entries.count == walked.entries.count)
        #expect(jumped.entries == walked.entries)
        #expect(jumped.skipped == walked.skipped)
        #expect(walked.entries.count > 10, "\(fixture) has too few entries to tell anything")
    }

    @Test("a selected reading (first pass over top-level names) reads the same entries either way")
    func sameSelectedEntries() throws {
        let path = try UnitByUnitTests.fixture("swift-units")
        // Types of each of the library's units, and one no unit holds (every unit's first pass
        // then runs to its end).
        for name in ["Pen", "Dog", "Animal", "Diet", "Rake", "NoSuchType"] {
            let keys = try #require(SwiftUnitKeys(names: ["Units.\(name)"]))
            let jumped = try Self.entries(of: path, jumping: true, swiftUnits: keys)
            let walked = try Self.entries(of: path, jumping: false, swiftUnits: keys)
            #expect(jumped.entries == walked.entries, "\(name)")
            #expect(jumped.skipped == walked.skipped, "\(name)")
        }
    }
}
