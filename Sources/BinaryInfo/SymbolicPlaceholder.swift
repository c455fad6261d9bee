import TypeLayout

/// Stand-ins for the symbolic references in a mangled name, so that the runtime's
/// `swift_demangle` (which has no resolver for them) prints the name exactly.
///
/// A resolved context reference adds exactly one entry to the demangler's substitution table
/// and no word to its word table (Demangler.cpp, `demangleSymbolicReference`); every later
/// back-reference (`AA`, `0B3Low`) counts on that. A stand-in must cost the same: one entry, no
/// word. `So <standard type> L<letter> V` does: the module `So` and a standard type (`Si`) are
/// no entries, `L<letter>` turns the popped type into a related-entity name (no identifier, so
/// no entry and no word), and only the nominal operator (`V`, `C`, `O`, `a`, or `P` for a
/// protocol) adds one. The demangler prints it as `__C.related decl 'a' for Swift.Int`, a text
/// no real name contains, which is then replaced by the referenced entity's own name.
///
/// A reference that is the base of a bound generic type (`<ref> y A _ B G`) needs as many nominal
/// levels as it has argument lists. Two levels nest the stand-in in a standard type (`Sd Si La V`,
/// printed `Swift.Double<A>.related decl 'a' for Swift.Int<B>`), still one entry. More levels put
/// functions in between (`Si La yy F`: a context that costs no entry, whose argument list the
/// printer drops), which is exact when those middle levels declare no generic parameters of
/// their own (their lists are empty). Otherwise each extra level costs an entry, which is exact
/// only when no back-reference points past the reference: such a name is demangled twice, the
/// second time with one more entry per chain, and printed only when both agree. Each printed
/// part is replaced by the real name's component; a stand-in left where no replacement reached
/// it makes the name unknown.
enum SymbolicPlaceholder {
    /// Standard types the stand-in names are built from: not generic, and no printed name a
    /// prefix of another, so each stand-in's printed form is distinct.
    private static let payloads: [(mangling: String, printed: String)] = [
        ("Si", "Swift.Int"), ("Su", "Swift.UInt"), ("Sd", "Swift.Double"), ("Sf", "Swift.Float"),
        ("Sb", "Swift.Bool"), ("SS", "Swift.String"), ("Sv", "Swift.UnsafeMutableRawPointer"),
        ("SV", "Swift.UnsafeRawPointer"),
    ]
    /// The related-entity kinds the demangler accepts after `L` (Demangler.cpp, `demangleLocalIdentifier`).
    private static let letters = Array("abcdefghijABCDEFGHIJ")
    /// Printed prefix of every stand-in name; the check that none survives looks for it.
    private static let marker = "related decl '"
    /// The deepest generic base a name may have (levels of nesting with argument lists).
    static let maximumLevels = 8

    /// Stand-in name number `index` (0 ..< 160): the mangling of the name part and its printed form.
    static func name(_ index: Int) -> (mangling: String, printed: String)? {
        guard index >= 0, index < payloads.count * letters.count else { return nil }
        let payload = payloads[index / letters.count]
        let letter = letters[index % letters.count]
        return (payload.mangling + "L" + String(letter), marker + String(letter) + "' for " + payload.printed)
    }

    /// The exact printed name of `name`, or nil when it cannot be printed exactly.
    ///
    /// - Parameters:
    ///   - typeName: the demangler's unsugared name of a spelled nominal type mangling.
    ///   - protocolName: the name of a spelled protocol context mangling.
    static func print(
        _ name: MangledName,
        typeName: (String) -> String?,
        protocolName: (String) -> String
    ) -> String? {
        // Another image's generic base has an unknown depth: tried from one level up; the demangler
        // rejects a base with fewer levels than argument lists.
        let hasUnknown = name.pieces.contains { if case .genericBase(_, levels: nil) = $0 { true } else { false } }
        for unknownLevels in 1...(hasUnknown ? 4 : 1) {
            guard let exact = print(name, unknownLevels: unknownLevels, extraCost: false, typeName: typeName, protocolName: protocolName)
            else {
                continue
            }
            guard exact.costsMore else { return exact.printed }
            let check = print(name, unknownLevels: unknownLevels, extraCost: true, typeName: typeName, protocolName: protocolName)
            return check?.printed == exact.printed ? exact.printed : nil
        }
        return nil
    }

