/// Draws chains of holders as an SVG picture for a browser: the paths from roots to an object
/// (`retainers`), or the retain cycles among leaked allocations (`leaks`).
///
/// Each chain is a column of boxes, one holder a box, its first holder (a root, or a cycle's
/// least holder) at the top and an arrow for each pointer; a cycle has one more arrow, from its
/// last holder back to its first. Labels are the text reports' own, wrapped, never cut: a picture
/// says no more and no less than the text. Large reports are bounded (``chainLimit``,
/// ``stepLimit``), with a line saying what was left out.
public struct HolderChainSVG: Sendable, Hashable {
    /// One chain of holders.
    public struct Chain: Sendable, Hashable {
        /// The line above the chain (`path 1 (2 steps)`, `7 cycles`).
        public var heading: String
        /// The holders, in pointing order: each points to the next.
        public var steps: [String]
        /// Whether the last holder points back to the first (a retain cycle).
        public var closesCycle: Bool

        public init(heading: String, steps: [String], closesCycle: Bool) {
            self.heading = heading
            self.steps = steps
            self.closesCycle = closesCycle
        }
    }

    /// The picture's title, and the lines under it.
    public var title: String
    public var subtitle: [String]
    public var chains: [Chain]

    public init(title: String, subtitle: [String] = [], chains: [Chain]) {
        self.title = title
        self.subtitle = subtitle
        self.chains = chains
    }

    /// Most chains drawn; the others are counted in a line at the end.
    public static let chainLimit = 64
    /// Most holders drawn of one chain; the others are counted in the chain's last box.
    public static let stepLimit = 48

    static let width = 960
    static let charactersPerLine = 118
    static let lineHeight = 16
    static let boxLeft = 24
    static let boxWidth = width - 2 * boxLeft - 24

    /// The SVG document.
    public var document: String {
        var body = ""
        var y = 30
        body += Self.text(x: 16, y: y, title, size: 18, weight: "bold")
        for line in subtitle {
            for wrapped in SVGText.wrapped(line, length: Self.charactersPerLine + 10) {
                y += 18
                body += Self.text(x: 16, y: y, wrapped, size: 12, fill: "#444")
            }
        }
        y += 16
        if chains.isEmpty {
            y += 20
            body += Self.text(x: 16, y: y, "nothing to draw", size: 13, fill: "#444")
        }
        for chain in chains.prefix(Self.chainLimit) {
            y += 26
            body += Self.text(x: 16, y: y, chain.heading, size: 13, weight: "bold")
            y += 10
            var labels = Array(chain.steps.prefix(Self.stepLimit))
            if chain.steps.count > Self.stepLimit {
                labels.append("… \(chain.steps.count - Self.stepLimit) more holders, not drawn (the text and JSON reports list them)")
            }
            var firstBoxTop = y
            var lastBoxMiddle = y
            for (index, label) in labels.enumerated() {
                if index > 0 {
                    body += Self.arrow(from: y, to: y + 22)
                    y += 22
                }
                let lines = SVGText.wrapped(label, length: Self.charactersPerLine)
                let height = lines.count * Self.lineHeight + 12
                if index == 0 { firstBoxTop = y }
                body += "<g class=\"holder\"><title>\(SVGText.escaped(label))</title>"
                body +=
                    "<rect x=\"\(Self.boxLeft)\" y=\"\(y)\" width=\"\(Self.boxWidth)\" height=\"\(height)\" rx=\"5\" fill=\"\(index == 0 ? "#e3f2fd" : "#f5f5f5")\" stroke=\"#546e7a\"/>"
                for (number, line) in lines.enumerated() {
                    body += Self.text(x: Self.boxLeft + 10, y: y + 19 + number * Self.lineHeight, line, size: 12, family: "monospace")
                }
                body += "</g>\n"
                lastBoxMiddle = y + height / 2
                y += height
            }
            if chain.closesCycle, !labels.isEmpty {
                body += Self.backArrow(from: lastBoxMiddle, to: firstBoxTop + 14)
            }
        }
        if chains.count > Self.chainLimit {
            y += 30
            body += Self.text(
                x: 16, y: y, "… \(chains.count - Self.chainLimit) more, not drawn (the text and JSON reports list them)", size: 12,
                fill: "#444")
        }
        let height = y + 24
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.width)\" height=\"\(height)\" viewBox=\"0 0 \(Self.width) \(height)\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        svg += "<title>\(SVGText.escaped(title))</title>\n"
        svg +=
            "<defs><marker id=\"head\" markerWidth=\"10\" markerHeight=\"8\" refX=\"9\" refY=\"4\" orient=\"auto\"><path d=\"M0,0 L10,4 L0,8 z\" fill=\"#37474f\"/></marker></defs>\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += body
        svg += "</svg>\n"
        return svg
    }

    private static func arrow(from top: Int, to bottom: Int) -> String {
        let x = boxLeft + 40
        return
            "<line class=\"points-to\" x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(bottom - 1)\" stroke=\"#37474f\" stroke-width=\"1.5\" marker-end=\"url(#head)\"/>\n"
    }

    /// The arrow from a cycle's last holder back to its first, along the right margin.
    private static func backArrow(from bottom: Int, to top: Int) -> String {
        let right = boxLeft + boxWidth
        let outer = right + 18
        return
            "<path class=\"points-back\" d=\"M\(right),\(bottom) H\(outer) V\(top) H\(right + 1)\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"1.5\" marker-end=\"url(#head)\"/>\n"
    }

    private static func text(
        x: Int, y: Int, _ content: String, size: Int, fill: String = "#000", weight: String = "normal", family: String? = nil
    ) -> String {
        let font = family.map { " font-family=\"\($0)\"" } ?? ""
        return
            "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" fill=\"\(fill)\" font-weight=\"\(weight)\"\(font) xml:space=\"preserve\">\(SVGText.escaped(content))</text>"
    }
}

