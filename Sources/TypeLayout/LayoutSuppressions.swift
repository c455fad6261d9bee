/// Layout changes a project has accepted, read from a suppressions file committed beside its
/// snapshot (abidiff's suppression specifications, for layouts). A suppressed change is still
/// shown, with the reason, but no longer counts for the exit status.
///
/// The format (version 1), one rule per line, `#` starts a comment:
///
/// ```
/// typeinfo-layout-suppressions 1
/// accept type=Wire.Header change=sizeChanged,strideChanged reason="grew in 2.0; every reader rebuilt"
/// accept type=/^Wire\.Internal/ reason="internal types, never persisted"
/// accept kind=class change=fieldAdded,instanceSizeChanged reason="classes are never subclassed outside"
/// ```
///
/// Keys: `type` (a qualified name, or `/REGEX/` searched in it), `field` (a field or case
/// name, or `/REGEX/`), `change` (``LayoutChangeKind`` raw values, comma-separated), `kind`
/// (``TypeKind`` raw values, comma-separated), `severity` (`breaking` or `compatible`) and
/// `reason` (required). A rule matches a change when every key it gives matches.
/// `docs/layout-checks.md` documents the format.
public struct LayoutSuppressions {
    /// The first line's word.
    public static let formatName = "typeinfo-layout-suppressions"
    /// The format version this build reads.
    public static let currentVersion = 1

    /// The rules, in file order; the first that matches a change suppresses it.
    public var rules: [Rule]

    /// One `accept` line.
    public struct Rule {
        /// The type names the rule applies to, or `nil` for any type.
        public var type: NamePattern?
        /// The field or case names it applies to, or `nil` for any member (and type-level changes).
        public var field: NamePattern?
        /// The change kinds it applies to, or `nil` for any.
        public var changes: Set<LayoutChangeKind>?
        /// The type kinds it applies to, or `nil` for any.
        public var kinds: Set<TypeKind>?
        /// The severity it applies to, or `nil` for either.
        public var severity: LayoutChangeSeverity?
        /// Why the change is accepted, shown in the report.
        public var reason: String
        /// Where the rule was written: `file:line`.
        public var location: String

        /// Whether the rule accepts `change`.
        public func matches(_ change: LayoutChange) -> Bool {
            if let changes, !changes.contains(change.kind) { return false }
            if let kinds, !kinds.contains(change.typeKind) { return false }
            if let severity, severity != change.severity { return false }
            if let type, !type.matches(change.typeName) { return false }
            if let field {
                guard let member = change.member, field.matches(member) else { return false }
            }
            return true
        }
    }

    /// An exact name or a regular expression searched in the name.
    public enum NamePattern {
        /// The whole name.
        case exact(String)
        /// A regular expression, written `/REGEX/`, found anywhere in the name.
        case regex(source: String, Regex<AnyRegexOutput>)

        /// Whether `name` matches.
        public func matches(_ name: String) -> Bool {
            switch self {
            case .exact(let text): return name == text
            case .regex(_, let regex): return name.contains(regex)
            }
        }
    }

    /// Creates suppressions from rules.
    public init(rules: [Rule] = []) {
        self.rules = rules
    }

