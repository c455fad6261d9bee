extension TypeNameSugar {
    /// ``TypeNameSugar/apply(_:)``'s rewriting on ASCII bytes, step for step as on Characters:
    /// every type and field name of a reading passes through it, and a `Character` costs tens of
    /// instructions where a byte costs one.
    enum ASCIIRewriter {
        private static let sugared: [(prefix: [UInt8], sugar: Sugar)] = [
            (Array("Swift.Optional<".utf8), .optional), (Array("Swift.Array<".utf8), .array),
            (Array("Swift.Dictionary<".utf8), .dictionary),
        ]
        private static let open = UInt8(ascii: "<")
        private static let close = UInt8(ascii: ">")
        private static let minus = UInt8(ascii: "-")

        /// Copies bytes, rewriting sugared generics, until the closing `>` of the current level.
        static func rewrite(_ text: [UInt8], _ index: inout Int, until closer: UInt8?, depth: Int, into output: inout [UInt8]) {
            if depth > maximumDepth {
                output += text[index...]
                index = text.count
                return
            }
            while index < text.count {
                let byte = text[index]
                if byte == close, closer == close {
                    // "->" is an arrow, not a closing bracket.
                    if index > 0, text[index - 1] == minus {
                        output.append(byte)
                        index += 1
                        continue
                    }
                    return
                }
                if byte == UInt8(ascii: "S"), let match = sugared.first(where: { matches(text, at: index, $0.prefix) }) {
                    // Only at a name boundary: "MySwift.Optional<" is not ours.
                    if index == 0 || !isNamePart(text[index - 1]) {
                        index += match.prefix.count
                        var inner: [UInt8] = []
                        rewrite(text, &index, until: close, depth: depth + 1, into: &inner)
                        index += 1  // the closing ">"
                        switch match.sugar {
                        case .optional:
                            let needsParens =
                                contains(inner, Array("->".utf8)) || inner.starts(with: "any ".utf8) || contains(inner, Array(" & ".utf8))
                            if needsParens { output.append(UInt8(ascii: "(")) }
                            output += inner
                            if needsParens { output.append(UInt8(ascii: ")")) }
                            output.append(UInt8(ascii: "?"))
                        case .array:
                            output.append(UInt8(ascii: "["))
                            output += inner
                            output.append(UInt8(ascii: "]"))
                        case .dictionary:
                            output.append(UInt8(ascii: "["))
                            output += dictionaryBody(inner)
                            output.append(UInt8(ascii: "]"))
                        }
                        continue
                    }
                }
                if byte == open {
                    output.append(byte)
                    index += 1
                    rewrite(text, &index, until: close, depth: depth + 1, into: &output)
                    if index < text.count { output.append(close) }
                    index += 1
                    continue
                }
                output.append(byte)
                index += 1
            }
        }

        /// A letter, digit, `_` or `.`: what `Character.isLetter`, `isNumber` and the two
        /// punctuation marks accept among ASCII characters.
        private static func isNamePart(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }

        private static func matches(_ text: [UInt8], at index: Int, _ prefix: [UInt8]) -> Bool {
            guard index + prefix.count <= text.count else { return false }
            for offset in 0..<prefix.count where text[index + offset] != prefix[offset] { return false }
            return true
        }

        private static func contains(_ text: [UInt8], _ pattern: [UInt8]) -> Bool {
            guard text.count >= pattern.count else { return false }
            for start in 0...(text.count - pattern.count) where matches(text, at: start, pattern) { return true }
            return false
        }

        /// Turns `K, V` (at nesting depth zero) into `K: V`.
        private static func dictionaryBody(_ inner: [UInt8]) -> [UInt8] {
            var depth = 0
            var previous = UInt8(ascii: " ")
            for (offset, byte) in inner.enumerated() {
                switch byte {
                case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: ">") where previous != minus: depth -= 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    return Array(inner[..<offset]) + [UInt8(ascii: ":")] + Array(inner[(offset + 1)...])
                default: break
                }
                previous = byte
            }
            return inner
        }
    }
}