    /// One demangling with stand-ins; `costsMore` says a deep generic base cost more than its reference.
    private static func print(
        _ name: MangledName, unknownLevels: Int, extraCost: Bool,
        typeName: (String) -> String?,
        protocolName: (String) -> String
    ) -> (printed: String, costsMore: Bool)? {
        var mangling = ""
        var whole: [(standIn: String, real: String)] = []
        var chains: [Chain] = []
        var functionChains: [FunctionChain] = []
        var costsMore = false
        var index = 0
        func next() -> (mangling: String, printed: String)? {
            defer { index += 1 }
            return Self.name(index)
        }
        for piece in name.pieces {
            switch piece {
            case .literal(let bytes):
                mangling += bytes
            case .protocol(let spelled):
                guard let standIn = next() else { return nil }
                mangling += "So" + standIn.mangling + "P"
                whole.append(("__C." + standIn.printed, protocolName(spelled)))
            case .type(let spelled):
                guard let standIn = next(), let kind = nominalOperator(spelled), let real = typeName(spelled) else { return nil }
                mangling += "So" + standIn.mangling + kind
                whole.append(("__C." + standIn.printed, real))
            case .genericBase(let spelled, let known):
                let levels = known?.count ?? unknownLevels
                guard let kind = nominalOperator(spelled), let real = typeName(spelled), levels >= 1, levels <= maximumLevels else {
                    return nil
                }
                if levels == 1 {
                    guard let standIn = next() else { return nil }
                    mangling += "So" + standIn.mangling + kind
                    whole.append(("__C." + standIn.printed, real))
                    continue
                }
                guard let components = splitComponents(real, count: levels) else { return nil }
                if levels > 2, known?.middleLevelsHaveParameters == false {
                    // Outer standard type, functions for the middle levels, the nominal innermost.
                    var chain = FunctionChain(components: components)
                    mangling += "Sd"
                    for _ in 1..<(levels - 1) {
                        guard let standIn = next() else { return nil }
                        mangling += standIn.mangling + "yyF"
                        chain.functions.append(standIn.printed)
                    }
                    guard let standIn = next() else { return nil }
                    mangling += standIn.mangling + kind
                    chain.innermost = standIn.printed
                    functionChains.append(chain)
                    continue
                }
                // The outermost level: a standard type (no entry), or for the check a stand-in (one entry).
                var outer = (mangling: "Sd", printed: "Swift.Double")
                if levels > 2 {
                    costsMore = true
                    if extraCost {
                        guard let standIn = next() else { return nil }
                        outer = ("So" + standIn.mangling + "V", "__C." + standIn.printed)
                    }
                }
                var chain = Chain(outer: outer.printed, components: components)
                mangling += outer.mangling
                for level in 1..<levels {
                    guard let standIn = next() else { return nil }
                    mangling += standIn.mangling + (level == levels - 1 ? kind : "V")
                    chain.markers.append("." + standIn.printed)
                }
                chains.append(chain)
            }
        }
        guard var printed = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else { return nil }
        for chain in chains {
            guard let replaced = chain.replace(in: printed) else { return nil }
            printed = replaced
        }
        for chain in functionChains {
            guard let replaced = chain.replace(in: printed) else { return nil }
            printed = replaced
        }
        for (standIn, real) in whole {
            printed = printed.replacingAll(standIn, with: real)
        }
        // A stand-in printed where no replacement reached it would be a false name.
        guard !printed.containsBytes(of: marker) else { return nil }
        return (TypeNameSugar.apply(printed), costsMore)
    }

    /// The nominal operator a spelled type mangling ends with.
    private static func nominalOperator(_ spelled: String) -> String? {
        guard let last = spelled.last, "VCOa".contains(last) else { return nil }
        return String(last)
    }

    /// `Mod.Outer.Inner` split into its last `count - 1` components and the rest, at `.`s outside
    /// brackets (`Mod.(Inner in _ABC)` keeps its discriminator, `(extension in M):Mod.Outer` its prefix).
    static func splitComponents(_ name: String, count: Int) -> [String]? {
        var components: [String] = []
        var rest = Substring(name)
        while components.count < count - 1 {
            var depth = 0
            var index = rest.endIndex
            var found: String.Index?
            while index > rest.startIndex, found == nil {
                index = rest.index(before: index)
                switch rest[index] {
                case ")", ">", "]": depth += 1
                case "(", "<", "[": depth -= 1
                case "." where depth == 0: found = index
                default: break
                }
            }
            guard let found else { return nil }
            components.insert(String(rest[rest.index(after: found)...]), at: 0)
            rest = rest[..<found]
        }
        return [String(rest)] + components
    }

    /// A generic base of three or more levels whose middle levels are functions, printed
    /// `<innermost> in <function n> () -> () in … in Swift.Double<args>.<function 1>() -> ()<args>`.
    private struct FunctionChain {
        /// The real name's components: the outermost (with its module) first.
        let components: [String]
        /// Printed function stand-ins, outermost first.
        var functions: [String] = []
        var innermost = ""

