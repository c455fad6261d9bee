/// pahole's view of one type: each field with its offset and size, the holes alignment leaves
/// between fields, tail padding, the bytes wasted, and a declaration order that would waste less.
///
/// Only facts in the layout are used. A field whose offset or size is unknown makes the analysis
/// incomplete (``isComplete`` is false, the bytes around it are not classified) rather than guessed.
public struct LayoutHoles: Hashable, Sendable, Codable {
    /// The qualified type name.
    public var typeName: String
    /// The type's kind.
    public var kind: TypeKind
    /// The end of the type's storage: `size` for values, `instanceSize` for classes.
    public var size: Int?
    /// `MemoryLayout.alignment` (instance alignment for classes).
    public var alignment: Int?
    /// The extent tail padding runs to: `stride` for values (`size` where there is no stride),
    /// `instanceSize` for classes (instances are not laid out in arrays).
    public var extent: Int?
    /// The rows in offset order: header, fields, holes, tail padding.
    public var rows: [Row]
    /// Whether every byte up to ``extent`` could be classified.
    public var isComplete: Bool
    /// Why the analysis is incomplete or does not apply, in a sentence, or `nil`.
    public var note: String?
    /// A field order that wastes fewer bytes, or `nil` (see ``reorderNote``).
    public var reorder: ReorderSuggestion?
    /// Why there is no reorder suggestion, or `nil` when there is one.
    public var reorderNote: String?
    /// For enums: how the cases share storage (shown instead of holes).
    public var enumLayout: EnumLayoutSummary? = nil

    /// One row of the picture.
    public struct Row: Hashable, Sendable, Codable {
        /// What the bytes are.
        public var kind: RowKind
        /// The first byte.
        public var offset: Int
        /// The number of bytes, or `nil` for a field of unknown size.
        public var size: Int?
        /// The field name (fields only).
        public var name: String?
        /// The field type (fields only).
        public var type: String?
        /// For C bitfields: bit offset within the byte at `offset`, and width.
        public var bitOffset: Int?
        /// For C bitfields: width in bits.
        public var bitWidth: Int?

        /// Creates a row.
        public init(
            kind: RowKind, offset: Int, size: Int?, name: String? = nil, type: String? = nil,
            bitOffset: Int? = nil, bitWidth: Int? = nil
        ) {
            self.kind = kind
            self.offset = offset
            self.size = size
            self.name = name
            self.type = type
            self.bitOffset = bitOffset
            self.bitWidth = bitWidth
        }
    }

    /// What a row's bytes are.
    public enum RowKind: String, Hashable, Sendable, Codable {
        /// A Swift object header (metadata pointer and reference counts).
        case header
        /// A stored field.
        case field
        /// Unused bytes between fields, left by alignment.
        case hole
        /// Unused bytes after the last field, up to the stride.
        case padding
    }

    /// A declaration order that wastes fewer bytes.
    public struct ReorderSuggestion: Hashable, Sendable, Codable {
        /// Field names in the suggested order (for a class: its own fields only).
        public var order: [String]
        /// The current size (instance size for classes).
        public var currentSize: Int
        /// The size with the suggested order.
        public var suggestedSize: Int
        /// The current stride (instance size for classes).
        public var currentStride: Int
        /// The stride with the suggested order.
        public var suggestedStride: Int

        /// Bytes saved per value in an array (per instance for classes).
        public var savedBytes: Int { currentStride - suggestedStride }
    }

    /// Bytes in holes between fields.
    public var holeBytes: Int { bytes(of: .hole) }
    /// Bytes of tail padding.
    public var paddingBytes: Int { bytes(of: .padding) }
    /// Holes plus tail padding.
    public var wastedBytes: Int { holeBytes + paddingBytes }
    /// The number of holes.
    public var holeCount: Int { rows.filter { $0.kind == .hole }.count }

    private func bytes(of kind: RowKind) -> Int {
        rows.reduce(0) { $0 + ($1.kind == kind ? ($1.size ?? 0) : 0) }
    }

