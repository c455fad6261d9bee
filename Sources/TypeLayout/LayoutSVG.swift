/// Draws one type's layout as an SVG picture: a byte ruler, rows of bytes like a memory dump,
/// one coloured box per field, holes and tail padding hatched, and a legend with the totals
/// and the reorder suggestion. The result is a standalone SVG document for a browser.
public struct LayoutSVGRenderer: Sendable {
    /// Drawing options.
    public struct Options: Hashable, Sendable {
        /// Bytes per row; `nil` picks 8 for small types and 16 for larger ones.
        public var bytesPerRow: Int?
        /// The picture's width in pixels.
        public var width: Int
        /// The cache-line size whose boundaries are drawn (and counted in the legend), or `nil`.
        public var cacheLineSize: Int?

        /// Creates options.
        public init(bytesPerRow: Int? = nil, width: Int = 960, cacheLineSize: Int? = 64) {
            self.bytesPerRow = bytesPerRow
            self.width = width
            self.cacheLineSize = cacheLineSize
        }
    }

    /// The options in use.
    public var options: Options

    /// Creates a renderer.
    public init(_ options: Options = Options()) {
        self.options = options
    }

    /// Most rows a picture draws; a larger type is cut off with a note, so a huge (or hostile)
    /// size cannot make a huge document.
    public static let rowLimit = 512

    private static let palette = [
        "#8ecae6", "#ffb703", "#90be6d", "#f4a261", "#cdb4db", "#80ed99", "#ffd6a5", "#a0c4ff",
        "#f6bd60", "#84a59d", "#bde0fe", "#e9c46a",
    ]

    /// Renders the analysis of one type.
    ///
    /// - Parameter holes: the type's holes analysis (``LayoutHoles``).
    /// - Returns: an SVG document.
    public func render(_ holes: LayoutHoles) -> String {
        let extent = max(holes.extent ?? 0, holes.rows.map { Self.end(of: $0, unknownSize: 0) }.max() ?? 0)
        let perRow = max(1, min(64, options.bytesPerRow ?? (extent <= 32 ? 8 : 16)))
        let totalRows = max(1, extent / perRow + (extent % perRow == 0 ? 0 : 1))
        let rowCount = min(totalRows, Self.rowLimit)
        let shownBytes = rowCount * perRow

        let left = 64
        let top = 74
        let rowHeight = 54
        let cell = Double(options.width - left - 16) / Double(perRow)
        let lanes = Self.lanes(holes.rows)
        let laneCount = max(1, (lanes.max() ?? 0) + 1)
        let laneHeight = Double(rowHeight - 8) / Double(laneCount)

        var body = ""
        // Title and headline.
        body += text(x: 16, y: 26, LayoutHoles.title(holes.kind, holes.typeName), size: 18, weight: "bold")
        body += text(x: 16, y: 46, holes.headline, size: 13, fill: "#444")

        // Byte ruler.
        for column in 0..<perRow {
            let x = Double(left) + (Double(column) + 0.5) * cell
            body += text(x: x, y: Double(top - 8), String(column), size: 11, fill: "#666", anchor: "middle")
        }
        // Row backgrounds and offsets.
        for row in 0..<rowCount {
            let y = top + row * rowHeight
            body += text(x: Double(left - 8), y: Double(y + rowHeight / 2 + 4), String(row * perRow), size: 11, fill: "#666", anchor: "end")
            for column in 0..<perRow where row * perRow + column < extent {
                let x = Double(left) + Double(column) * cell
                body +=
                    "<rect x=\"\(fmt(x))\" y=\"\(y + 2)\" width=\"\(fmt(cell))\" height=\"\(rowHeight - 4)\" fill=\"#fafafa\" stroke=\"#ddd\"/>\n"
            }
        }

        // Cache-line boundaries: a line across the row top where a line starts at a row start,
        // else a vertical line at that byte; both labelled in the left margin, drawn over the boxes.
        var marks = ""
        if let line = options.cacheLineSize, line > 0 {
            for boundary in LayoutHoles.boundaries(after: 0, upTo: shownBytes - 1, lineSize: line, limit: Self.rowLimit)
            where boundary < extent {
                let row = boundary / perRow
                let column = boundary % perRow
                let y = top + row * rowHeight
                let x = Double(left) + Double(column) * cell
                marks += "<g><title>cache line \(boundary / line) starts at offset \(boundary)</title>"
                if column == 0 {
                    marks +=
                        "<line x1=\"\(left)\" y1=\"\(y + 1)\" x2=\"\(options.width - 16)\" y2=\"\(y + 1)\" stroke=\"#d62828\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
                } else {
                    marks +=
                        "<line x1=\"\(fmt(x))\" y1=\"\(y)\" x2=\"\(fmt(x))\" y2=\"\(y + rowHeight)\" stroke=\"#d62828\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
                }
                marks += text(x: 4, y: Double(y + 12), "CL\(boundary / line)", size: 10, fill: "#d62828")
                marks += "</g>\n"
            }
        }

        // One box per row segment of each field, hole, padding or header.
        var fieldIndex = 0
        for (index, item) in holes.rows.enumerated() {
            let fill: String
            var label: String
            switch item.kind {
            case .field:
                fill = Self.palette[fieldIndex % Self.palette.count]
                fieldIndex += 1
                label = item.name ?? ""
            case .hole:
                fill = "url(#hole)"
                label = "hole \(item.size ?? 0)"
            case .padding:
                fill = "url(#padding)"
                label = "padding \(item.size ?? 0)"
            case .header:
                fill = "#6c757d"
                label = "header"
            }
            let dashed = item.size == nil
            let tooltip = Self.tooltip(item)
            var start = max(item.offset, 0)
            let end = Self.end(of: item, unknownSize: 1)
            var first = true
            while start < end, start < shownBytes {
                let row = start / perRow
                let stop = min(end, (row + 1) * perRow)
                let x = Double(left) + Double(start - row * perRow) * cell
                let width = Double(stop - start) * cell
                let lane = index < lanes.count ? lanes[index] : 0
                let y = Double(top + row * rowHeight + 4) + Double(lane) * laneHeight
                body += "<g><title>\(escape(tooltip))</title>"
                body +=
                    "<rect x=\"\(fmt(x + 1))\" y=\"\(fmt(y))\" width=\"\(fmt(max(width - 2, 1)))\" height=\"\(fmt(laneHeight))\" rx=\"3\" fill=\"\(fill)\" stroke=\"#333\" stroke-width=\"1\"\(dashed ? " stroke-dasharray=\"4 3\"" : "")/>"
                let text = first ? label : "\u{2026}\(label)"
                let textColour = item.kind == .header ? "#fff" : "#111"
                if first, item.kind == .field, let type = item.type, laneHeight >= 36 {
                    body += self.text(
                        x: x + width / 2, y: y + laneHeight / 2 - 2, fitted(text, width: width, charWidth: 8.4), size: 12,
                        fill: textColour, anchor: "middle", weight: "bold")
                    body += self.text(
                        x: x + width / 2, y: y + laneHeight / 2 + 13, fitted(Self.shortTypeName(type), width: width, charWidth: 6.2),
                        size: 10, fill: "#333", anchor: "middle")
                } else {
                    // Labels on hatching get a white halo so they stay readable.
                    let halo = item.kind == .hole || item.kind == .padding
                    body += self.text(
                        x: x + width / 2, y: y + laneHeight / 2 + 4, fitted(text, width: width), size: 12,
                        fill: textColour, anchor: "middle", halo: halo)
                }
                body += "</g>\n"
                first = false
                start = stop
            }
        }