        func replace(in text: String) -> String? {
            let start = innermost + " in "
            var output = ""
            var rest = Substring(text)
            while let range = rest.firstRange(of: start) {
                output += rest[..<range.lowerBound]
                var cursor = rest[range.upperBound...]
                for function in functions.dropFirst().reversed() {
                    let expected = function + "() -> () in "
                    guard cursor.hasPrefix(expected) else { return nil }
                    cursor = cursor.dropFirst(expected.count)
                }
                guard cursor.hasPrefix("Swift.Double"), let first = functions.first else { return nil }
                cursor = cursor.dropFirst("Swift.Double".count)
                let outerArguments = Chain.leadingArguments(of: cursor)
                cursor = cursor.dropFirst(outerArguments.count)
                let expected = "." + first + "() -> ()"
                guard cursor.hasPrefix(expected) else { return nil }
                cursor = cursor.dropFirst(expected.count)
                let innerArguments = Chain.leadingArguments(of: cursor)
                cursor = cursor.dropFirst(innerArguments.count)
                let middle = components.dropFirst().dropLast().map { "." + $0 }.joined()
                let innermost = components.count > 1 ? "." + Chain.bind(components[components.count - 1], innerArguments) : ""
                output += Chain.bind(components[0], outerArguments) + middle + innermost
                rest = cursor
            }
            return output + rest
        }
    }

    /// A generic base of two or more levels, printed `<outer><args>.<marker 1><args>…<marker n>`.
    private struct Chain {
        let outer: String
        /// The real name's components: the outermost (with its module) first.
        let components: [String]
        var markers: [String] = []

        /// Replaces each printed occurrence by the real components; nil when a marker is found
        /// without the levels that must precede it.
        func replace(in text: String) -> String? {
            guard let innermost = markers.last else { return nil }
            var output = ""
            var rest = Substring(text)
            while let range = rest.firstRange(of: innermost) {
                var before = rest[..<range.lowerBound]
                var replacement = "." + components[markers.count]
                for level in stride(from: markers.count - 1, through: 0, by: -1) {
                    let arguments = Self.trailingArguments(of: before)
                    before = before.dropLast(arguments.count)
                    let expected = level == 0 ? outer : markers[level - 1]
                    guard before.hasSuffix(expected) else { return nil }
                    before = before.dropLast(expected.count)
                    replacement = (level == 0 ? "" : ".") + Self.bind(components[level], arguments) + replacement
                }
                output += before + replacement
                rest = rest[range.upperBound...]
            }
            return output + rest
        }

        /// A component with its arguments, as the demangler prints them: after the name, and
        /// before the generic signature of a constrained extension that declares the component
        /// (`(extension in M):M.Box<M.K><A where A: M.P>`).
        static func bind(_ component: String, _ arguments: Substring) -> String {
            let signature = trailingArguments(of: Substring(component))
            guard !arguments.isEmpty, signature.contains(" where "), component.hasPrefix("(extension in ") else {
                return component + arguments
            }
            return String(component.dropLast(signature.count)) + arguments + signature
        }

        /// The `<…>` argument list `text` starts with, or "" (`->` of a function type is no bracket).
        static func leadingArguments(of text: Substring) -> Substring {
            guard text.hasPrefix("<") else { return "" }
            var depth = 0
            var previous: Character = " "
            var index = text.startIndex
            while index < text.endIndex {
                let character = text[index]
                if character == "<" { depth += 1 }
                if character == ">", previous != "-" {
                    depth -= 1
                    if depth == 0 { return text[...index] }
                }
                previous = character
                index = text.index(after: index)
            }
            return ""
        }

        /// The `<…>` argument list `text` ends with, or "" (`->` of a function type is no bracket).
        private static func trailingArguments(of text: Substring) -> Substring {
            guard text.hasSuffix(">") else { return "" }
            var depth = 0
            var index = text.endIndex
            while index > text.startIndex {
                index = text.index(before: index)
                let character = text[index]
                let isArrow = character == ">" && index > text.startIndex && text[text.index(before: index)] == "-"
                if character == ">", !isArrow { depth += 1 }
                if character == "<" {
                    depth -= 1
                    if depth == 0 { return text[index...] }
                }
            }
            return ""
        }
    }
}

extension String {
    /// Whether `target` occurs in the string, comparing UTF-8 bytes (see ``replacingAll(_:with:)``
    /// for why not `contains(_:)`).
    func containsBytes(of target: String) -> Bool {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return true }
        let haystack = Array(utf8)
        guard haystack.count >= needle.count else { return false }
        for index in 0...(haystack.count - needle.count) where haystack[index] == first {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Replaces every occurrence of `target` (no Foundation needed). Compares UTF-8 bytes:
    /// `firstRange(of:)` builds a substring searcher per call, which cost more than the rest of
    /// a reading's name printing.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return self }
        let haystack = Array(utf8)
        let inserted = Array(replacement.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if haystack[index] == first, index + needle.count <= haystack.count,
                haystack[index..<index + needle.count].elementsEqual(needle)
            {
                result += inserted
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
