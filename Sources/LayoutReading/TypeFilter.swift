import TypeLayout

/// Which types a reading keeps: a type passes when it matches every filter that was given
/// (`--type`, `--kind`, `--module`, or the selection a snapshot stored).
///
/// The readers receive it, so that a question about one type can be answered without laying out
/// every type of the file.
public struct TypeFilter: Sendable {
    private enum NamePattern: @unchecked Sendable {
        case substring(String)
        // `Regex` is not Sendable; a compiled pattern is never mutated after `init`.
        // The source is kept to tell whether the expression can match a C name.
        case regex(Regex<AnyRegexOutput>, source: String)
    }

    private let names: [NamePattern]
    private let kinds: Set<TypeKind>
    private let modules: Set<String>

    /// The filter every type passes.
    public static let all = TypeFilter(compiledNames: [], kinds: [], modules: [])

    /// Compiles the filters: a pattern written `/REGEX/` is a regular expression, any other a substring.
    ///
    /// - Throws: ``TypeFilterError/invalidRegularExpression(pattern:reason:)`` naming the pattern.
    public init(typePatterns: [String], kinds: [TypeKind] = [], modules: [String] = []) throws(TypeFilterError) {
        var names: [NamePattern] = []
        for pattern in typePatterns {
            if pattern.count >= 2, pattern.hasPrefix("/"), pattern.hasSuffix("/") {
                let body = String(pattern.dropFirst().dropLast())
                do {
                    names.append(.regex(try Regex(body), source: body))
                } catch {
                    throw .invalidRegularExpression(pattern: pattern, reason: "\(error)")
                }
            } else {
                names.append(.substring(pattern))
            }
        }
        self.init(compiledNames: names, kinds: Set(kinds), modules: Set(modules))
    }

    /// Compiles a stored selection. A snapshot keeps no module names, so the filter for its types
    /// is made with `ignoringModules` (the module filter was applied when it was taken).
    public init(_ selection: LayoutSnapshot.Selection, ignoringModules: Bool = false) throws(TypeFilterError) {
        try self.init(typePatterns: selection.typePatterns, kinds: selection.kinds, modules: ignoringModules ? [] : selection.modules)
    }

    private init(compiledNames: [NamePattern], kinds: Set<TypeKind>, modules: Set<String>) {
        self.names = compiledNames
        self.kinds = kinds
        self.modules = modules
    }

    /// Whether no filter was given (every type passes).
    public var isEmpty: Bool { names.isEmpty && kinds.isEmpty && modules.isEmpty }

    /// Whether no C or C++ type that DWARF describes can pass: a reading may then skip DWARF's
    /// C types. True when the kinds exclude every C kind, when the modules exclude C types (they
    /// have no module), or when every name pattern is a substring starting `Identifier.`, which
    /// no C or C++ name contains (C++ scopes with `::`; DWARFInfo names anonymous types without a path).
    public var excludesCFamilyTypes: Bool {
        let cKinds: Set<TypeKind> = [.struct, .class, .enum, .union]
        if !kinds.isEmpty, kinds.isDisjoint(with: cKinds) { return true }
        if !modules.isEmpty, !modules.contains("") { return true }
        guard !names.isEmpty else { return false }
        return names.allSatisfy { pattern in
            switch pattern {
            case .substring(let text): return Self.startsWithQualifiedName(text)
            case .regex(_, let source): return Self.anchoredToQualifiedNames(source)
            }
        }
    }

    /// Whether the regular expression `source` matches only names starting `Identifier.`:
    /// `^Identifier\.…` or `^(Identifier\.…|Identifier\.…)…` (the form a snapshot of a few
    /// named types stores). Anything else may match a C name.
    private static func anchoredToQualifiedNames(_ source: String) -> Bool {
        guard source.hasPrefix("^") else { return false }
        let rest = source.dropFirst()
        guard rest.hasPrefix("(") else { return !rest.contains("|") && startsWithEscapedQualifiedName(rest) }
        guard let close = rest.firstIndex(of: ")") else { return false }
        let group = rest[rest.index(after: rest.startIndex)..<close]
        let after = rest[rest.index(after: close)...]
        // An alternative outside the group, or a quantifier that makes it optional, lets any name through.
        guard !group.contains("("), !after.contains("|"), !["?", "*", "{"].contains(after.first) else { return false }
        return group.split(separator: "|", omittingEmptySubsequences: false).allSatisfy(startsWithEscapedQualifiedName)
    }

    /// Whether `text` starts with a literal identifier followed by an escaped dot (`NIOCore\.`).
    private static func startsWithEscapedQualifiedName(_ text: Substring) -> Bool {
        guard let slash = text.firstIndex(of: "\\"), text[slash...].hasPrefix("\\.") else { return false }
        return isIdentifier(text[..<slash])
    }

    /// Whether `text` starts with an identifier followed by a dot (`NIOCore.`).
    private static func startsWithQualifiedName(_ text: String) -> Bool {
        guard let dot = text.firstIndex(of: ".") else { return false }
        return isIdentifier(text[..<dot])
    }

    /// Whether `text` is a whole identifier (letters, digits, `_`; not starting with a digit).
    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Whether `type` passes every filter (a type passes a filter that was not given).
    public func matches(_ type: TypeLayout) -> Bool {
        if !kinds.isEmpty, !kinds.contains(type.kind) { return false }
        if !modules.isEmpty, !modules.contains(type.module ?? "") { return false }
        if names.isEmpty { return true }
        return names.contains { pattern in
            switch pattern {
            case .substring(let text): return Self.contains(type.name, text)
            case .regex(let regex, _): return type.name.contains(regex)
            }
        }
    }

    /// Whether a type named `name` passes the name patterns (a name says nothing of kind or module:
    /// those filters must be empty, as the live commands' `--type` is the only one they take).
    public func matches(name: String) -> Bool {
        names.isEmpty
            || names.contains { pattern in
                switch pattern {
                case .substring(let text): return Self.contains(name, text)
                case .regex(let regex, _): return name.contains(regex)
                }
            }
    }

    /// `name.contains(text)`, comparing UTF-8 bytes when both are ASCII (where bytes and
    /// characters agree): the standard library's substring search builds a searcher per call,
    /// which cost 34,000 instructions a type, more than the rest of a one-type reading's filtering.
    private static func contains(_ name: String, _ text: String) -> Bool {
        var name = name
        var text = text
        let fast = name.withUTF8 { haystack in
            text.withUTF8 { needle -> Bool? in
                guard haystack.allSatisfy({ $0 < 0x80 }), needle.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard let first = needle.first else { return true }
                guard haystack.count >= needle.count else { return false }
                for index in 0...(haystack.count - needle.count) where haystack[index] == first {
                    if UnsafeBufferPointer(rebasing: haystack[index..<index + needle.count]).elementsEqual(needle) { return true }
                }
                return false
            }
        }
        return fast ?? name.contains(text)
    }
}

/// Why a ``TypeFilter`` could not be made.
public enum TypeFilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `/REGEX/` pattern that does not compile, with the compiler's reason.
    case invalidRegularExpression(pattern: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRegularExpression(let pattern, let reason):
            return "--type \(pattern): not a valid regular expression: \(reason)"
        }
    }
}
