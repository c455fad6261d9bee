/// How far `typeinfo layout` opens nested value types (pahole `-E`): a field whose type is a
/// struct, tuple or union with a known layout shows that type's own rows inline, indented, at
/// absolute offsets.
public struct LayoutExpansion: Sendable {
    /// How many levels of nesting are opened (1: the fields' own fields).
    public var depth: Int
    /// The nested type's analysis by the field's type name, or `nil` when it is not known.
    public var nested: @Sendable (String) -> LayoutHoles?

    /// The most rows one expanded type prints: a hostile file's deep or wide nesting stays bounded.
    public static let rowLimit = 4096

    /// Creates an expansion.
    ///
    /// - Parameters:
    ///   - depth: levels to open; 0 opens none.
    ///   - nested: the analysis of a type by the name fields spell it with.
    public init(depth: Int, nested: @escaping @Sendable (String) -> LayoutHoles?) {
        self.depth = depth
        self.nested = nested
    }

    /// An expansion over known layouts: each struct, tuple or union by its name.
    ///
    /// - Parameters:
    ///   - depth: levels to open.
    ///   - types: the layouts fields may refer to (a binary's whole reading).
    public init(depth: Int, types: [TypeLayout]) {
        var byName: [String: TypeLayout] = [:]
        for type in types where [.struct, .tuple, .union].contains(type.kind) && byName[type.name] == nil {
            byName[type.name] = type
        }
        let table = byName
        self.init(depth: depth) { name in table[name].map { LayoutHoles($0) } }
    }
}

extension LayoutHoles {
    /// One row of an expanded view: a row of this type or of a nested one, at an absolute offset.
    public struct ExpandedRow: Hashable, Sendable {
        /// 0 for this type's own rows, 1 for a field's fields, and so on.
        public var depth: Int
        /// The row, its offset counted from the start of the outermost type.
        public var row: Row
    }

    /// The rows with nested value types opened to `expansion.depth` levels.
    ///
    /// A field is opened only when its type's layout is known and complete and its size is the
    /// field's size (a disagreement, or a reference, is shown unopened rather than guessed at).
    ///
    /// - Parameter expansion: what to open, or `nil` for this type's own rows.
    /// - Returns: the rows in order, with a flag telling whether ``LayoutExpansion/rowLimit`` cut them.
    public func expandedRows(_ expansion: LayoutExpansion?) -> (rows: [ExpandedRow], truncated: Bool) {
        var result: [ExpandedRow] = []
        var truncated = false
        func append(_ rows: [Row], base: Int, depth: Int) {
            for row in rows {
                guard result.count < LayoutExpansion.rowLimit else {
                    truncated = true
                    return
                }
                let (offset, overflow) = base.addingReportingOverflow(row.offset)
                guard !overflow else {
                    truncated = true
                    return
                }
                var moved = row
                moved.offset = offset
                result.append(ExpandedRow(depth: depth, row: moved))
                guard let expansion, depth < expansion.depth, row.kind == .field, row.bitWidth == nil,
                    let type = row.type, let inner = expansion.nested(type),
                    inner.isComplete, inner.size != nil, inner.size == row.size || inner.extent == row.size
                else { continue }
                // Tail padding of a nested value is inside the field's bytes only when its stride is.
                let innerRows = inner.rows.filter { $0.kind != .padding || ($0.offset + ($0.size ?? 0)) <= (row.size ?? 0) }
                append(innerRows, base: offset, depth: depth + 1)
            }
        }
        append(rows, base: 0, depth: 0)
        return (result, truncated)
    }
}
