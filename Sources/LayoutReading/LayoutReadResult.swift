import TypeLayout

/// What one reading of a file gives: the selected types, the types their layouts refer to, and
/// the problems with sources that could not be used.
public struct LayoutReadResult: Sendable {
    /// The file's summary (with its notes: what stayed unknown, where two sources disagree) and
    /// the selected types, in file order.
    public var document: LayoutDocument
    /// Types that are not selected but that the selected ones' layouts refer to: superclasses
    /// and the types of fields, for hole analysis (alignments) and inherited fields.
    public var relatedTypes: [TypeLayout]
    /// A source that could not be used, one line each (e.g. "DWARF not used: ..."). The document
    /// is still right: its facts then come from the other sources.
    public var warnings: [LayoutNote]

    /// Creates a result.
    public init(document: LayoutDocument, relatedTypes: [TypeLayout] = [], warnings: [LayoutNote] = []) {
        self.document = document
        self.relatedTypes = relatedTypes
        self.warnings = warnings
    }

    /// Alignments of field types, from the file's own layouts (selected and related): a field
    /// whose type none of them lays out has no alignment. Nothing is asked of the running process.
    public var alignments: LayoutAlignments {
        LayoutAlignments(document.types + relatedTypes)
    }

    /// The layout of `type`'s superclass, when the file defines it.
    public func superclass(of type: TypeLayout) -> TypeLayout? {
        guard let name = type.superclass else { return nil }
        return document.types.first { $0.name == name } ?? relatedTypes.first { $0.name == name }
    }
}
