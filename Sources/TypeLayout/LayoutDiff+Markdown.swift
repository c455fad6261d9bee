extension LayoutDiff {
    /// A Markdown report for a pull-request comment or a CI job summary
    /// (`$GITHUB_STEP_SUMMARY`): a heading, the summary line, one table per changed type,
    /// removed and added types, and accepted (suppressed) changes with their reasons.
    ///
    /// ```
    /// ### Layout check: 1 breaking and 0 compatible changes in 1 of 5 types (...)
    ///
    /// #### struct `Demo.Point`
    ///
    /// | severity | change |
    /// | --- | --- |
    /// | **BREAKING** | size 16 -> 24 |
    /// ```
    ///
    /// - Parameter title: an optional line under the heading, such as `Checking MyApp against layouts.json`.
    /// - Returns: the report, ending in a newline.
    public func markdownReport(title: String? = nil) -> String {
        var out = "### Layout check: \(Self.markdownEscaped(summaryLine))\n\n"
        if let title { out += Self.markdownEscaped(title) + "\n\n" }
        let sections = reportSections
        for (index, group) in sections.byType.enumerated() {
            if index > 0 { out += "\n" }
            out += "#### \(group[0].typeKind.rawValue) \(Self.code(group[0].typeName))\n\n| severity | change |\n| --- | --- |\n"
            for change in group {
                out += "| \(Self.severityCell(change.severity)) | \(Self.markdownEscaped(change.message)) |\n"
            }
        }
        // Sections after the first are set off by a blank line.
        var wroteSection = !sections.byType.isEmpty
        for (heading, group) in [("Removed types", sections.removed), ("Added types", sections.added)] where !group.isEmpty {
            if wroteSection { out += "\n" }
            wroteSection = true
            out += "#### \(heading)\n\n| severity | type | detail |\n| --- | --- | --- |\n"
            for change in group {
                out +=
                    "| \(Self.severityCell(change.severity)) | \(change.typeKind.rawValue) \(Self.code(change.typeName)) | \(Self.markdownEscaped(change.detail ?? "")) |\n"
            }
        }
        if !suppressed.isEmpty {
            if wroteSection { out += "\n" }
            out += "<details><summary>\(suppressed.count) accepted (suppressed) change\(suppressed.count == 1 ? "" : "s")</summary>\n\n"
            out += "| severity | type | change | reason | rule |\n| --- | --- | --- | --- | --- |\n"
            for accepted in suppressed {
                let change = accepted.change
                out += "| \(Self.severityCell(change.severity)) | \(Self.code(change.typeName)) | \(Self.markdownEscaped(change.message))"
                out += " | \(Self.markdownEscaped(accepted.reason)) | \(Self.markdownEscaped(accepted.rule)) |\n"
            }
            out += "\n</details>\n"
        }
        return out
    }

    private static func severityCell(_ severity: LayoutChangeSeverity) -> String {
        severity == .breaking ? "**BREAKING**" : "compatible"
    }

    /// A name in backticks; a backtick inside widens the fence so the span stays one span.
    private static func code(_ text: String) -> String {
        let fence = text.contains("`") ? "``" : "`"
        let padded = text.contains("`") ? " \(text) " : text
        var body = ""
        for character in padded {
            switch character {
            case "|": body += "\\|"
            case "\n", "\r": body += " "
            default: body.append(character)
            }
        }
        return fence + body + fence
    }

    /// Text safe in a table cell: pipes, HTML and Markdown emphasis characters escaped, one line.
    static func markdownEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "|", "\\", "*", "_", "`", "[", "]", "#": out += "\\\(character)"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }
}
