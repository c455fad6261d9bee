// One spelling for a type name from either side: the dump writes `[K: V]`, `T?` and `any P`;
// the runtime's `_typeName` and demangler write `Swift.Dictionary<K, V>`, `Swift.Optional<T>`
// and `P`. Both sides go through the same function, so a difference that survives is one of
// substance.
import Foundation

/// The generic argument list starting at `open` (a `<`), split at top-level commas, and the index
/// after its closing `>`. An arrow's `>` (`->`) closes nothing. Only the space after a comma is
/// dropped: a trailing one belongs to the argument (the demangler prints a composition of a
/// class and only marker protocols, erased at run time, as `Swift.AnyKeyPath & `).
func genericArguments(_ text: [Character], from open: Int) -> (arguments: [String], end: Int)? {
    var depth = 0
    var current = ""
    var arguments: [String] = []
    var i = open
    while i < text.count {
        let c = text[i]
        if c == "<" || c == "(" || c == "[" {
            depth += 1
            if depth > 1 { current.append(c) }
        } else if (c == ">" && (i == 0 || text[i - 1] != "-")) || c == ")" || c == "]" {
            depth -= 1
            if depth == 0 {
                arguments.append(current.droppingLeadingSpaces())
                return (arguments, i + 1)
            }
            current.append(c)
        } else if c == "," && depth == 1 {
            arguments.append(current.droppingLeadingSpaces())
            current = ""
        } else {
            current.append(c)
        }
        i += 1
    }
    return nil
}

extension String {
    func droppingLeadingSpaces() -> String {
        String(drop { $0 == " " })
    }
}

/// `Swift.Optional<T>` as `T?`, `Swift.Array<T>` as `[T]`, `Swift.Dictionary<K, V>` as `[K: V]`,
/// at any depth.
func sugared(_ name: String) -> String {
    let text = Array(name)
    var out = ""
    var i = 0
    let forms = ["Swift.Optional<", "Swift.Array<", "Swift.Dictionary<"]
    while i < text.count {
        let atBoundary = i == 0 || !(text[i - 1].isLetter || text[i - 1].isNumber || text[i - 1] == "_" || text[i - 1] == ".")
        if atBoundary, let form = forms.first(where: { String(text[i..<min(text.count, i + $0.count)]) == $0 }),
           let (arguments, end) = genericArguments(text, from: i + form.count - 1) {
            let inner = arguments.map(sugared)
            switch form {
            case "Swift.Optional<" where inner.count == 1:
                let needsParentheses = inner[0].contains("->") || inner[0].hasPrefix("any ") || inner[0].contains(" & ")
                out += needsParentheses ? "(\(inner[0]))?" : inner[0] + "?"
            case "Swift.Array<" where inner.count == 1:
                out += "[\(inner[0])]"
            case "Swift.Dictionary<" where inner.count == 2:
                out += "[\(inner[0]): \(inner[1])]"
            default:
                out += String(text[i..<end])
            }
            i = end
            continue
        }
        out.append(text[i])
        i += 1
    }
    return out
}

