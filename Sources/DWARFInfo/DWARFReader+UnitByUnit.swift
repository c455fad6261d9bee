import TypeLayout

// The layouts of a file made one unit at a time: a large file's entries (100,000 and more)
// are then never all held at once, only the largest unit's. A unit's layouts depend on nothing
// outside it when none of its entries refers outside it (by offset or by type signature), so
// they are those a reading of the whole tree makes; a file where one does is read whole.

extension DWARFReader {
    /// For each of `lists`, the layouts ``DebugInfoTree/typeLayouts(languages:)`` makes of the
    /// whole tree, made unit by unit; nil when a unit refers outside itself, when the file keeps
    /// units in section groups (relocatable objects with type units), or with
    /// with ``DWARFReadingShortcuts/readsUnitByUnit`` off: then read the whole tree.
    ///
    /// - Parameters:
    ///   - lists: the languages of each list (every unit of their union is read).
    ///   - swiftUnits: as in ``debugInfoTree(languages:swiftUnits:)``.
    ///   - names: when given, the reading stops after the first unit by which every one of these
    ///     names has a layout in the lists: each list is then the start of the whole reading's,
    ///     and holds the first layout under each of the names.
    func layoutsUnitByUnit(_ lists: [DWARFLanguages], swiftUnits: SwiftUnitKeys? = nil, until names: Set<String>? = nil)
        throws(DWARFReaderError) -> [[TypeLayout]]?
    {
        guard shortcuts.readsUnitByUnit else { return nil }
        try Self.checkListSections(ELFFileWindow(file: file), path: path, is64Bit: is64Bit, isLittleEndian: isLittleEndian)
        let session = try LibDwarfFile(file: file, sharedBytes: shortcuts.readsSharedBytes)
        guard session.comdatDebugGroups().isEmpty else { return nil }
        var layouts = lists.map { _ in UnitLayouts() }
        var total = 0
        var entries: [DebugEntry] = []
        var signatures: [UInt64: DebugOffset] = [:]
        var skipped: [Range<UInt64>] = []
        let path = self.path
        let languages = lists.reduce(DWARFLanguages()) { $0.union($1) }
        var missing = names ?? []
        var pages = DebugInfoPages(file: file)
        let completed = try session.readEntries(
            limit: Self.entryLimit, group: 0, languages: languages, swiftUnits: swiftUnits, into: &entries, signatures: &signatures,
            skipped: &skipped
        ) { (unit: inout [DebugEntry], range: Range<UInt64>) throws(DWARFReaderError) -> LibDwarfFile.UnitReadStep in
            guard Self.staysInside(range, unit) else { return .giveUp }
            total += unit.count
            guard total <= Self.entryLimit else { throw .tooManyEntries(path: path, limit: Self.entryLimit) }
            let tree = tree(of: unit)
            for index in lists.indices {
                for layout in layouts[index].add(of: tree, languages: lists[index]) { missing.remove(layout.name) }
            }
            unit.removeAll(keepingCapacity: true)
            pages?.release(unit: range)
            return names != nil && missing.isEmpty ? .stop : .goOn
        }
        return completed ? layouts.map(\.layouts) : nil
    }

    /// The tree of `entries` with the file's byte order and pointer size.
    func tree(of entries: [DebugEntry]) -> DebugInfoTree {
        // The i386 System V ABI aligns 8-byte scalars to 4 inside aggregates.
        DebugInfoTree(
            entries: entries, isLittleEndian: isLittleEndian, pointerSize: is64Bit ? 8 : 4,
            maximumScalarAlignment: architecture == "i386" ? 4 : .max
        )
    }

    /// Whether no entry of a unit refers outside the unit's offset `range`, by offset or by signature.
    private static func staysInside(_ range: Range<UInt64>, _ entries: [DebugEntry]) -> Bool {
        func inside(_ offset: DebugOffset?) -> Bool { offset.map { range.contains($0.rawValue) } ?? true }
        return entries.allSatisfy { entry in
            entry.typeSignature == nil && entry.definitionSignature == nil && inside(entry.type) && inside(entry.specification)
                && inside(entry.definition)
        }
    }
}

/// Layouts gathered unit by unit: the first of identical layouts is kept, in file order, as a
/// reading of the whole tree keeps it.
private struct UnitLayouts {
    private(set) var layouts: [TypeLayout] = []
    private var seen = SeenLayouts()

    /// Adds the layouts `tree` has of `languages` that are new, and returns them.
    @discardableResult
    mutating func add(of tree: DebugInfoTree, languages: DWARFLanguages) -> [TypeLayout] {
        let added = tree.typeLayouts(languages: languages, leavingOut: &seen)
        layouts += added
        return added
    }
}
