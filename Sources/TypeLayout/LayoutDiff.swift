/// The differences between two sets of type layouts (an old build and a new one, or a recorded
/// snapshot and the current build), each change classified breaking or compatible.
///
/// Build one with `init(old:new:)` (layouts, snapshots or documents); render it with
/// ``textReport(title:)`` for people or ``jsonData(old:new:)`` for tools. The classification rules
/// are in `docs/layout-checks.md`.
public struct LayoutDiff: Hashable, Sendable {
    /// Every change, grouped by type (types in name order), type-level changes first, then
    /// fields in old offset order, then enum cases.
    public var changes: [LayoutChange]
    /// How many types were compared (present on either side).
    public var typesCompared: Int
    /// Changes a suppressions file accepted (``LayoutSuppressions/apply(to:)``): reported with
    /// their reason, but not in ``changes``, so they count for neither ``isEmpty`` nor the
    /// exit status.
    public var suppressed: [SuppressedLayoutChange] = []

    /// Creates a diff from already computed changes.
    ///
    /// - Parameters:
    ///   - changes: the changes, in report order.
    ///   - typesCompared: how many types were compared.
    public init(changes: [LayoutChange], typesCompared: Int) {
        self.changes = changes
        self.typesCompared = typesCompared
    }

    /// Whether the two sides have identical layouts.
    public var isEmpty: Bool { changes.isEmpty }

    /// Whether any change is classified ``LayoutChangeSeverity/breaking``.
    public var hasBreakingChanges: Bool { changes.contains { $0.severity == .breaking } }

    /// Counts for the summary line.
    public var summary: LayoutDiffSummary {
        var summary = LayoutDiffSummary()
        var changedTypes = Set<String>()
        for change in changes {
            switch change.severity {
            case .breaking: summary.breaking += 1
            case .compatible: summary.compatible += 1
            }
            switch change.kind {
            case .typeAdded: summary.typesAdded += 1
            case .typeRemoved: summary.typesRemoved += 1
            default: changedTypes.insert(change.typeName)
            }
        }
        summary.typesChanged = changedTypes.count
        summary.typesCompared = typesCompared
        return summary
    }
}

/// How many changes of each sort a diff holds.
public struct LayoutDiffSummary: Hashable, Sendable, Codable {
    /// Changes classified breaking.
    public var breaking = 0
    /// Changes classified compatible.
    public var compatible = 0
    /// Types present only in the new layouts.
    public var typesAdded = 0
    /// Types present only in the old layouts.
    public var typesRemoved = 0
    /// Types present on both sides whose layout differs.
    public var typesChanged = 0
    /// Types compared (present on either side).
    public var typesCompared = 0

    /// Creates an all-zero summary.
    public init() {}

    /// All changes.
    public var total: Int { breaking + compatible }
}

/// Whether a change can break code or data built against the old layout.
public enum LayoutChangeSeverity: String, Hashable, Sendable, Codable, CaseIterable {
    /// Code or data that relies on the old layout may read or write the wrong bytes.
    case breaking
    /// Every byte the old layout used is where it was and means what it meant.
    case compatible
}

/// What changed. The raw values are the spellings in the JSON report.
public enum LayoutChangeKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A type exists only in the new layouts.
    case typeAdded
    /// A type exists only in the old layouts.
    case typeRemoved
    /// The type's kind changed (a struct became a class, ...).
    case kindChanged
    /// `MemoryLayout.size` changed.
    case sizeChanged
    /// `MemoryLayout.alignment` changed.
    case alignmentChanged
    /// `MemoryLayout.stride` changed.
    case strideChanged
    /// A class's instance size changed.
    case instanceSizeChanged
    /// A class's instance alignment changed.
    case instanceAlignmentChanged
    /// A class's superclass changed (or was added or removed).
    case superclassChanged
    /// A field exists only in the new layout.
    case fieldAdded
    /// A field exists only in the old layout.
    case fieldRemoved
    /// A field's offset (or bit position) changed.
    case fieldMoved
    /// A field's type is the same but its size changed (the field's type's layout changed).
    case fieldResized
    /// A field's type changed.
    case fieldRetyped
    /// A field at the same offset with the same type and size has a new name.
    case fieldRenamed
    /// A field's ownership changed (strong, weak, unowned, unowned(unsafe)).
    case fieldOwnershipChanged
    /// The relative order of the fields present on both sides changed.
    case fieldsReordered
    /// An enum case exists only in the new layout.
    case caseAdded
    /// An enum case exists only in the old layout.
    case caseRemoved
    /// An enum case's payload type changed.
    case casePayloadChanged
    /// An enum case became indirect, or stopped being indirect.
    case caseIndirectChanged
    /// The order (and so the tag numbers) of the cases present on both sides changed.
    case casesReordered
}

/// A value on one side of a change: a number, a name, a list of names, or unknown.
///
/// In the JSON report it is a number, a string, an array of strings, or `null`.
public enum LayoutValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The fact was not known on this side.
    case unknown
    /// A byte count or offset.
    case int(Int)
    /// A name or a position such as `8:3` (byte 8, bit 3).
    case text(String)
    /// An ordered list of names (field or case order).
    case names([String])

    /// Wraps an optional number, `nil` becoming ``unknown``.
    public init(_ value: Int?) {
        self = value.map(LayoutValue.int) ?? .unknown
    }

    /// Wraps an optional name, `nil` becoming ``unknown``.
    public init(_ value: String?) {
        self = value.map(LayoutValue.text) ?? .unknown
    }

    /// The value as the text report prints it: `16`, `Swift.Int`, `a, b`, or `unknown`.
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .int(let value): return String(value)
        case .text(let value): return value
        case .names(let names): return names.joined(separator: ", ")
        }
    }

    /// Decodes `null`, a number, a string or an array of strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .unknown
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(String.self) {
            self = .text(value)
        } else {
            self = .names(try container.decode([String].self))
        }
    }

    /// Encodes `null`, a number, a string or an array of strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .unknown: try container.encodeNil()
        case .int(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .names(let names): try container.encode(names)
        }
    }
}

/// One difference between an old and a new layout.
public struct LayoutChange: Hashable, Sendable, Codable {
    /// What changed.
    public var kind: LayoutChangeKind
    /// Breaking or compatible; see `docs/layout-checks.md` for the rules.
    public var severity: LayoutChangeSeverity
    /// The qualified name of the type the change is in.
    public var typeName: String
    /// The type's kind (the new one, or the old one for a removed type).
    public var typeKind: TypeKind
    /// The field or case concerned (the old name for a renamed field), or `nil` for type-level changes.
    public var member: String?
    /// The old value (`nil` when the change has none, as for an added type).
    public var from: LayoutValue?
    /// The new value (`nil` when the change has none, as for a removed type).
    public var to: LayoutValue?
    /// Context a reader needs: the field's offset and type for an added field, why a change
    /// is classified the way it is.
    public var detail: String?

    /// Creates a change.
    public init(
        kind: LayoutChangeKind,
        severity: LayoutChangeSeverity,
        typeName: String,
        typeKind: TypeKind,
        member: String? = nil,
        from: LayoutValue? = nil,
        to: LayoutValue? = nil,
        detail: String? = nil
    ) {
        self.kind = kind
        self.severity = severity
        self.typeName = typeName
        self.typeKind = typeKind
        self.member = member
        self.from = from
        self.to = to
        self.detail = detail
    }
}