    /// Analyses one layout.
    ///
    /// - Parameters:
    ///   - layout: the type.
    ///   - alignmentOf: each field's alignment, or `nil` when unknown; needed only for the
    ///     reorder suggestion. ``LayoutAlignments`` answers it from known layouts.
    ///   - superclass: the superclass's layout, for classes with one; without it a class gets
    ///     no reorder suggestion (its own fields cannot be told from inherited ones).
    public init(
        _ layout: TypeLayout,
        alignmentOf: (FieldLayout) -> Int? = { _ in nil },
        superclass: TypeLayout? = nil
    ) {
        typeName = layout.name
        kind = layout.kind
        let isClass = layout.kind == .class
        size = isClass ? layout.instanceSize : layout.size
        alignment = isClass ? layout.instanceAlignment : layout.alignment
        extent = isClass ? layout.instanceSize : (layout.stride ?? layout.size)
        rows = []
        isComplete = true
        note = nil
        reorder = nil
        reorderNote = nil

        switch layout.kind {
        case .struct, .class, .tuple, .union:
            break
        default:
            isComplete = false
            note = "holes are shown for structs, classes, tuples and unions, not for \(layout.kind.rawValue)s"
            reorderNote = note
            if layout.kind == .enum || layout.kind == .optional { enumLayout = EnumLayoutSummary(layout) }
            return
        }
        buildRows(layout)
        switch Self.suggestReorder(layout, alignmentOf: alignmentOf, superclass: superclass) {
        case .suggested(let suggestion): reorder = suggestion
        case .unavailable(let reason): reorderNote = reason
        }
    }

    private mutating func buildRows(_ layout: TypeLayout) {
        guard layout.fields.allSatisfy({ $0.offset != nil }) else {
            isComplete = false
            let unknown = layout.fields.filter { $0.offset == nil }.map(\.name)
            note =
                "offsets of \(unknown.count) of \(layout.fields.count) fields are unknown (\(unknown.prefix(3).joined(separator: ", "))\(unknown.count > 3 ? ", ..." : ""))"
            return
        }
        let fields = LayoutSnapshot.offsetOrdered(layout.fields)
        var cursor: Int? = 0
        if kind == .class, let limit = fields.first?.offset ?? layout.instanceSize, limit > 0 {
            // A native Swift object starts with its metadata pointer and reference counts: two words.
            let header = layout.size.map { $0 > 0 && $0 <= limit / 2 ? 2 * $0 : limit } ?? limit
            rows.append(Row(kind: .header, offset: 0, size: header))
            cursor = header
        }
        var unknownSizes: [String] = []
        for field in fields {
            let offset = field.offset ?? 0
            if let at = cursor, offset > at {
                rows.append(Row(kind: .hole, offset: at, size: offset - at))
            }
            let range = field.byteRange
            rows.append(
                Row(
                    kind: .field, offset: offset, size: range?.count ?? field.size, name: field.name,
                    type: field.type, bitOffset: field.bitOffset, bitWidth: field.bitWidth))
            if let range {
                // Overlapping members (unions, bitfields sharing a unit) must not pull the cursor back.
                // After a field of unknown size, this field's end is the first known byte again.
                cursor = max(cursor ?? range.upperBound, range.upperBound)
            } else {
                unknownSizes.append(field.name)
                cursor = nil
            }
        }
        if !unknownSizes.isEmpty {
            isComplete = false
            let names = unknownSizes.prefix(3).joined(separator: ", ") + (unknownSizes.count > 3 ? ", ..." : "")
            note =
                unknownSizes.count == 1
                ? "the size of field '\(names)' is unknown, so the bytes after it are not classified"
                : "the sizes of \(unknownSizes.count) fields are unknown (\(names)), so the bytes after them are not classified"
        }
        // A Swift value's size ends at its last used byte and its stride adds the tail padding,
        // so the padding is known even when the last field's size is not. C's sizeof (DWARF)
        // already includes the padding; there, and for objects, it runs from the last field's end.
        let swiftValue = (kind == .struct || kind == .tuple) && layout.source != .dwarf
        if swiftValue, let size = layout.size, let stride = layout.stride, stride >= size {
            if let at = cursor, size > at { rows.append(Row(kind: .hole, offset: at, size: size - at)) }
            // An empty value's stride of 1 is not waste anyone can remove.
            if stride > size, size > 0 { rows.append(Row(kind: .padding, offset: size, size: stride - size)) }
            return
        }
        guard let at = cursor else { return }
        if let extent {
            if extent > at { rows.append(Row(kind: .padding, offset: at, size: extent - at)) }
        } else {
            isComplete = false
            note = note ?? "the type's size is unknown, so tail padding is not known"
        }
    }
}