/// The comparable spelling: sugared, without `any ` (the runtime's `_typeName` omits it), with
/// the demangler's ` : ` in dictionary sugar as `: `.
func normalizedName(_ name: String) -> String {
    var text = sugared(name)
    text = text.replacingAll("any ", with: "")
    text = text.replacingAll(" : ", with: ": ")
    // Without `any`, a parenthesised single name before `?` needs no parentheses.
    let single = try! NSRegularExpression(pattern: #"\(([^() ,]+)\)\?"#)
    return single.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1?")
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            out += rest[rest.startIndex..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

/// The runtime cannot print what it does not keep: a private type of an optimised image sits in
/// an anonymous context without a name (`(unknown context at $7f…).`, or no trace at all:
/// `Optimizer.Cache` for what the compiler's symbols call `Optimizer.(Cache in _99B5…)`), so its
/// discriminator is not comparable; and `_typeName` spells an imported C++ declaration with every enclosing
/// namespace (`swift::runtime::backtrace::x86_64_gprs`) where the mangling says
/// `swift.runtime.backtrace.x86_64_gprs`. Those parts are set aside on both sides, and only there.
func comparable(stated: String, runtime: String) -> (stated: String, runtime: String) {
    var stated = normalizedName(stated)
    var runtime = normalizedName(runtime)
    func replace(_ pattern: String, in text: String, with template: String) -> String {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
    let privateName = #"\(([^() ]+) in _[0-9A-F]+\)"#
    let statesPrivate = stated.range(of: privateName, options: .regularExpression) != nil
    let printsPrivate = runtime.range(of: privateName, options: .regularExpression) != nil
    if runtime.contains("(unknown context at $") || (statesPrivate && !printsPrivate) {
        runtime = replace(#"\(unknown context at \$[0-9a-fA-F]+\)\."#, in: runtime, with: "")
        stated = replace(#"\(([^() ]+) in _[0-9A-F]+\)"#, in: stated, with: "$1")
        runtime = replace(#"\(([^() ]+) in _[0-9A-F]+\)"#, in: runtime, with: "$1")
    }
    if runtime.contains("::") {
        runtime = replace(#"(?:[A-Za-z_][A-Za-z0-9_]*::)+"#, in: runtime, with: "")
    }
    return (stated, runtime)
}

/// The stated name against the runtime's `_typeName` (the first candidate). The dump prints a
/// mangling only where it demangles to the printed name, so the demangler's reading of that
/// mangling (the other candidates) agrees by construction: it stands in only where `_typeName`
/// cannot print the name at all (a type in an anonymous context) or prints it in another scheme
/// (C++ namespaces, a class-bound existential's `& AnyObject`) or shorter (``typeNameSimplifies(_:)``).
func nameVerdict(stated: String, runtime candidates: [String]) -> (stated: String, runtime: String)? {
    guard let first = candidates.first else { return nil }
    let primary = comparable(stated: stated, runtime: first)
    if primary.stated == primary.runtime { return primary }
    let unprintable = first.contains("(unknown context at $") || first.contains("::")
    for candidate in candidates.dropFirst() where unprintable || sameButForAnyObject(stated, first) || typeNameSimplifies(stated) {
        let pair = comparable(stated: stated, runtime: candidate)
        if pair.stated == pair.runtime { return pair }
    }
    return primary
}

/// Names `_typeName` prints shorter than the demangler does, as it builds them from metadata:
/// a local type without its function (`M.SpecDump` for `SpecDump #1 in M.f() -> ()`), a type of
/// a constrained extension without the extension's signature (`M.Box<M.K>.Inner` for
/// `(extension in M):M.Box<M.K><A where A: M.P>.Inner`). For these, the runtime demangler's
/// reading of a mangling that resolved to the same metadata is the runtime's spelling.
func typeNameSimplifies(_ stated: String) -> Bool {
    stated.range(of: #" #[0-9]+ in "#, options: .regularExpression) != nil
        || (stated.contains("(extension in ") && stated.contains(" where "))
}

/// `P & Swift.AnyObject` where `_typeName` prints `P`: the same class-bound existential.
func sameButForAnyObject(_ stated: String, _ runtime: String) -> Bool {
    normalizedName(stated).replacingAll(" & Swift.AnyObject", with: "") == normalizedName(runtime)
}

/// A generic type's printed name with its depth-0 parameters (`A`, `B`, … in index order) replaced
/// by argument names: `Swift.Dictionary<A, B>.Index` with `Swift.Int`, `Swift.String` gives
/// `Swift.Dictionary<Swift.Int, Swift.String>.Index`.
func substitutingParameters(in name: String, with arguments: [String]) -> String {
    var text = name
    for (index, argument) in arguments.enumerated() {
        let parameter = String(UnicodeScalar(UInt8(65 + index)))
        let expression = try! NSRegularExpression(pattern: "(?<=[<, ])" + parameter + "(?=[>,.])")
        text = expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                   withTemplate: NSRegularExpression.escapedTemplate(for: argument))
    }
    return text
}

/// The runtime's `_typeName` of each type of the image that it prints with an anonymous context
/// (`M.Core.(unknown context at $5637…).SpecDump`: a local or private type), mapped to the runtime
/// demangler's reading of the mangling that gave that very metadata (`SpecDump #1 in
/// M.Core.f() -> ()`). The context addresses make each such spelling name one descriptor.
nonisolated(unsafe) var anonymousSpellings: [(runtime: String, demangled: String)] = []

func spellingsOfAnonymousContexts(_ observed: [Int: Observed]) -> [(runtime: String, demangled: String)] {
    var pairs: [String: String] = [:]
    for type in observed.values {
        guard let printed = type.first("typename")?.first, printed.contains("(unknown context at $"),
              let demangled = type.first("demangled")?.first, demangled != "-"
        else { continue }
        pairs[printed] = demangled
    }
    // Longest first: a nested type's spelling is replaced before its parent's, which it contains.
    return pairs.map { ($0.key, $0.value) }.sorted { $0.runtime.count > $1.runtime.count }
}

/// A field type's `_typeName` with every anonymous-context spelling of a type of this image
/// replaced by the runtime demangler's name of that type; nil when nothing was replaced.
func spellingAnonymousContexts(_ name: String) -> String? {
    guard name.contains("(unknown context at $") else { return nil }
    var text = name
    for (runtime, demangled) in anonymousSpellings where text.contains(runtime) {
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: runtime) {
            let next = rest[range.upperBound...].first
            let atBoundary = next.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
            out += rest[..<range.lowerBound] + (atBoundary ? demangled : String(rest[range]))
            rest = rest[range.upperBound...]
        }
        text = out + rest
    }
    return text == name ? nil : text
}
