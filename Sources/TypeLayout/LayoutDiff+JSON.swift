#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON form of a ``LayoutDiff``: what `typeinfo check --format json` and
/// `typeinfo diff --format json` print, documented in `docs/layout-checks.md`.
///
/// ```json
/// {"format": "typeinfo-layout-diff", "version": 1, "old": "layouts.json", "new": "MyApp",
///  "summary": {"breaking": 1, "compatible": 0, ...},
///  "changes": [{"type": "Demo.Point", "typeKind": "struct", "change": "sizeChanged",
///               "severity": "breaking", "member": null, "from": 16, "to": 24,
///               "detail": null, "message": "size 16 -> 24"}]}
/// ```
public struct LayoutDiffReport: Hashable, Sendable, Codable {
    /// The value of the `format` key.
    public static let formatName = "typeinfo-layout-diff"
    /// The report version this build writes.
    public static let currentVersion = 1

    /// Always ``formatName``.
    public var format: String
    /// The report format version.
    public var version: Int
    /// What the old side was (a snapshot path, a binary path), if the caller said.
    public var old: String?
    /// What the new side was, if the caller said.
    public var new: String?
    /// The counts.
    public var summary: LayoutDiffSummary
    /// Every change, in report order.
    public var changes: [Entry]
    /// Changes a suppressions file accepted, with the reason and the rule's `file:line`;
    /// absent when no suppressions were given.
    public var suppressed: [SuppressedEntry]?

    /// A suppressed change: the change as in ``changes``, why it was accepted, and by which rule.
    public struct SuppressedEntry: Hashable, Sendable, Codable {
        /// The change.
        public var change: Entry
        /// The rule's reason.
        public var reason: String
        /// Where the rule is: `file:line`.
        public var rule: String
    }

    /// One change, flattened for tools.
    public struct Entry: Hashable, Sendable, Codable {
        /// The qualified type name.
        public var type: String
        /// The type's kind.
        public var typeKind: TypeKind
        /// What changed.
        public var change: LayoutChangeKind
        /// Breaking or compatible.
        public var severity: LayoutChangeSeverity
        /// The field or case concerned, or `null`.
        public var member: String?
        /// The old value (number, string, array of names, or `null`).
        public var from: LayoutValue?
        /// The new value.
        public var to: LayoutValue?
        /// Why, or where.
        public var detail: String?
        /// The same one-line message the text report prints.
        public var message: String

        private enum CodingKeys: String, CodingKey {
            case type, typeKind, change, severity, member, from, to, detail, message
        }

        /// Writes every key, absent values as `null`, so tools can rely on the shape.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(typeKind, forKey: .typeKind)
            try container.encode(change, forKey: .change)
            try container.encode(severity, forKey: .severity)
            try container.encode(member, forKey: .member)
            try container.encode(from ?? .unknown, forKey: .from)
            try container.encode(to ?? .unknown, forKey: .to)
            try container.encode(detail, forKey: .detail)
            try container.encode(message, forKey: .message)
        }
    }

    /// Builds the report of a diff.
    ///
    /// - Parameters:
    ///   - diff: the diff.
    ///   - old: a label for the old side.
    ///   - new: a label for the new side.
    public init(_ diff: LayoutDiff, old: String? = nil, new: String? = nil) {
        format = Self.formatName
        version = Self.currentVersion
        self.old = old
        self.new = new
        summary = diff.summary
        changes = diff.changes.map(Self.entry)
        suppressed =
            diff.suppressed.isEmpty
            ? nil
            : diff.suppressed.map { accepted in
                SuppressedEntry(change: Self.entry(accepted.change), reason: accepted.reason, rule: accepted.rule)
            }
    }

    private static func entry(_ change: LayoutChange) -> Entry {
        Entry(
            type: change.typeName, typeKind: change.typeKind, change: change.kind, severity: change.severity,
            member: change.member, from: change.from, to: change.to, detail: change.detail, message: change.message
        )
    }

    /// The report as pretty-printed JSON with sorted keys, ending in a newline.
    ///
    /// - Returns: UTF-8 JSON.
    /// - Throws: only if encoding fails, which plain values do not.
    public func jsonData() throws -> Data {
        try LayoutJSON.encode(self)
    }
}

extension LayoutDiff {
    /// The diff as a versioned JSON report; see ``LayoutDiffReport``.
    ///
    /// - Parameters:
    ///   - old: a label for the old side (a path).
    ///   - new: a label for the new side.
    /// - Returns: UTF-8 JSON ending in a newline.
    /// - Throws: only if encoding fails, which plain values do not.
    public func jsonData(old: String? = nil, new: String? = nil) throws -> Data {
        try LayoutDiffReport(self, old: old, new: new).jsonData()
    }
}