        body += marks

        // Legend: fields, totals, suggestion, notes.
        var legendY = top + rowCount * rowHeight + 28
        var lines: [String] = []
        if totalRows > rowCount {
            lines.append("(showing the first \(shownBytes) of \(extent) bytes)")
        }
        lines.append(
            "wasted \(holes.wastedBytes)\(holes.extent.map { " of \($0)" } ?? "") bytes: \(holes.holeCount) hole\(holes.holeCount == 1 ? "" : "s") (\(holes.holeBytes) bytes), tail padding \(holes.paddingBytes) bytes\(holes.isComplete ? "" : " (incomplete)")"
        )
        if let reorder = holes.reorder {
            lines.append(
                "suggested order: \(reorder.order.joined(separator: ", ")) (size \(reorder.currentSize) -> \(reorder.suggestedSize), stride \(reorder.currentStride) -> \(reorder.suggestedStride))"
            )
        }
        if let note = holes.note { lines.append("note: \(note)") }
        if let line = options.cacheLineSize, line > 0, let text = holes.cacheLineText(lineSize: line) { lines.append(text) }
        let lineLength = max(20, Int(Double(options.width - 32) / 7.4))
        for line in lines.flatMap({ Self.wrap($0, length: lineLength) }) {
            body += text(x: 16, y: Double(legendY), line, size: 13, fill: "#222")
            legendY += 20
        }
        legendY += 6
        fieldIndex = 0
        for item in holes.rows where item.kind == .field {
            let colour = Self.palette[fieldIndex % Self.palette.count]
            fieldIndex += 1
            body += "<rect x=\"16\" y=\"\(legendY - 11)\" width=\"14\" height=\"14\" rx=\"2\" fill=\"\(colour)\" stroke=\"#333\"/>"
            body += text(x: 38, y: Double(legendY), Self.tooltip(item), size: 12, fill: "#222", family: "monospace")
            legendY += 19
        }
        let height = legendY + 12

        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(options.width)\" height=\"\(height)\" viewBox=\"0 0 \(options.width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        svg += "<title>\(escape("Layout of \(holes.typeName)"))</title>\n"
        svg += """
            <defs>
            <pattern id="hole" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
            <rect width="8" height="8" fill="#fde2e4"/><line x1="0" y1="0" x2="0" y2="8" stroke="#e63946" stroke-width="3"/></pattern>
            <pattern id="padding" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
            <rect width="8" height="8" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="8" stroke="#9e9e9e" stroke-width="3"/></pattern>
            </defs>

            """
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += body
        svg += "</svg>\n"
        return svg
    }

    /// `offset 8, size 8  count: Swift.Int`.
    private static func tooltip(_ row: LayoutHoles.Row) -> String {
        let size = row.size.map(String.init) ?? "?"
        switch row.kind {
        case .field:
            var text = "offset \(row.offset), size \(size) \u{00B7} \(row.name ?? ""): \(row.type ?? "")"
            if let bits = row.bitWidth { text += " (bits \(row.bitOffset ?? 0)..<\((row.bitOffset ?? 0) + bits))" }
            return text
        case .hole: return "offset \(row.offset), size \(size) \u{00B7} hole"
        case .padding: return "offset \(row.offset), size \(size) \u{00B7} tail padding"
        case .header: return "offset \(row.offset), size \(size) \u{00B7} object header"
        }
    }

    /// The end of a row's bytes (at least one byte drawn), saturating instead of overflowing.
    private static func end(of row: LayoutHoles.Row, unknownSize: Int) -> Int {
        let sum = row.offset.addingReportingOverflow(max(row.size ?? unknownSize, unknownSize))
        return sum.overflow ? Int.max : sum.partialValue
    }

    /// The lane of each row: overlapping members (unions, bitfields) are drawn one above the other.
    private static func lanes(_ rows: [LayoutHoles.Row]) -> [Int] {
        var laneEnds: [Int] = []
        return rows.map { row in
            let end = Self.end(of: row, unknownSize: 1)
            if let lane = laneEnds.firstIndex(where: { $0 <= row.offset }) {
                laneEnds[lane] = end
                return lane
            }
            laneEnds.append(end)
            return laneEnds.count - 1
        }
    }

    private func text(
        x: Double, y: Double, _ content: String, size: Int, fill: String = "#000", anchor: String = "start",
        weight: String = "normal", family: String? = nil, halo: Bool = false
    ) -> String {
        let font = family.map { " font-family=\"\($0)\"" } ?? ""
        let outline = halo ? " stroke=\"#fff\" stroke-width=\"4\" paint-order=\"stroke\"" : ""
        return
            "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"\(size)\" fill=\"\(fill)\" text-anchor=\"\(anchor)\" font-weight=\"\(weight)\"\(font)\(outline)>\(escape(content))</text>"
    }

    /// Splits a long legend line at spaces into lines of at most `length` characters.
    static func wrap(_ line: String, length: Int) -> [String] { SVGText.wrapped(line, length: length) }

    /// `Swift.Int` -> `Int`, `Foo.Bar.Baz?` -> `Baz?`, `[Swift.String: Swift.Int]` ->
    /// `[String: Int]`: every qualified name inside keeps its last component, and brackets,
    /// generic arguments and punctuation stay, for a box label (the tooltip and the legend keep
    /// the qualified name).
    static func shortTypeName(_ name: String) -> String {
        var out = ""
        var run = ""
        func flush() {
            // A run starting with "." follows a `>` or `)` (`Outer<Int>.Inner`): keep one dot.
            let leadingDot = run.hasPrefix(".")
            let last = run.split(separator: ".", omittingEmptySubsequences: true).last.map(String.init) ?? ""
            out += (leadingDot ? "." : "") + last
            run = ""
        }
        for character in name {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                run.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }

    /// Shortens a label to what fits in `width` pixels (about 7.5 px per character at 12 px).
    private func fitted(_ label: String, width: Double, charWidth: Double = 7.5) -> String {
        let fits = Int((width - 10) / charWidth)
        if label.count <= fits { return label }
        if fits <= 1 { return "" }
        return String(label.prefix(fits - 1)) + "\u{2026}"
    }

    private func fmt(_ value: Double) -> String { SVGText.number(value) }

    private func escape(_ text: String) -> String { SVGText.escaped(text) }
}

extension LayoutHoles {
    /// This type's layout as an SVG picture; see ``LayoutSVGRenderer``.
    ///
    /// - Parameter options: drawing options.
    /// - Returns: an SVG document.
    public func svg(_ options: LayoutSVGRenderer.Options = .init()) -> String {
        LayoutSVGRenderer(options).render(self)
    }
}
