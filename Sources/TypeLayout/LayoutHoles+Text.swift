extension LayoutHoles {
    /// The pahole-style block for this type:
    ///
    /// ```
    /// struct Demo.Padded  size 17, alignment 8, stride 24
    ///   offset  size  field
    ///        0     1  a: Swift.Bool
    ///        1     7  ---- hole, 7 bytes ----
    ///        8     8  b: Swift.Int
    ///       16     1  c: Swift.Bool
    ///       17     7  ---- tail padding, 7 bytes ----
    ///   wasted 14 of 24 bytes: 1 hole (7 bytes), tail padding 7 bytes
    ///   reorder to save 8 bytes: b, a, c (size 17 -> 10, stride 24 -> 16)
    ///   cache lines: 1 of 64 bytes
    /// ```
    ///
    /// With a cache-line size, a `---- cache line N starts at offset M ----` row marks each
    /// boundary inside the type (pahole's cacheline markers), and a last line says how many
    /// lines the type touches and which fields straddle a boundary (see ``cacheLines(lineSize:)``).
    ///
    /// With an expansion (pahole `-E`), a field whose type is a known struct, tuple or union
    /// is followed by that type's rows, indented two spaces a level, at offsets counted from the
    /// start of this type. The wasted-bytes line counts this type's own holes only.
    ///
    /// - Parameters:
    ///   - cacheLineSize: the cache-line size in bytes, or `nil` for no cache-line rows.
    ///   - expansion: the nested types to open, or `nil`.
    /// - Returns: the block, ending in a newline.
    public func textReport(cacheLineSize: Int? = 64, expansion: LayoutExpansion? = nil) -> String {
        var out = "\(Self.title(kind, typeName))  \(headline)\n"
        let markerLimit = 256
        var markers = 0
        var lastMarked = 0
        let (shown, truncated) = expandedRows(expansion)
        if !rows.isEmpty {
            out += "  offset  size  field\n"
            for (depth, row) in shown.map({ ($0.depth, $0.row) }) {
                if let line = cacheLineSize, line > 0, row.offset > lastMarked {
                    for boundary in Self.boundaries(after: lastMarked, upTo: row.offset, lineSize: line, limit: markerLimit - markers) {
                        let inside =
                            boundary < row.offset ? " (\(Self.bytes(row.offset - boundary)) before this row, inside the one above)" : ""
                        out += "  ---- cache line \(boundary / line) starts at offset \(boundary)\(inside) ----\n"
                        markers += 1
                    }
                    lastMarked = row.offset
                }
                out += "  " + pad(String(row.offset), 6)
                out += "  " + pad(row.size.map(String.init) ?? "?", 4) + "  " + String(repeating: "  ", count: depth)
                switch row.kind {
                case .field:
                    var text = "\(row.name ?? ""): \(row.type ?? "")"
                    if let bits = row.bitWidth { text += " (bits \(row.bitOffset ?? 0)..<\((row.bitOffset ?? 0) + bits))" }
                    out += text
                case .header: out += "---- object header ----"
                case .hole: out += "---- hole, \(Self.bytes(row.size ?? 0)) ----"
                case .padding: out += "---- tail padding, \(Self.bytes(row.size ?? 0)) ----"
                }
                out += "\n"
            }
            if truncated { out += "  ... expanded rows cut at \(LayoutExpansion.rowLimit)\n" }
        }
        if let enumLayout { out += enumLayout.textLines() }
        if let note, enumLayout == nil { out += "  note: \(note)\n" }
        if kind == .struct || kind == .class || kind == .tuple || kind == .union {
            let total = extent.map { " of \($0) bytes" } ?? ""
            let holes = holeCount == 1 ? "1 hole" : "\(holeCount) holes"
            out +=
                "  wasted \(wastedBytes)\(total)\(isComplete ? "" : " or more"): \(holes) (\(Self.bytes(holeBytes))), tail padding \(Self.bytes(paddingBytes))\n"
        }
        if let reorder {
            let saving =
                reorder.savedBytes > 0
                ? "reorder to save \(Self.bytes(reorder.savedBytes))"
                : "reorder to shrink the size by \(Self.bytes(reorder.currentSize - reorder.suggestedSize))"
            out += "  \(saving): \(reorder.order.joined(separator: ", "))"
            if kind == .class {
                out += " (instance size \(reorder.currentSize) -> \(reorder.suggestedSize))\n"
            } else {
                out +=
                    " (size \(reorder.currentSize) -> \(reorder.suggestedSize), stride \(reorder.currentStride) -> \(reorder.suggestedStride))\n"
            }
        } else if let reorderNote, reorderNote != note, holeCount > 0 {
            out += "  no reorder suggestion: \(reorderNote)\n"
        }
        if let line = cacheLineSize, line > 0, let text = cacheLineText(lineSize: line) {
            out += "  \(text)\(markers >= markerLimit ? " (markers shown for the first \(markerLimit) boundaries)" : "")\n"
        }
        return out
    }

    /// `size 17, alignment 8, stride 24` (`instance size 40, alignment 8` for classes).
    var headline: String {
        let value = { (number: Int?) in number.map(String.init) ?? "?" }
        if kind == .class {
            return "instance size \(value(size)), alignment \(value(alignment))"
        }
        return "size \(value(size)), alignment \(value(alignment)), stride \(value(extent))"
    }

    /// A report over many types: each type's block (only types that waste bytes, unless
    /// `includeTight`), then the total.
    ///
    /// - Parameters:
    ///   - analyses: the analysed types.
    ///   - includeTight: also show types without holes or padding.
    ///   - cacheLineSize: the cache-line size for the markers, or `nil` for none.
    ///   - expansion: the nested types to open in each block, or `nil`.
    /// - Returns: the report, ending in a newline.
    public static func textReport(
        _ analyses: [LayoutHoles], includeTight: Bool = false, cacheLineSize: Int? = 64,
        expansion: LayoutExpansion? = nil
    ) -> String {
        var out = ""
        for analysis in analyses where includeTight || analysis.wastedBytes > 0 {
            out += analysis.textReport(cacheLineSize: cacheLineSize, expansion: expansion) + "\n"
        }
        out += summaryLine(analyses) + "\n"
        return out
    }

    /// `total: 120 bytes wasted (96 in 12 holes, 24 of tail padding) in 9 of 40 types; reordering would save 64 bytes`.
    ///
    /// - Parameter analyses: the analysed types.
    /// - Returns: the line, without a newline.
    public static func summaryLine(_ analyses: [LayoutHoles]) -> String {
        let wasting = analyses.filter { $0.wastedBytes > 0 }.count
        let holes = LayoutHoles.total(analyses.map { $0.holeBytes })
        let holeCount = LayoutHoles.total(analyses.map { $0.holeCount })
        let padding = LayoutHoles.total(analyses.map { $0.paddingBytes })
        let saved = LayoutHoles.total(analyses.map { ($0.reorder?.savedBytes ?? 0) })
        var line =
            "total: \(bytes(total([holes, padding]))) wasted (\(holes) in \(holeCount) hole\(holeCount == 1 ? "" : "s"), \(padding) of tail padding)"
        // Enums (and other kinds without holes) are not classified byte by byte: they are left
        // out of the count rather than counted as wasting nothing.
        let other = analyses.filter { ![.struct, .class, .tuple, .union].contains($0.kind) }.count
        let counted = analyses.count - other
        line += " in \(wasting) of \(counted) type\(counted == 1 ? "" : "s")"
        if other > 0 { line += " (\(other) enum\(other == 1 ? "" : "s") or other type\(other == 1 ? "" : "s") not analysed for holes)" }
        if saved > 0 { line += "; reordering fields would save \(bytes(saved)) per value" }
        if analyses.contains(where: { !$0.isComplete && $0.note != nil && $0.kind != .enum }) {
            line += "; some layouts are incomplete"
        }
        return line
    }

    /// `struct Demo.Point`; a C name that already says `struct point` is not prefixed twice.
    static func title(_ kind: TypeKind, _ name: String) -> String {
        name.hasPrefix(kind.rawValue + " ") ? name : "\(kind.rawValue) \(name)"
    }

    /// A sum that saturates at `Int.max` instead of trapping: totals over many types whose
    /// sizes came from a file.
    static func total(_ values: [Int]) -> Int {
        values.reduce(0) { sum, value in
            let result = sum.addingReportingOverflow(value)
            return result.overflow ? (value < 0 ? Int.min : Int.max) : result.partialValue
        }
    }

    static func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
