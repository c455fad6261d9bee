/// What every SVG picture the project draws writes the same way: text escaped for XML, numbers
/// without needless decimals, long lines wrapped at spaces.
enum SVGText {
    /// `text` escaped for an XML attribute or element.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters even when escaped.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20, scalar != "\t", scalar != "\n" {
                    out += "\u{FFFD}"
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }

    /// `value` to one decimal, without it when whole.
    static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Splits a long line at spaces into lines of at most `length` characters (a word longer than
    /// that stays whole on its own line); lines after the first are indented.
    static func wrapped(_ line: String, length: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > length {
                lines.append(current)
                current = "    " + word
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
