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
        case regex(Regex<AnyRegexOutput>)
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
                    names.append(.regex(try Regex(body)))
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
            guard case .substring(let text) = pattern else { return false }
            return Self.startsWithQualifiedName(text)
        }
    }

    /// Whether `text` starts with an identifier followed by a dot (`NIOCore.`).
    private static func startsWithQualifiedName(_ text: String) -> Bool {
        guard let dot = text.firstIndex(of: "."), dot > text.startIndex else { return false }
        let head = text[..<dot]
        guard let first = head.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return head.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Whether `type` passes every filter (a type passes a filter that was not given).
    public func matches(_ type: TypeLayout) -> Bool {
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
