extension ObjectReport {
    /// The object as a table for people, one stored property per line (offset, name, type, value),
    /// then each followed reference's object the same way, indented.
    public func text() -> String {
        var lines: [String] = []
        append(to: &lines, indent: "")
        return lines.joined(separator: "\n") + "\n"
    }

    private func append(to lines: inout [String], indent: String) {
        lines.append(indent + "\(Self.hex(address))  \(type)  size \(size.map(String.init) ?? "?")")
        if let unknownFields { lines.append(indent + "  stored properties: ? (\(unknownFields))") }
        var rows = [["offset", "field", "type", "value"]]
        var followed: [ObjectReport] = []
        for field in fields {
            rows.append([String(field.offset), field.name, field.type ?? "?", field.value.text(followed: &followed)])
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let offset = String(repeating: " ", count: widths[0] - row[0].count) + row[0]
            let name = row[1] + String(repeating: " ", count: widths[1] - row[1].count)
            let type = row[2] + String(repeating: " ", count: widths[2] - row[2].count)
            lines.append(indent + "  " + [offset, name, type, row[3]].joined(separator: "  "))
        }
        for object in followed {
            lines.append("")
            object.append(to: &lines, indent: indent + "    ")
        }
        if unfollowedReferences > 0 {
            lines.append("")
            lines.append(
                indent
                    + "\(unfollowedReferences) more reference\(unfollowedReferences == 1 ? " was" : "s were") not followed: a report shows at most \(Self.objectLimit) objects"
            )
        }
    }
}

extension ObjectValue {
    /// The value as Swift would spell a literal of it: `42`, `"text"`, `.shipped(7)`, `nil`,
    /// `(x: 1, y: 2)`, `[1, 2, …] (count 9)`; a reference is its address and type, and the objects
    /// it leads to (when followed) are collected in `followed`.
    func text(followed: inout [ObjectReport]) -> String {
        switch self {
        case .signed(let value): return String(value)
        case .unsigned(let value): return String(value)
        case .floatingPoint(let value): return "\(value)"
        case .boolean(let value): return value ? "true" : "false"
        case .string(let text, let count):
            let quoted = "\"" + text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\""
            return count.map { quoted + "… (\($0) UTF-8 bytes)" } ?? quoted
        case .enumCase("none", nil): return "nil"
        case .enumCase("some", .enumCase("none", nil)?): return ".some(nil)"
        case .enumCase("some", let payload?): return payload.text(followed: &followed)
        case .enumCase(let name, nil): return "." + name
        case .enumCase(let name, let payload?):
            let inner = payload.text(followed: &followed)
            return "." + name + (inner.hasPrefix("(") ? inner : "(" + inner + ")")
        case .reference(let address, let type, let object):
            if let object { followed.append(object) }
            return ObjectReport.hex(address) + (type.map { " " + $0 } ?? "")
        case .alreadyShown(let address, let type):
            return ObjectReport.hex(address) + (type.map { " " + $0 } ?? "") + " (shown above)"
        case .array(let count, let elements, let storage):
            let shown = elements.map { $0.text(followed: &followed) }
            let more = elements.count < count ? ", …" : ""
            let facts = (elements.count < count ? "count \(count), " : "") + "storage \(ObjectReport.hex(storage))"
            return "[" + shown.joined(separator: ", ") + more + "] (" + facts + ")"
        case .aggregate(let fields):
            let parts = fields.map { field in
                let value = field.value.text(followed: &followed)
                return field.name.isEmpty || field.name.allSatisfy(\.isNumber) ? value : field.name + ": " + value
            }
            return "(" + parts.joined(separator: ", ") + ")"
        case .unknown: return "?"
        }
    }
}
