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
    static func dwarfAgreementNotes(merged types: [TypeLayout], dwarf: [TypeLayout]) -> [String] {
        let report = LayoutWitnessComparison.compare(metadata: types, dwarf: dwarf)
        var byName: [String: TypeLayout] = [:]
        for type in types where byName[type.name] == nil { byName[type.name] = type }
        var notes = report.disagreements.map { "DWARF disagrees: \(describe($0, in: byName[$0.typeName]))" }
        if let unstated = unstatedFactsNote(report) { notes.append(unstated) }
        return notes
    }

    /// One line counting the compared types whose DWARF description leaves facts unstated.
    static func unstatedFactsNote(_ report: LayoutWitnessReport) -> String? {
        var parts: [String] = []
        let memberless = report.typesDescribedWithoutMembers.count
        if memberless > 0 {
            parts.append(
                "\(memberless) without their members (plain -g: build with -Xfrontend -gdwarf-types to check field offsets against DWARF too)"
            )
        }
        let sizeless = report.typesDescribedWithoutSize.count
        if sizeless > 0 { parts.append("\(sizeless) without a size (DW_AT_byte_size 0 and no members)") }
        let kindless = report.typesDescribedWithoutKind.count
        if kindless > 0 {
            parts.append(
                "\(kindless) without a kind of their own (DW_TAG_structure_type for a type in a generic context or an imported C typedef)")
        }
        guard !parts.isEmpty else { return nil }
        return "DWARF does not state every fact of the Swift types it describes, and what it leaves out is not compared: "
            + parts.joined(separator: ", ")
    }

    /// One greppable line, naming the source(s) the kept value came from: `metadata`, `computed`,
    /// or both (`metadata+computed`) when they agreed.
    static func describe(_ disagreement: LayoutDisagreement, in type: TypeLayout?) -> String {
        let kept: String
        let what: String
        switch disagreement.fact {
        case .size(let value, let dwarf):
            kept = sourceName(type?.factSources["size"], type?.source)
            what = "size \(kept) \(value), DWARF \(dwarf)"
        case .fieldOffset(let field, let value, let dwarf):
            let stated = type?.fields.first { $0.name == field }?.factSources["offset"]
            kept = sourceName(stated, type?.source)
            what = "field '\(field)' offset \(kept) \(value), DWARF \(dwarf)"
        case .fieldMissingFromDWARF(let field):
            kept = sourceName(nil, type?.source)
            what = "field '\(field)' not in DWARF"
        case .fieldMissingFromMetadata(let field):
            kept = sourceName(nil, type?.source)
            what = "member '\(field)' in DWARF only"
        case .kind(let value, let dwarf):
            kept = sourceName(nil, type?.source)
            what = "kind \(kept) \(value.rawValue), DWARF \(dwarf.rawValue)"
        }
        return "\(disagreement.typeName): \(what) (using \(kept): \(disagreement.reason.explanation))"
    }

    private static func sourceName(_ stated: [LayoutSource]?, _ typeSource: LayoutSource?) -> String {
        let sources = stated.flatMap { $0.isEmpty ? nil : $0 } ?? [typeSource ?? .metadata]
        return sources.map(\.rawValue).joined(separator: "+")
    }
}
