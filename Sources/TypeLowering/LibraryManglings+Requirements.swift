import TypeLayout

extension LibraryManglings {
    /// `mangling` with each parameterized existential's requirement that the library spelled on
    /// its constraint type (`any P<X.P.Assoc == X.P.Assoc>`) spelled on `Self` as the compiler
    /// and the runtime spell it (`any P<Self.P.Assoc == X>`).
    ///
    /// Swift 6.3's library writes the requirement `Self.Assoc == X` as `X Assoc Qx <substitution> RS`:
    /// `Self` spelled as nothing, so `Qx` takes `X`, the type before it, as the subject's base. The
    /// compiler writes `X Assoc Rts`: a same-type requirement on the associated type of `Self`
    /// (`s`). A rewrite is kept only where the runtime's demangler confirms that it turned exactly
    /// one `X.P.Assoc == X.P.Assoc` into `Self.P.Assoc == X` and changed nothing else.
    ///
    /// - Parameter mangling: a type mangling without `$s`.
    /// - Returns: the corrected mangling (the same when nothing needed correcting).
    ///
    /// A requirement it spells on the first generic parameter (`Rtz`: `A.P.Assoc == X`), whose
    /// subject in an existential's signature is its `Self`, is spelled `Rts` where `X` is a
    /// concrete type and the demangler confirms that only `A.` became `Self.`; one whose `X` is a
    /// generic parameter is left for ``correctedRequirements(_:arguments:)``.
    public static func correctedRequirements(_ mangling: String) -> String {
        var current = mangling
        if current.contains("RS") {
            current = confirmedRewrites(of: current, confirmedBy: isOneRequirementMadeSelf) { current, index in
                guard index + 2 <= current.count, current[index] == UInt8(ascii: "Q"), current[index + 1] == UInt8(ascii: "x"),
                    let end = substitutionEnd(in: current, from: index + 2), end + 2 <= current.count,
                    current[end] == UInt8(ascii: "R"), current[end + 1] == UInt8(ascii: "S")
                else { return nil }
                return (index..<(end + 2), Array("Rts".utf8))
            }
        }
        guard current.contains("Rtz") else { return current }
        return confirmedRewrites(of: current, confirmedBy: isOneConcreteRequirementMadeSelf) { current, index in
            guard index + 3 <= current.count, current[index] == UInt8(ascii: "R"), current[index + 1] == UInt8(ascii: "t"),
                current[index + 2] == UInt8(ascii: "z")
            else { return nil }
            return (index..<(index + 3), Array("Rts".utf8))
        }
    }

    /// Whether `new` is `old` with exactly one requirement `A.M == X`, `X` no generic parameter
    /// (`A`, `B1`), written `Self.M == X`.
    static func isOneConcreteRequirementMadeSelf(_ old: String, _ new: String) -> Bool {
        let text = Array(old.utf8)
        let subject = Array("A.".utf8)
        let equals = Array(" == ".utf8)
        var start = 1
        while start + subject.count <= text.count {
            defer { start += 1 }
            guard text[start..<(start + subject.count)].elementsEqual(subject),
                text[start - 1] == UInt8(ascii: "<") || text[start - 1] == UInt8(ascii: " "),
                let equalsAt = firstIndex(of: equals, in: text, from: start)
            else { continue }
            // The constraint type, to the `>` or `,` that closes it, must not be a bare parameter.
            let typeStart = equalsAt + equals.count
            let typeEnd = constraintTypeEnd(in: text, from: typeStart)
            let type = text[typeStart..<typeEnd]
            let isParameter =
                type.first.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } == true
                && type.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !type.isEmpty, !isParameter else { continue }
            let rewritten = text[..<start] + Array("Self.".utf8) + text[(start + subject.count)...]
            if rewritten.elementsEqual(new.utf8) { return true }
        }
        return false
    }

    /// Where the constraint type starting at `start` ends: at the `>`, `)`, `]` or `,` that
    /// closes it, outside any brackets it opens (the text's end when none does).
    private static func constraintTypeEnd(in text: [UInt8], from start: Int) -> Int {
        var depth = 0
        var end = start
        while end < text.count {
            switch text[end] {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                if depth == 0 { return end }
                depth -= 1
            case UInt8(ascii: ","): if depth == 0 { return end }
            default: break
            }
            end += 1
        }
        return end
    }

    /// Where the substitution operator starting at `start` ends (`AG`, `AaB`, `A12_`), or nil
    /// when there is none there.
    private static func substitutionEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "A") else { return nil }
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return index + 1
            case UInt8(ascii: "_"): return index + 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): index += 1
            default: return nil
            }
        }
        return nil
    }

    /// Whether `new` is `old` with exactly one requirement `X.P.A == X.P.A` written
    /// `Self.P.A == X`.
    static func isOneRequirementMadeSelf(_ old: String, _ new: String) -> Bool {
        let text = Array(new.utf8)
        let selfPrefix = Array("Self.".utf8)
        let equals = Array(" == ".utf8)
        var start = 0
        while start + selfPrefix.count <= text.count {
            defer { start += 1 }
            guard text[start..<(start + selfPrefix.count)].elementsEqual(selfPrefix), start > 0,
                text[start - 1] == UInt8(ascii: "<") || text[start - 1] == UInt8(ascii: " ")
            else { continue }
            // The subject runs to ` == `; the constraint type to the `>` or `, ` that closes it.
            guard let equalsAt = firstIndex(of: equals, in: text, from: start) else { continue }
            let member = text[(start + selfPrefix.count)..<equalsAt]
            let typeStart = equalsAt + equals.count
            let typeEnd = constraintTypeEnd(in: text, from: typeStart)
            let type = text[typeStart..<typeEnd]
            guard !type.isEmpty else { continue }
            let garbled = Array(type) + [UInt8(ascii: ".")] + Array(member) + equals + Array(type) + [UInt8(ascii: ".")] + Array(member)
            let rewritten = text[..<start] + garbled + text[typeEnd...]
            if rewritten.elementsEqual(old.utf8) { return true }
        }
        return false
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Why a mangling the library spelled has no name (``TargetInspector/typeName(libraryMangling:)``
    /// gives none), for a reader to print beside `?`.
    ///
    /// - Parameter mangling: the library's mangling, without `$s`, as ``corrected(_:)`` left it.
    public static func whyUnnamed(_ mangling: String) -> String {
        guard let name = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else {
            return "the runtime's demangler cannot spell the reflection library's mangling $s\(mangling)"
        }
        if isGarbledConstraint(name) {
            return "the reflection library spells a parameterized existential's requirement wrongly here (\(name)), "
                + "and its true requirement is not known"
        }
        return "the reflection library's mangling $s\(mangling) names no type the runtime would"
    }
}
