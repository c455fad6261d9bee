import TypeLayout

/// The Swift types a reading is about: DWARF's Swift units are then read only where they can
/// describe one of them (``DWARFReader/typeLayouts(languages:selecting:)``).
public struct DWARFTypeSelection: Sendable {
    /// The names of the selected structs, classes and enums, as the metadata spells them.
    let names: Set<String>

    /// The selection of `types`' structs, classes and enums (the kinds compared with DWARF).
    public init(_ types: [TypeLayout]) {
        names = Set(types.filter { [.struct, .class, .enum].contains($0.kind) }.map(\.name))
    }
}

/// What a reading of selected types gives.
public struct DWARFSelectedLayouts: Sendable {
    /// The C and C++ layouts (every unit of those languages is read), in file order.
    public var cFamily: [TypeLayout] = []
    /// The Swift layouts of the units read, in file order: among them the first layout under
    /// the name of each selected type, and of each of its superclasses, that a reading of every
    /// unit gives. (The reading stops at the unit that gives the last of them.)
    public var swift: [TypeLayout] = []
}

extension DWARFReader {
    /// How many times the superclasses of the selected classes may widen the reading before
    /// every unit is read.
    private static let selectionRounds = 4

    /// Reads the C and C++ layouts (when `languages` has them) and the Swift layouts a comparison
    /// of the `selected` types with DWARF needs.
    ///
    /// A Swift unit is read whole only when a first pass over its top-level names
    /// (``SwiftUnitKeys``) finds the outermost type of a selected type, or of a superclass of
    /// one, in its module; other Swift units are read to their root. Without C and C++ in
    /// `languages`, no unit after the one that gives the last wanted layout is read (the first
    /// layout under a name is the one compared). Every unit is read
    /// instead (the result is then that of ``typeLayoutsByLanguage()``) when a selected type is
    /// not found that way, when a name has no module and outermost type to look for (generic
    /// arguments, private or local contexts), when a unit read refers into one left unread,
    /// or with ``DWARFReadingShortcuts/filtersUnits`` off.
    ///
    /// - Throws: as ``typeLayouts()``.
    public func typeLayouts(languages: DWARFLanguages, selecting selected: DWARFTypeSelection) throws(DWARFReaderError)
        -> DWARFSelectedLayouts
    {
        guard languages.contains(.swift), shortcuts.filtersUnits, !selected.names.isEmpty else {
            return try layouts(languages: languages)
        }
        var wanted = selected.names
        for _ in 0..<Self.selectionRounds {
            guard let keys = SwiftUnitKeys(names: wanted) else { break }
            let result = try layouts(languages: languages, swiftUnits: keys, until: wanted)
            var byName: [String: TypeLayout] = [:]
            for layout in result.swift where byName[layout.name] == nil { byName[layout.name] = layout }
            guard selected.names.allSatisfy({ byName[$0] != nil }) else { break }
            let missing = Self.missingSuperclasses(of: selected.names, in: byName)
            if missing.isEmpty { return result }
            wanted.formUnion(missing)
        }
        return try layouts(languages: languages)
    }

    /// The C and C++ layouts of `languages` apart from the Swift ones, unit by unit where the
    /// file allows it.
    ///
    /// - Parameter names: with no C or C++ in `languages`, the reading may stop at the unit by
    ///   which each of these names has a layout (``layoutsUnitByUnit(_:swiftUnits:until:)``).
    private func layouts(languages: DWARFLanguages, swiftUnits: SwiftUnitKeys? = nil, until names: Set<String>? = nil)
        throws(DWARFReaderError) -> DWARFSelectedLayouts
    {
        let cFamily = languages.intersection(.cFamily)
        let swift = languages.intersection(.swift)
        var result = DWARFSelectedLayouts()
        let stop = cFamily.isEmpty && shortcuts.stopsOnceFound ? names : nil
        if let lists = try layoutsUnitByUnit([cFamily, swift], swiftUnits: swiftUnits, until: stop), lists.count == 2 {
            (result.cFamily, result.swift) = (lists[0], lists[1])
            return result
        }
        let tree = try debugInfoTree(languages: languages, swiftUnits: swiftUnits)
        if !cFamily.isEmpty { result.cFamily = tree.typeLayouts(languages: cFamily) }
        if !swift.isEmpty { result.swift = tree.typeLayouts(languages: .swift) }
        return result
    }

    /// The superclasses (transitively) of the `selected` types' layouts that `byName` lacks.
    private static func missingSuperclasses(of selected: Set<String>, in byName: [String: TypeLayout]) -> Set<String> {
        var missing: Set<String> = []
        for name in selected {
            var seen: Set<String> = [name]
            var current = byName[name]?.superclass
            while let superclass = current, seen.insert(superclass).inserted {
                guard let layout = byName[superclass] else {
                    missing.insert(superclass)
                    break
                }
                current = layout.superclass
            }
        }
        return missing
    }
}