extension RetainersReport {
    /// The paths as an SVG picture (``HolderChainSVG``): one column per path, root at the top,
    /// the object last.
    public var svg: String {
        let chains = paths.enumerated().map { number, path in
            HolderChainSVG.Chain(
                heading: "path \(number + 1) (\(path.holders.count) step\(path.holders.count == 1 ? "" : "s"))",
                steps: path.holders.map(\.text) + [object.text], closesCycle: false)
        }
        let reach =
            isReachable
            ? "held by \(rootCount) root word\(rootCount == 1 ? "" : "s") and \(holderCount) allocation\(holderCount == 1 ? "" : "s") a root reaches"
            : "no root reaches it: it is leaked"
        return HolderChainSVG(
            title: "What holds \(object.text) (\(object.size) bytes"
                + (retainedBytes.map { "; retains \($0) bytes" } ?? "") + ")",
            subtitle: [target.stoppedHeadline("retainers"), reach],
            chains: chains
        ).document
    }
}

extension RetainerShapes {
    /// The groups as an SVG picture (``HolderChainSVG``): one column per shape, most objects first.
    public var svg: String {
        let total = groups.reduce(0) { $0 + $1.count }
        let chains = groups.map { group in
            HolderChainSVG.Chain(
                heading: "\(group.count) held through this shape" + (group.retainedBytes.map { ", retaining \($0) bytes" } ?? ""),
                steps: group.shape + ["\(type) (e.g. 0x\(String(group.example, radix: 16)))"], closesCycle: false)
        }
        return HolderChainSVG(
            title: "What holds the objects of type \(type)",
            subtitle: [
                target.stoppedHeadline("retainers"),
                "\(total + unreachable) objects: \(total) reached from a root, \(unreachable) not (see `typeinfo leaks`)",
            ],
            chains: chains
        ).document
    }
}

extension LeakReport {
    /// The retain cycles among the unreached allocations as an SVG picture
    /// (``HolderChainSVG``): one column per cycle shape, with the arrow that closes it.
    public var cyclesSVG: String {
        let chains = cycles.map { cycle in
            // The shape names the first holder again at its end; the back arrow draws that.
            HolderChainSVG.Chain(
                heading: "\(cycle.count) cycle\(cycle.count == 1 ? "" : "s") (\(cycle.allocations) allocations in all)",
                steps: Array(cycle.shape.dropLast()), closesCycle: true)
        }
        return HolderChainSVG(
            title: "Retain cycles among allocations no root reaches",
            subtitle: [
                "\(target.name): no root reaches \(totals.leakedAllocations) of \(totals.allocations) allocations (\(totals.leakedBytes) bytes)"
            ],
            chains: chains
        ).document
    }
}
