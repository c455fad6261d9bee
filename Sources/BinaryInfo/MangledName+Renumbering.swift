import TypeLayout

/// A textual mangling for a name whose symbolic references, spelled out, shift its back-references.
///
/// A resolved symbolic reference is one entry of the demangler's substitution table; its spelled
/// form (`s5UInt8V`) is as many entries as the demangler adds for it. Every back-reference to that
/// entry or a later one (`A15A`, "the first entry, 15 more times") must then count the extra
/// entries (`A15B`). How many entries a spelled reference adds is asked of the runtime's
/// `swift_demangle` (``spelledCost(_:)``); where the back-references are and which entry the
/// reference was are not parsed: every renumbering of the `A…` operators after the first reference
/// is tried (``ManglingRenumbering``), and one is kept only when `swift_demangle` prints exactly
/// the name already printed for the field (the same check every shown mangling passes). None
/// kept: the mangling stays unknown.
extension SwiftImage {
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
        let operators = ManglingRenumbering.substitutionOperators(in: bytes, from: start + 1)
        // No back-reference after a reference: the spelled text is the mangling, if it demangles so.
        guard !operators.isEmpty else { return demangledTypeName(text) == printed ? text : nil }
        // What a spelled protocol costs is not asked of the demangler: no back-reference may follow it.
        if let protocolPosition = protocols.first, operators.contains(where: { $0.position > protocolPosition }) { return nil }
        return ManglingRenumbering.renumbered(text, insertions: references, from: start + 1) { TypeNameSugar.apply($0) == printed }
    }

    /// The number of substitution-table entries `swift_demangle` adds for a spelled nominal type:
    /// one more than the index at which a back-reference names that type (`$s<spelled>_A<i>tD`
    /// demangles to the pair of it).
    func spelledCost(_ spelled: String) -> Int? {
        if let known = spelledCosts[spelled] { return known }
        let cost = ManglingRenumbering.substitutionCost(of: spelled)
        spelledCosts[spelled] = .some(cost)
        return cost
    }
}
