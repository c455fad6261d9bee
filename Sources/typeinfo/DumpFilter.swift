import ArgumentParser
import TypeLayout

/// Which types `typeinfo dump` prints: all of the given filters must match.
struct DumpFilter {
    private enum NamePattern {
        case substring(String)
        case regex(Regex<AnyRegexOutput>)
    }

    private let names: [NamePattern]
    private let kinds: Set<TypeKind>
    private let modules: Set<String>

    /// Compiles the filters.
    ///
    /// - Throws: a `ValidationError` naming a `/REGEX/` pattern that does not compile.
    init(typePatterns: [String], kinds: [TypeKind], modules: [String]) throws {
        names = try typePatterns.map { pattern in
            if pattern.count >= 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") {
                let body = String(pattern.dropFirst().dropLast())
                do {
                    return .regex(try Regex(body))
                } catch {
                    throw ValidationError("--type \(pattern): not a valid regular expression: \(error)")
                }
            }
            return .substring(pattern)
        }
        self.kinds = Set(kinds)
        self.modules = Set(modules)
    }

    /// Whether `type` passes every filter (a type passes a filter that was not given).
    func matches(_ type: TypeLayout) -> Bool {
        if !kinds.isEmpty, !kinds.contains(type.kind) { return false }
        if !modules.isEmpty, !modules.contains(type.module ?? "") { return false }
        if names.isEmpty { return true }
        return names.contains { pattern in
            switch pattern {
            case .substring(let text): return type.name.contains(text)
            case .regex(let regex): return type.name.contains(regex)
            }
        }
    }
}
