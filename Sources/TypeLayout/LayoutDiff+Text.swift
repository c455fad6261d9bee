extension LayoutChange {
    /// The change in one line, without its severity: `size 16 -> 24`,
    /// `field 'y' renamed to 'yy' (same storage: offset 8, size 8, Swift.Double)`.
    public var message: String {
        let arrow = "\(from ?? .unknown) -> \(to ?? .unknown)"
        let name = member.map { "'\($0)'" } ?? ""
        var text: String
        switch kind {
        case .typeAdded: text = "type added"
        case .typeRemoved: text = "type removed"
        case .kindChanged: text = "kind \(arrow)"
        case .sizeChanged: text = "size \(arrow)"
        case .alignmentChanged: text = "alignment \(arrow)"
        case .strideChanged: text = "stride \(arrow)"
        case .instanceSizeChanged: text = "instance size \(arrow)"
        case .instanceAlignmentChanged: text = "instance alignment \(arrow)"
        case .superclassChanged: text = "superclass \(arrow)"
        case .fieldAdded: text = "field \(name) added: \(to ?? .unknown)"
        case .fieldRemoved: text = "field \(name) removed"
        case .fieldMoved: text = "field \(name) moved: offset \(arrow)"
        case .fieldResized: text = "field \(name) resized: size \(arrow)"
        case .fieldRetyped: text = "field \(name) retyped: \(arrow)"
        case .fieldRenamed: text = "field \(name) renamed to '\(to ?? .unknown)'"
        case .fieldOwnershipChanged: text = "field \(name) ownership \(arrow)"
        case .fieldsReordered: text = "fields reordered: \(arrow)"
        case .caseAdded: text = "case \(name) added" + (to.map { $0 == .unknown ? "" : " with payload \($0)" } ?? "")
        case .caseRemoved: text = "case \(name) removed"
        case .casePayloadChanged: text = "case \(name) payload \(arrow)"
        case .caseIndirectChanged: text = "case \(name) \(arrow)"
        case .casesReordered: text = "cases reordered: \(arrow)"
        }
        if let detail { text += " (\(detail))" }
        return text
    }
}

extension LayoutDiff {
    /// The summary line: `3 breaking and 1 compatible change in 2 of 40 types (1 added, 0 removed)`.
    public var summaryLine: String {
        let summary = self.summary
        let accepted = suppressed.isEmpty ? "" : " \(suppressed.count) accepted change\(suppressed.count == 1 ? "" : "s") suppressed."
        if summary.total == 0 {
            let types = "\(summary.typesCompared) type\(summary.typesCompared == 1 ? "" : "s")"
            return suppressed.isEmpty
                ? "No layout changes in \(types)."
                : "No layout changes in \(types) besides \(suppressed.count) accepted (suppressed) change\(suppressed.count == 1 ? "" : "s")."
        }
        let touched = summary.typesChanged + summary.typesAdded + summary.typesRemoved
        return "\(summary.breaking) breaking and \(summary.compatible) compatible change\(summary.total == 1 ? "" : "s")"
            + " in \(touched) of \(summary.typesCompared) types"
            + " (\(summary.typesChanged) changed, \(summary.typesAdded) added, \(summary.typesRemoved) removed)." + accepted
    }

    /// A report for people: a title, then one block per changed type (its changes indented,
    /// `BREAKING` or `compatible` in a fixed-width column so `grep BREAKING` works), added and
    /// removed types, and the summary line.
    ///
    /// ```
    /// struct Demo.Point
    ///   BREAKING    size 16 -> 24
    ///   BREAKING    field 'x' moved: offset 0 -> 8
    ///   compatible  field 'y' renamed to 'yy' (same storage: offset 8, size 8, Swift.Double)
    ///
    /// Added types:
    ///   compatible  struct Demo.New (size 8, 1 field)
    ///
    /// 2 breaking and 2 compatible changes in 2 of 5 types (1 changed, 1 added, 0 removed).
    /// ```
    ///
    /// - Parameter title: an optional first line, such as `Comparing layouts.json -> MyApp`.
    /// - Returns: the report, ending in a newline.
    public func textReport(title: String? = nil) -> String {
        var out = ""
        if let title { out += title + "\n\n" }
        let sections = reportSections
        for (index, group) in sections.byType.enumerated() {
            if index > 0 { out += "\n" }
            out += LayoutHoles.title(group[0].typeKind, group[0].typeName) + "\n"
            for change in group {
                out += "  \(Self.severityColumn(change.severity))\(change.message)\n"
            }
        }
        for (heading, group) in [("Removed types:", sections.removed), ("Added types:", sections.added)] where !group.isEmpty {
            if !out.isEmpty, !out.hasSuffix("\n\n") { out += "\n" }
            out += heading + "\n"
            for change in group {
                let detail = change.detail.map { " (\($0))" } ?? ""
                out += "  \(Self.severityColumn(change.severity))\(LayoutHoles.title(change.typeKind, change.typeName))\(detail)\n"
            }
        }
        if !suppressed.isEmpty {
            if !out.isEmpty, !out.hasSuffix("\n\n") { out += "\n" }
            out += "Suppressed (accepted) changes:\n"
            for accepted in suppressed {
                let change = accepted.change
                out +=
                    "  \(Self.severityColumn(change.severity))\(LayoutHoles.title(change.typeKind, change.typeName)): \(change.message)\n"
                out += "              accepted by \(accepted.rule): \(accepted.reason)\n"
            }
        }
        if !out.isEmpty, !out.hasSuffix("\n\n") { out += "\n" }
        out += summaryLine + "\n"
        return out
    }

    /// The changes as both reports list them: the changes to each type, grouped in order (each
    /// group non-empty, one type), then the removed and the added types.
    var reportSections: (byType: [[LayoutChange]], removed: [LayoutChange], added: [LayoutChange]) {
        var byType: [[LayoutChange]] = []
        var removed: [LayoutChange] = []
        var added: [LayoutChange] = []
        for change in changes {
            switch change.kind {
            case .typeAdded: added.append(change)
            case .typeRemoved: removed.append(change)
            default:
                if let last = byType.indices.last, byType[last][0].typeName == change.typeName {
                    byType[last].append(change)
                } else {
                    byType.append([change])
                }
            }
        }
        return (byType, removed, added)
    }

    static func severityColumn(_ severity: LayoutChangeSeverity) -> String {
        switch severity {
        case .breaking: return "BREAKING    "
        case .compatible: return "compatible  "
        }
    }
}
