import BinaryInfo
import DWARFInfo
import TypeLayout

/// A reading with all sources merged, before the selection applies: the notes of the sources,
/// and DWARF's Swift types kept apart, so that the agreement notes can be made for exactly the
/// types that are shown.
struct MergedReading {
    var document: LayoutDocument
    /// DWARF's Swift types, when they were read to be compared with the merged layouts.
    var swiftDWARF: [TypeLayout]?
    var warnings: [LayoutNote] = []

    init(document: LayoutDocument) {
        self.document = document
    }

    /// Adds DWARF's C and C++ types (when `includesCFamily`) and keeps its Swift types (when
    /// `comparingSwift`; with `selected`, enough of them to compare those types); a DWARF that
    /// cannot be read is a warning, the rest stands.
    mutating func mergeDWARF(
        file: ImageFile, shortcuts: DWARFReadingShortcuts, includesCFamily: Bool, comparingSwift: Bool, selected: [TypeLayout]? = nil
    ) {
        do {
            swiftDWARF = try BinaryLayoutReader.mergeDWARF(
                file: file, shortcuts: shortcuts, into: &document, includesCFamily: includesCFamily, comparingSwift: comparingSwift,
                selected: selected)
        } catch .noDebugInfo {
            // Nothing to add.
        } catch {
            warnings.append(.dwarfNotUsed(problem: "\(error)"))
        }
    }

    /// Every type, with the agreement notes of every Swift type.
    func result() -> LayoutReadResult {
        var whole = document
        if let swiftDWARF {
            whole.image.notes += BinaryLayoutReader.dwarfAgreementNotes(merged: document.types, dwarf: swiftDWARF)
        }
        return LayoutReadResult(document: whole, warnings: warnings)
    }

    /// The types `selection` matches, the types they refer to, and the notes that describe them
    /// and the file (``BinaryLayoutReader/selectionNotes(_:selected:)``).
    func selecting(_ selection: TypeFilter) -> LayoutReadResult {
        let selected = document.types.filter(selection.matches)
        var image = document.image
        image.notes = BinaryLayoutReader.selectionNotes(image.notes, selected: selected)
        if let swiftDWARF {
            image.notes += BinaryLayoutReader.dwarfAgreementNotes(merged: selected, dwarf: swiftDWARF)
        }
        return LayoutReadResult(
            document: LayoutDocument(image: image, types: selected),
            relatedTypes: BinaryLayoutReader.related(to: selected, in: document.types), warnings: warnings)
    }
}

extension BinaryLayoutReader {
    /// The notes of a reading narrowed to the `selected` types (the rule of a filtered
    /// `typeinfo dump`): notes about the file stay as they are; a note about one type stays when
    /// that type is selected; counts over the file's types go, and the selected types' unknown
    /// sizes are counted instead. The same rule applies whether the selection reached the readers
    /// or everything was read first, so the two give the same notes.
    static func selectionNotes(_ notes: [LayoutNote], selected: [TypeLayout]) -> [LayoutNote] {
        let names = Set(selected.map(\.name))
        let manglings = Set(selected.compactMap { $0.mangledName.map(Self.bareMangling) })
        var kept = notes.filter { note in
            switch note.subject {
            case .file: return true
            case .fileCount: return false
            case .type(let name): return names.contains(name)
            case .mangledType(let mangling): return manglings.contains(Self.bareMangling(mangling))
            case .types(let typeNames): return typeNames.contains(where: names.contains)
            }
        }
        let unknown = selected.filter { !$0.isGenericOrInGenericContext && [.struct, .enum].contains($0.kind) && $0.size == nil }
        if !unknown.isEmpty { kept.append(.selectedSizesUnknown(count: unknown.count)) }
        return kept
    }

    /// `$s7NIOCore10ByteBufferV`, `_$s…` and `7NIOCore10ByteBufferV` name the same type.
    private static func bareMangling(_ mangling: String) -> Substring {
        for prefix in ["_$s", "$s"] where mangling.hasPrefix(prefix) { return mangling.dropFirst(prefix.count) }
        return Substring(mangling)
    }
}
