import BinaryInfo
import DWARFInfo
import TypeLayout

extension BinaryLayoutReader {
    /// Adds DWARF's C and C++ types (those the document does not already have) when
    /// `includesCFamily`, and returns DWARF's Swift types when `comparingSwift` (for
    /// ``dwarfAgreementNotes(merged:dwarf:)``), nil otherwise. Only the units of the languages
    /// asked for are read; with `selected`, of the Swift units only those that can describe the
    /// selected types.
    static func mergeDWARF(
        file: ImageFile, shortcuts: DWARFReadingShortcuts, into document: inout LayoutDocument, includesCFamily: Bool, comparingSwift: Bool,
        selected: [TypeLayout]? = nil
    ) throws(DWARFReaderError) -> [TypeLayout]? {
        guard includesCFamily || comparingSwift else { return nil }
        var reader = try DWARFReader(file: file)
        reader.shortcuts = shortcuts
        var cTypes: [TypeLayout] = []
        var swiftTypes: [TypeLayout]?
        switch (includesCFamily, comparingSwift, selected) {
        case (_, true, let selected?):
            let reading = try reader.typeLayouts(languages: includesCFamily ? .all : .swift, selecting: DWARFTypeSelection(selected))
            (cTypes, swiftTypes) = (reading.cFamily, reading.swift)
        case (true, true, nil): (cTypes, swiftTypes) = try reader.typeLayoutsByLanguage()
        case (true, false, _): cTypes = try reader.typeLayouts(languages: .cFamily)
        default: swiftTypes = try reader.typeLayouts(languages: .swift)
        }
        let known = Set(document.types.map(\.name))
        document.types += cTypes.filter { !known.contains($0.name) }
        return swiftTypes
    }

    /// The notes for the disagreements between the merged Swift layouts and DWARF's.
    ///
    /// A disagreement is two sources stating different values for one fact. What a DWARF
    /// description does not state (members under plain `-g`, a size it writes as 0, a kind where
    /// it has only `DW_TAG_structure_type`) is not compared; one informational line counts it.
    static func dwarfAgreementNotes(merged types: [TypeLayout], dwarf: [TypeLayout]) -> [LayoutNote] {
        let report = LayoutWitnessComparison.compare(metadata: types, dwarf: dwarf)
        var byName: [String: TypeLayout] = [:]
        for type in types where byName[type.name] == nil { byName[type.name] = type }
        var notes = report.disagreements.map { LayoutNote.dwarfDisagreement($0, kept: keptSources($0, in: byName[$0.typeName])) }
        if let unstated = unstatedFactsNote(report) { notes.append(unstated) }
        return notes
    }

    /// One note counting the compared types whose DWARF description leaves facts unstated.
    static func unstatedFactsNote(_ report: LayoutWitnessReport) -> LayoutNote? {
        let counts = (
            report.typesDescribedWithoutMembers.count, report.typesDescribedWithoutSize.count, report.typesDescribedWithoutKind.count
        )
        guard counts.0 + counts.1 + counts.2 > 0 else { return nil }
        return .dwarfUnstatedFacts(withoutMembers: counts.0, withoutSize: counts.1, withoutKind: counts.2)
    }

    /// The source(s) the kept value of a disagreeing fact came from: `metadata`, `computed`, or
    /// both when they agreed.
    static func keptSources(_ disagreement: LayoutDisagreement, in type: TypeLayout?) -> [LayoutSource] {
        let stated: [LayoutSource]?
        switch disagreement.fact {
        case .size: stated = type?.factSources[.size]
        case .fieldOffset(let field, _, _): stated = type?.fields.first { $0.name == field }?.factSources[.offset]
        case .fieldMissingFromDWARF, .fieldMissingFromMetadata, .kind: stated = nil
        }
        return stated.flatMap { $0.isEmpty ? nil : $0 } ?? [type?.source ?? .metadata]
    }
}
