import TypeLayout

/// Corrections to the manglings libswiftRemoteMirror spells for a target's types
/// (`swift_reflection_copyNameForTypeRef`), so that the names typeinfo prints are the runtime's.
///
/// Swift 6.3's library turns an existential metatype (`any P.Type`) into a plain metatype node
/// without a representation (`P_pm`, which demangles as `P.Protocol`), while it spells every true
/// metatype with one (`XMt`, `XMT`). A metatype without representation of an existential is
/// therefore an existential metatype, and is rewritten as one (`P_pXp`).
public enum LibraryManglings {
    /// What an existential's mangling ends with, before the metatype operator: a protocol list
    /// (`_p`, `p` of `Any`), an `AnyObject` or superclass constraint (`Xl`, `Xc`), or a
    /// parameterized protocol (`XP`).
    private static let existentialEnds = ["_p", "yp", "Xl", "Xc", "XP"]

    /// `mangling` with each existential metatype the library spelled as a metatype spelled as
    /// one, and each parameterized existential's requirement it spelled on its constraint type
    /// spelled on `Self` (``correctedRequirements(_:)``). A rewrite is kept only where the
    /// runtime's demangler confirms it changed exactly one `.Protocol` into `.Type` (an `m`
    /// inside an identifier is never taken for an operator).
    ///
    /// - Parameter mangling: a type mangling without `$s`, as the library spells it.
    /// - Returns: the corrected mangling (the same when nothing needed correcting).
    public static func corrected(_ mangling: String) -> String {
        correctedMetatypes(correctedRequirements(mangling))
    }

    private static func correctedMetatypes(_ mangling: String) -> String {
        guard mangling.contains("m") else { return mangling }
        return confirmedRewrites(of: mangling, confirmedBy: isOneProtocolMadeType) { current, index in
            guard index >= 2, current[index] == UInt8(ascii: "m"),
                existentialEnds.contains(String(decoding: current[(index - 2)..<index], as: UTF8.self))
            else { return nil }
            return (index..<(index + 1), Array("Xp".utf8))
        }
    }

    /// `mangling` with each rewrite `proposal` makes at a position (a range of the mangling as it
    /// stands, and what replaces it) kept only where `confirms` accepts the runtime's demangled
    /// names of the mangling before and after it; the scan goes on after each kept rewrite.
    ///
    /// - Parameter mangling: a type mangling without `$s`.
    static func confirmedRewrites(
        of mangling: String, confirmedBy confirms: (_ old: String, _ new: String) -> Bool,
        proposal: (_ current: [UInt8], _ index: Int) -> (range: Range<Int>, replacement: [UInt8])?
    ) -> String {
        var current = Array(mangling.utf8)
        var index = 0
        while index < current.count {
            defer { index += 1 }
            guard let (range, replacement) = proposal(current, index) else { continue }
            var candidate = current
            candidate.replaceSubrange(range, with: replacement)
            guard let oldName = SwiftDemangler.demangle(symbol: "$s" + String(decoding: current, as: UTF8.self) + "D"),
                let newName = SwiftDemangler.demangle(symbol: "$s" + String(decoding: candidate, as: UTF8.self) + "D"),
                confirms(oldName, newName)
            else { continue }
            current = candidate
            index = range.lowerBound + replacement.count - 1
        }
        return String(decoding: current, as: UTF8.self)
    }

    /// Whether `new` is `old` with exactly one `.Protocol` written `.Type` (a composition's
    /// without its parentheses).
    static func isOneProtocolMadeType(_ old: String, _ new: String) -> Bool {
        let old = Array(old.utf8)
        let protocolSuffix = Array(".Protocol".utf8)
        let typeSuffix = Array(".Type".utf8)
        var start = 0
        while start + protocolSuffix.count <= old.count {
            defer { start += 1 }
            guard old[start..<(start + protocolSuffix.count)].elementsEqual(protocolSuffix) else { continue }
            let rewritten = old[..<start] + typeSuffix + old[(start + protocolSuffix.count)...]
            if rewritten.elementsEqual(new.utf8) { return true }
            // A composition's metatype is printed `(P & Q).Protocol`, its existential metatype
            // `P & Q.Type` (the runtime's spelling, without parentheses).
            guard start > 0, old[start - 1] == UInt8(ascii: ")") else { continue }
            var depth = 0
            var open = start - 1
            while open >= 0 {
                if old[open] == UInt8(ascii: ")") { depth += 1 }
                if old[open] == UInt8(ascii: "(") { depth -= 1 }
                if depth == 0 { break }
                open -= 1
            }
            guard open >= 0 else { continue }
            let unparenthesized =
                old[..<open] + old[(open + 1)..<(start - 1)] + typeSuffix + old[(start + protocolSuffix.count)...]
            if unparenthesized.elementsEqual(new.utf8) { return true }
        }
        return false
    }

    /// Whether a demangled name holds a parameterized existential's requirement whose subject is
    /// not `Self` (`any P<X.P.Assoc == X.P.Assoc>`): the library spells the requirement
    /// `P<Assoc == X>` with its subject taken from the stack of types before it, so that it
    /// demangles as neither side it meant. The runtime writes every such requirement on
    /// `Self.` (`any P<Self.P.Assoc == X>`).
    public static func isGarbledConstraint(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let equals = Array(" == ".utf8)
        var index = 0
        while index + equals.count <= bytes.count {
            defer { index += 1 }
            guard bytes[index..<(index + equals.count)].elementsEqual(equals) else { continue }
            // The requirement's subject starts after the nearest `<` or `, ` before it.
            var start = index
            while start > 0, bytes[start - 1] != UInt8(ascii: "<"), bytes[start - 1] != UInt8(ascii: " ") { start -= 1 }
            if !bytes[start...].starts(with: "Self.".utf8) { return true }
        }
        return false
    }

    /// A demangled name without the metatype representations the library adds (`@thin`,
    /// `@thick`): the runtime's own names never carry them.
    public static func withoutRepresentations(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "@")) else { return name }
        var bytes = Array(name.utf8)
        for marker in ["@thin ", "@thick ", "@objc_metatype "].map({ Array($0.utf8) }) {
            var output: [UInt8] = []
            var index = 0
            while index < bytes.count {
                if index + marker.count <= bytes.count, bytes[index..<(index + marker.count)].elementsEqual(marker) {
                    index += marker.count
                } else {
                    output.append(bytes[index])
                    index += 1
                }
            }
            bytes = output
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
