/// Back-references of a mangling renumbered after text was spelled into it.
///
/// A mangling's back-references (`AA`, `AaB`, `A15C`) name entries of the demangler's
/// substitution table by their order. Text spelled into a mangling in place of something else
/// (a resolved symbolic reference, a generic argument in place of its parameter) adds its own
/// entries, so every later back-reference to that entry or a later one must count them. Where the
/// back-references are and which entry the replaced part was are not parsed: every renumbering of
/// the `A…` operators after the first insertion is tried, and one is kept only where the runtime's
/// demangler prints what the caller expects.
public enum ManglingRenumbering {
    /// How many renumberings are tried for one mangling, at most.
    public static let maximumRenumberings = 512

    /// The number of substitution-table entries the demangler adds for the type `mangling`
    /// (without `$s`): one more than the index at which a back-reference names that type
    /// (`$s<mangling>_A<i>tD` demangles to the pair of it); nil when none does.
    public static func substitutionCost(of mangling: String) -> Int? {
        guard let type = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else { return nil }
        for index in 0..<26 {
            let letter = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index)))
            if SwiftDemangler.demangle(symbol: "$s" + mangling + "_A" + letter + "tD") == "(\(type), \(type))" { return index + 1 }
        }
        return nil
    }

    /// `text` with its back-references after `start` renumbered for `insertions` (where each
    /// spelled part is, and how many more entries it adds than what it replaced), in the first
    /// renumbering `accepts` takes (given the runtime's demangled name of the mangling without
    /// `$s`); nil when none is taken or too many would be tried.
    public static func renumbered(
        _ text: String, insertions: [(position: Int, extra: Int)], from start: Int, accepts: (String) -> Bool
    ) -> String? {
        let bytes = Array(text.utf8)
        let operators = substitutionOperators(in: bytes, from: start)
        guard !operators.isEmpty, !insertions.isEmpty else { return nil }
        let largest = operators.flatMap { $0.indices.map(\.value) }.max() ?? 0
        // The table entry each insertion took the place of: unknown, so every threshold up to the
        // largest index a back-reference uses is tried, per insertion, in order.
        var thresholds: [[Int]] = [[]]
        for _ in insertions {
            thresholds = thresholds.flatMap { chosen in
                ((chosen.last ?? 0)...(largest + 1)).map { chosen + [$0] }
            }
            guard thresholds.count <= maximumRenumberings else { return nil }
        }
        for chosen in thresholds {
            var candidate = bytes
            var valid = true
            // From the end, so earlier operators keep their positions.
            for occurrence in operators.reversed() {
                for index in occurrence.indices.reversed() {
                    var value = index.value
                    for (insertion, threshold) in zip(insertions, chosen) where index.value >= threshold {
                        value += insertion.extra
                    }
                    guard value >= 0, value < 26 else {
                        valid = false
                        break
                    }
                    let base = index.isLast ? UInt8(ascii: "A") : UInt8(ascii: "a")
                    candidate[index.position] = base + UInt8(value)
                }
            }
            let spelled = String(decoding: candidate, as: UTF8.self)
            if valid, spelled != text, let name = SwiftDemangler.demangle(symbol: "$s" + spelled + "D"), accepts(name) { return spelled }
        }
        return nil
    }

    /// One index of a back-reference operator: where its letter is, the entry it names, and
    /// whether it ends the operator (upper case) or another index follows (lower case).
    public struct SubstitutionIndex: Sendable {
        public var position: Int
        public var value: Int
        public var isLast: Bool
    }

    /// The `A` operators with letter indices (`A` [count] [a-z]… [A-Z]) from `start` on, left to
    /// right without overlap: every byte sequence of that shape, whether or not it is an operator
    /// (an identifier can hold one); the demangler's check of each candidate tells them apart.
    public static func substitutionOperators(in bytes: [UInt8], from start: Int) -> [(position: Int, indices: [SubstitutionIndex])] {
        var found: [(Int, [SubstitutionIndex])] = []
        var cursor = start
        while cursor < bytes.count {
            guard bytes[cursor] == UInt8(ascii: "A") else {
                cursor += 1
                continue
            }
            var indices: [SubstitutionIndex] = []
            var next = cursor + 1
            var complete = false
            while next < bytes.count {
                while next < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[next]) { next += 1 }
                guard next < bytes.count else { break }
                let letter = bytes[next]
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter) {
                    indices.append(SubstitutionIndex(position: next, value: Int(letter - UInt8(ascii: "a")), isLast: false))
                    next += 1
                } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter) {
                    indices.append(SubstitutionIndex(position: next, value: Int(letter - UInt8(ascii: "A")), isLast: true))
                    next += 1
                    complete = true
                    break
                } else {
                    break
                }
            }
            if complete {
                found.append((cursor, indices))
                cursor = next
            } else {
                cursor += 1
            }
        }
        return found
    }
}
