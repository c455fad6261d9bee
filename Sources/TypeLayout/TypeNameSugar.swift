/// Rewrites the runtime demangler's spelled-out generic names into the sugar users write:
/// `Swift.Optional<X>` -> `X?`, `Swift.Array<X>` -> `[X]`, `Swift.Dictionary<K, V>` -> `[K: V]`.
///
/// This works on the demangler's printed output, matching angle brackets; it does not
/// interpret the mangling (the runtime's demangler does that). Both the in-process and the
/// on-disk readers spell names through it, so their layouts compare equal.
public enum TypeNameSugar {
    /// Whether `name` holds `Swift.Optional<`, `Swift.Array<` or `Swift.Dictionary<`: a byte
    /// scan, because `String.contains(String)` builds a substring searcher per call (about 25,000
    /// instructions) and every type and field name of a reading passes through here.
    static func mentionsSugarable(_ name: String) -> Bool {
        let patterns: [[UInt8]] = [Array("Swift.Optional<".utf8), Array("Swift.Array<".utf8), Array("Swift.Dictionary<".utf8)]
        let bytes = Array(name.utf8)
        var start = 0
        while start + 12 <= bytes.count {
            if bytes[start] == UInt8(ascii: "S") {
                for pattern in patterns where start + pattern.count <= bytes.count {
                    var index = 0
                    while index < pattern.count && bytes[start + index] == pattern[index] { index += 1 }
                    if index == pattern.count { return true }
                }
            }
            start += 1
        }
        return false
    }

    /// The name with `Optional`, `Array` and `Dictionary` written as `X?`, `[X]` and `[K: V]`.
    ///
    /// - Parameter name: a type name as the runtime's demangler prints it.
    /// - Returns: the same name with sugar.
    public static func apply(_ name: String) -> String {
        guard mentionsSugarable(name) else { return name }
        // Names are ASCII but for a rare identifier; in ASCII without a carriage return (which
        // joins a following line feed into one Character) each byte is one Character, so the
        // bytes are rewritten alike at a fraction of the cost of Characters.
        let bytes = Array(name.utf8)
        if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            ASCIIRewriter.rewrite(bytes, &index, until: nil, depth: 0, into: &output)
            return String(decoding: output, as: UTF8.self)
        }
        return applyByCharacters(name)
    }

    /// ``apply(_:)`` done on Characters, whatever the text (the rewriting ``apply(_:)`` does on
    /// ASCII bytes must agree with it: `TypeNameSugarTests`).
    static func applyByCharacters(_ name: String) -> String {
        let characters = Array(name)
        var output = ""
        var index = 0
        rewrite(characters, &index, until: nil, depth: 0, into: &output)
        return output
    }

    /// Nesting deeper than this is copied without sugar: names can come from untrusted
    /// files, and each level costs a stack frame.
    public static let maximumDepth = 64

    /// The generic types that have sugar, and how each is written.
    enum Sugar {
        case optional, array, dictionary
    }

    private static let sugared: [(prefix: [Character], sugar: Sugar)] = [
        (Array("Swift.Optional<"), .optional), (Array("Swift.Array<"), .array), (Array("Swift.Dictionary<"), .dictionary),
    ]

    /// Copies characters, rewriting sugared generics, until the closing `>` of the current level.
    private static func rewrite(_ text: [Character], _ index: inout Int, until closer: Character?, depth: Int, into output: inout String) {
        if depth > maximumDepth {
            output += String(text[index...])
            index = text.count
            return
        }
        while index < text.count {
            let character = text[index]
            if character == ">", closer == ">" {
                // "->" is an arrow, not a closing bracket.
                if index > 0, text[index - 1] == "-" {
                    output.append(character)
                    index += 1
                    continue
                }
                return
            }
            if let match = sugared.first(where: { matches(text, at: index, $0.prefix) }) {
                // Only at a name boundary: "MySwift.Optional<" is not ours.
                let atBoundary =
                    index == 0
                    || !(text[index - 1].isLetter || text[index - 1].isNumber || text[index - 1] == "_" || text[index - 1] == ".")
                if atBoundary {
                    index += match.prefix.count
                    var inner = ""
                    rewrite(text, &index, until: ">", depth: depth + 1, into: &inner)
                    index += 1  // the closing ">"
                    switch match.sugar {
                    case .optional:
                        let needsParens = inner.contains("->") || inner.hasPrefix("any ") || inner.contains(" & ")
                        output += needsParens ? "(\(inner))?" : "\(inner)?"
                    case .array:
                        output += "[\(inner)]"
                    case .dictionary:
                        output += "[" + dictionaryBody(inner) + "]"
                    }
                    continue
                }
            }
            if character == "<" {
                output.append(character)
                index += 1
                rewrite(text, &index, until: ">", depth: depth + 1, into: &output)
                if index < text.count { output.append(">") }
                index += 1
                continue
            }
            output.append(character)
            index += 1
        }
    }

    private static func matches(_ text: [Character], at index: Int, _ prefix: [Character]) -> Bool {
        guard index + prefix.count <= text.count else { return false }
        for offset in 0..<prefix.count where text[index + offset] != prefix[offset] { return false }
        return true
    }

    /// Turns `K, V` (at nesting depth zero) into `K: V`.
    private static func dictionaryBody(_ inner: String) -> String {
        var depth = 0
        var previous: Character = " "
        let characters = Array(inner)
        for (offset, character) in characters.enumerated() {
            switch character {
            case "<", "(", "[": depth += 1
            case ">" where previous != "-": depth -= 1
            case ")", "]": depth -= 1
            case "," where depth == 0:
                return String(characters[..<offset]) + ":" + String(characters[(offset + 1)...])
            default: break
            }
            previous = character
        }
        return inner
    }
}
