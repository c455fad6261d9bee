#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// pahole's `--sizes` view: one line per type with its size, stride, holes and wasted bytes,
/// for a whole binary, sortable by waste: where a module's memory goes.
public struct LayoutSizes: Hashable, Sendable, Codable {
    /// One type's line.
    public struct Row: Hashable, Sendable, Codable {
        /// The qualified type name.
        public var name: String
        /// The type's kind.
        public var kind: TypeKind
        /// The size (instance size for classes), or `nil` when unknown.
        public var size: Int?
        /// The stride (instance size for classes), or `nil` when unknown.
        public var stride: Int?
        /// The number of holes between fields, or `nil` when the bytes could not be classified
        /// (an enum, a generic type with unknown offsets).
        public var holes: Int?
        /// Bytes in holes plus tail padding, or `nil` as for ``holes``.
        public var wastedBytes: Int?
        /// Whether every byte could be classified (otherwise `wastedBytes` is a lower bound).
        public var isComplete: Bool
        /// Cache lines the type touches, counted from its start, or `nil` when the size is unknown.
        public var cacheLines: Int?
        /// For enums with a computed layout: how the case is stored.
        public var enumStrategy: EnumStrategy?
    }

    /// The orders the view can be sorted in.
    public enum Order: String, Hashable, Sendable, Codable, CaseIterable {
        /// Most wasted bytes first (ties by size, then name).
        case waste
        /// Largest first (unknown sizes last).
        case size
        /// By qualified name.
        case name
    }

    /// The rows, in the requested order.
    public var rows: [Row]

    /// Builds the view.
    ///
    /// - Parameters:
    ///   - layouts: each type with its hole analysis.
    ///   - order: the sort order.
    ///   - cacheLineSize: the cache-line size for the `lines` column.
    public init(_ layouts: [(layout: TypeLayout, holes: LayoutHoles)], order: Order = .waste, cacheLineSize: Int = 64) {
        rows = layouts.map { layout, holes in
            let unclassified = holes.rows.isEmpty && !holes.isComplete
            return Row(
                name: layout.name, kind: layout.kind, size: holes.size, stride: holes.extent,
                holes: unclassified ? nil : holes.holeCount, wastedBytes: unclassified ? nil : holes.wastedBytes,
                isComplete: holes.isComplete,
                cacheLines: holes.cacheLines(lineSize: cacheLineSize).lineCount, enumStrategy: layout.enumStrategy)
        }
        rows.sort { a, b in
            switch order {
            case .waste:
                if (a.wastedBytes ?? -1) != (b.wastedBytes ?? -1) { return (a.wastedBytes ?? -1) > (b.wastedBytes ?? -1) }
                if (a.size ?? -1) != (b.size ?? -1) { return (a.size ?? -1) > (b.size ?? -1) }
            case .size:
                if (a.size ?? -1) != (b.size ?? -1) { return (a.size ?? -1) > (b.size ?? -1) }
            case .name:
                break
            }
            return a.name < b.name
        }
    }

    /// The text table, one type a line, then a total:
    ///
    /// ```
    ///   size  stride  holes  wasted  lines  type
    ///     17      24      1      14      1  struct Demo.Padded
    ///      1       1      0       0      1  enum Demo.Mode (no-payload)
    /// total: 14 bytes wasted in 1 of 2 types
    /// ```
    ///
    /// Unknown numbers print as `?` (holes and waste of a type whose bytes could not be
    /// classified, such as an enum); a `+` after `wasted` means the layout is incomplete and
    /// the count a lower bound.
    ///
    /// - Returns: the table, ending in a newline.
    public func textReport() -> String {
        func cell(_ value: Int?, _ width: Int) -> String {
            let text = value.map(String.init) ?? "?"
            return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        var out = "  size  stride  holes  wasted  lines  type\n"
        for row in rows {
            let wasted = cell(row.wastedBytes, 6) + (row.isComplete || row.wastedBytes == nil ? " " : "+")
            let strategy = row.enumStrategy.map { " (\($0.rawValue))" } ?? ""
            out += "\(cell(row.size, 6))  \(cell(row.stride, 6))  \(cell(row.holes, 5))  \(wasted)\(cell(row.cacheLines, 6))  "
            out += "\(LayoutHoles.title(row.kind, row.name))\(strategy)\n"
        }
        let wasted = LayoutHoles.total(rows.map { $0.wastedBytes ?? 0 })
        let wasting = rows.filter { ($0.wastedBytes ?? 0) > 0 }.count
        out += "total: \(LayoutHoles.bytes(wasted)) wasted in \(wasting) of \(rows.count) type\(rows.count == 1 ? "" : "s")\n"
        return out
    }
}

extension LayoutSizes {
    /// The view as JSON (`{"format": "typeinfo-layout-sizes", "version": 1, "rows": [...]}`).
    ///
    /// - Returns: UTF-8 JSON ending in a newline.
    /// - Throws: only if encoding fails, which plain values do not.
    public func jsonData() throws -> Data {
        try LayoutJSON.encode(LayoutSizesReport(format: "typeinfo-layout-sizes", version: 1, rows: rows))
    }
}

/// The JSON envelope of ``LayoutSizes``.
private struct LayoutSizesReport: Encodable {
    var format: String
    var version: Int
    var rows: [LayoutSizes.Row]
}