    /// Parses a suppressions file.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - path: the file's name, recorded in each rule's ``Rule/location``.
    /// - Throws: ``LayoutSuppressionsError`` naming the line and what is wrong with it.
    public init(parsing text: String, path: String) throws(LayoutSuppressionsError) {
        rules = []
        var sawHeader = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let tokens = try Self.tokens(of: Substring(rawLine), line: number)
            guard let first = tokens.first else { continue }
            if !sawHeader {
                guard first == Self.formatName, tokens.count == 2 else {
                    throw LayoutSuppressionsError(
                        line: number, message: "the first line must be '\(Self.formatName) \(Self.currentVersion)'")
                }
                guard tokens[1] == String(Self.currentVersion) else {
                    throw LayoutSuppressionsError(
                        line: number, message: "version \(tokens[1]) is not supported; this typeinfo reads version \(Self.currentVersion)")
                }
                sawHeader = true
                continue
            }
            guard first == "accept" else {
                throw LayoutSuppressionsError(line: number, message: "expected a rule starting with 'accept', found '\(first)'")
            }
            rules.append(try Self.rule(Array(tokens.dropFirst()), line: number, path: path))
        }
        if !sawHeader {
            throw LayoutSuppressionsError(
                line: 1, message: "empty file; the first line must be '\(Self.formatName) \(Self.currentVersion)'")
        }
    }

    private static func rule(_ pairs: [String], line: Int, path: String) throws(LayoutSuppressionsError) -> Rule {
        var rule = Rule(reason: "", location: "\(path):\(line)")
        var seen = Set<String>()
        func fail(_ message: String) -> LayoutSuppressionsError { LayoutSuppressionsError(line: line, message: message) }
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "=") else {
                throw fail("expected key=value, found '\(pair)'")
            }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            guard seen.insert(key).inserted else { throw fail("key '\(key)' given twice") }
            guard !value.isEmpty else { throw fail("key '\(key)' has an empty value") }
            switch key {
            case "type": rule.type = try pattern(value, key: key, line: line)
            case "field": rule.field = try pattern(value, key: key, line: line)
            case "change": rule.changes = try words(value, naming: "change", line: line)
            case "kind": rule.kinds = try words(value, naming: "type kind", line: line)
            case "severity":
                guard let severity = LayoutChangeSeverity(rawValue: value) else {
                    throw fail("unknown severity '\(value)'; one of: breaking, compatible")
                }
                rule.severity = severity
            case "reason": rule.reason = value
            default:
                throw fail("unknown key '\(key)'; keys are type, field, change, kind, severity, reason")
            }
        }
        guard !rule.reason.isEmpty else { throw fail("a rule needs reason=\"...\" saying why the change is accepted") }
        guard rule.type != nil || rule.field != nil || rule.changes != nil || rule.kinds != nil || rule.severity != nil else {
            throw fail("this rule would accept every change; give a type, field, change, kind or severity")
        }
        return rule
    }

    /// The comma-separated values of `value`, each one of `Word`'s raw values (`noun` names them in the error).
    private static func words<Word: RawRepresentable<String> & CaseIterable & Hashable>(
        _ value: String, naming noun: String, line: Int
    ) throws(LayoutSuppressionsError) -> Set<Word> {
        var words = Set<Word>()
        for text in value.split(separator: ",") {
            guard let word = Word(rawValue: String(text)) else {
                let known = Word.allCases.map(\.rawValue).joined(separator: ", ")
                throw LayoutSuppressionsError(line: line, message: "unknown \(noun) '\(text)'; one of: \(known)")
            }
            words.insert(word)
        }
        return words
    }

    private static func pattern(_ value: String, key: String, line: Int) throws(LayoutSuppressionsError) -> NamePattern {
        guard value.count >= 2, value.hasPrefix("/"), value.hasSuffix("/") else { return .exact(value) }
        let body = String(value.dropFirst().dropLast())
        do {
            return .regex(source: value, try Regex(body))
        } catch {
            throw LayoutSuppressionsError(line: line, message: "\(key)=\(value): not a valid regular expression: \(error)")
        }
    }

    /// Splits a line into words; `"..."` quotes a value (with `\"` and `\\` inside), `#` outside
    /// quotes starts a comment.
    private static func tokens(of line: Substring, line number: Int) throws(LayoutSuppressionsError) -> [String] {
        var tokens: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in line {
            if quoted {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "#": return inWord ? tokens + [current] : tokens
            case " ", "\t", "\r":
                if inWord { tokens.append(current) }
                current = ""
                inWord = false
            case "\"":
                quoted = true
                inWord = true
            default:
                current.append(character)
                inWord = true
            }
        }
        if quoted { throw LayoutSuppressionsError(line: number, message: "a quoted value is not closed") }
        if inWord { tokens.append(current) }
        return tokens
    }

    /// The diff without the changes these rules accept; those move to ``LayoutDiff/suppressed``.
    ///
    /// - Parameter diff: the diff to filter.
    /// - Returns: the filtered diff.
    public func apply(to diff: LayoutDiff) -> LayoutDiff {
        var result = diff
        result.changes = []
        for change in diff.changes {
            if let rule = rules.first(where: { $0.matches(change) }) {
                result.suppressed.append(SuppressedLayoutChange(change: change, reason: rule.reason, rule: rule.location))
            } else {
                result.changes.append(change)
            }
        }
        return result
    }
}

/// A change a suppressions file accepted.
public struct SuppressedLayoutChange: Hashable, Sendable, Codable {
    /// The change.
    public var change: LayoutChange
    /// The rule's reason.
    public var reason: String
    /// Where the rule is: `file:line`.
    public var rule: String

    /// Creates a suppressed change.
    public init(change: LayoutChange, reason: String, rule: String) {
        self.change = change
        self.reason = reason
        self.rule = rule
    }
}

/// A suppressions file that cannot be read: the line and what is wrong with it.
public struct LayoutSuppressionsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line, counting from 1.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// `line 3: unknown key 'tpye'; keys are ...`.
    public var description: String { "line \(line): \(message)" }
}
