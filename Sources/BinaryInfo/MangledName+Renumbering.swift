import TypeLayout

/// A textual mangling for a name whose symbolic references, spelled out, shift its back-references.
///
/// A resolved symbolic reference is one entry of the demangler's substitution table; its spelled
/// form (`s5UInt8V`) is as many entries as the demangler adds for it. Every back-reference to that
/// entry or a later one (`A15A`, "the first entry, 15 more times") must then count the extra
/// entries (`A15B`). How many entries a spelled reference adds is asked of the runtime's
/// `swift_demangle` (``spelledCost(_:)``); where the back-references are and which entry the
/// reference was are not parsed: every renumbering of the `A…` operators after the first reference
/// is tried, and one is kept only when `swift_demangle` prints exactly the name already printed
/// for the field (the same check every shown mangling passes). None kept: the mangling stays unknown.
extension SwiftImage {
    /// How many renumberings are tried for one name, at most.
    static let maximumRenumberings = 512

    /// A mangling that demangles to exactly `printed`, from `name`'s spelled text with its
    /// back-references renumbered; nil when none does. A protocol reference is spelled with its
    /// `P`, and only where no back-reference follows it.
    func renumberedMangling(of name: MangledName, printed: String) -> String? {
        var references: [(position: Int, extra: Int)] = []
        var protocols: [Int] = []
        var text = ""
        for piece in name.pieces {
            switch piece {
            case .literal(let literal):
                text += literal
            case .type(let spelled), .genericBase(let spelled, _):
                guard let cost = spelledCost(spelled) else { return nil }
                if cost > 1 { references.append((text.utf8.count, cost - 1)) }
                text += spelled
            case .protocol(let spelled):
                // A protocol reference stands for the protocol itself: spelled, it takes its `P`.
                protocols.append(text.utf8.count)
                text += spelled + "P"
            }
        }
        let bytes = Array(text.utf8)
        let start = min(references.first?.position ?? bytes.count, protocols.first ?? bytes.count)
        let operators = Self.substitutionOperators(in: bytes, from: start + 1)
        // No back-reference after a reference: the spelled text is the mangling, if it demangles so.
        guard !operators.isEmpty else { return demangledTypeName(text) == printed ? text : nil }
        // What a spelled protocol costs is not asked of the demangler: no back-reference may follow it.
        if let protocolPosition = protocols.first, operators.contains(where: { $0.position > protocolPosition }) { return nil }
        guard !references.isEmpty else { return nil }
        let largest = operators.flatMap { $0.indices.map(\.value) }.max() ?? 0
        // The table entry each reference was: unknown, so every threshold up to the largest index
        // a back-reference uses is tried, per reference, in order.
        var thresholds: [[Int]] = [[]]
        for _ in references {
            thresholds = thresholds.flatMap { chosen in
                ((chosen.last ?? 0)...(largest + 1)).map { chosen + [$0] }
            }
            guard thresholds.count <= Self.maximumRenumberings else { return nil }
        }
        for chosen in thresholds {
            var candidate = bytes
            var valid = true
            // From the end, so earlier operators keep their positions.
            for occurrence in operators.reversed() {
                for index in occurrence.indices.reversed() {
                    var value = index.value
                    for (reference, threshold) in zip(references, chosen) where index.value >= threshold {
                        value += reference.extra
                    }
                    guard value < 26 else {
                        valid = false
                        break
                    }
                    let base = index.isLast ? UInt8(ascii: "A") : UInt8(ascii: "a")
                    candidate[index.position] = base + UInt8(value)
                }
            }
            let spelled = String(decoding: candidate, as: UTF8.self)
            if valid, spelled != text, demangledTypeName(spelled) == printed { return spelled }
        }
        return nil
    }

    /// The number of substitution-table entries `swift_demangle` adds for a spelled nominal type:
    /// one more than the index at which a back-reference names that type (`$s<spelled>_A<i>tD`
    /// demangles to the pair of it).
    func spelledCost(_ spelled: String) -> Int? {
        if let known = spelledCosts[spelled] { return known }
        var cost: Int?
        if let type = SwiftDemangler.demangle(symbol: "$s" + spelled + "D") {
            for index in 0..<26 {
                let letter = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index)))
                if SwiftDemangler.demangle(symbol: "$s" + spelled + "_A" + letter + "tD") == "(\(type), \(type))" {
                    cost = index + 1
                    break
                }
            }
        }
        spelledCosts[spelled] = .some(cost)
        return cost
    }

    /// One index of a back-reference operator: where its letter is, the entry it names, and
    /// whether it ends the operator (upper case) or another index follows (lower case).
    struct SubstitutionIndex {
        var position: Int
        var value: Int
        var isLast: Bool
    }

    /// The `A` operators with letter indices (`A` [count] [a-z]… [A-Z]) from `start` on, left to
    /// right without overlap: every byte sequence of that shape, whether or not it is an operator
    /// (an identifier can hold one); the demangler's check of each candidate tells them apart.
    static func substitutionOperators(in bytes: [UInt8], from start: Int) -> [(position: Int, indices: [SubstitutionIndex])] {
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
