/// The layout facts of a set of types, in a stable order: what a layout regression check
/// records and later compares against.
///
/// A snapshot keeps only facts that decide where bytes are: kind, size, alignment, stride,
/// instance size and alignment (classes), superclass, each field's name, offset, size, type
/// (plus bit position for C bitfields and ownership when not strong), and enum cases.
/// Everything else a reader may know (mangled names, module, conformances, `var`/`let`,
/// the reader that produced it) is dropped, so a snapshot changes only when a layout does.
///
/// Types are sorted by name (then kind, then input order for duplicates); fields are in
/// offset order (declaration order when some offset is unknown); cases keep their order,
/// which is the runtime's tag order. The on-disk format is documented in `docs/layout-checks.md`.
public struct LayoutSnapshot: Hashable, Sendable {
    /// The value of the `format` key that identifies a snapshot file.
    public static let formatName = "typeinfo-layout-snapshot"
    /// The snapshot format version this build writes. Readers accept versions up to this one.
    public static let currentVersion = 1

    /// The format version of this snapshot.
    public var version: Int
    /// The normalized layouts, sorted by name.
    public private(set) var types: [TypeLayout]
    /// The filters the snapshot was taken with (`typeinfo snapshot --type ...`), so a later
    /// `typeinfo check` selects the same types; `nil` when every type was taken.
    public var selection: Selection?

    /// The type filters a snapshot was taken with.
    public struct Selection: Hashable, Sendable, Codable {
        /// `--type` patterns: substrings, or `/regex/`.
        public var typePatterns: [String]
        /// `--kind` values.
        public var kinds: [TypeKind]
        /// `--module` names.
        public var modules: [String]

        /// Creates a selection.
        public init(typePatterns: [String] = [], kinds: [TypeKind] = [], modules: [String] = []) {
            self.typePatterns = typePatterns
            self.kinds = kinds
            self.modules = modules
        }

        /// Whether no filter was given.
        public var isEmpty: Bool { typePatterns.isEmpty && kinds.isEmpty && modules.isEmpty }
    }

    /// Creates a snapshot of the given layouts, normalizing and sorting them.
    ///
    /// - Parameter types: layouts from any reader.
    public init(types: [TypeLayout]) {
        self.version = Self.currentVersion
        self.types = Self.sorted(types.map(Self.normalized))
        self.selection = nil
    }

    /// Creates a snapshot of every type in a layout document.
    ///
    /// - Parameter document: a document from any reader.
    public init(document: LayoutDocument) {
        self.init(types: document.types)
    }

    /// Returns a snapshot holding only the types that satisfy `isIncluded`.
    ///
    /// - Parameter isIncluded: decides whether a (normalized) layout is kept.
    /// - Returns: the filtered snapshot, still sorted.
    public func filter(_ isIncluded: (TypeLayout) throws -> Bool) rethrows -> LayoutSnapshot {
        var copy = self
        copy.types = try types.filter(isIncluded)
        return copy
    }

    /// The layout of a type with exactly this name, if the snapshot has one.
    ///
    /// - Parameter name: a qualified type name.
    /// - Returns: the first layout with that name.
    public func type(named name: String) -> TypeLayout? {
        types.first { $0.name == name }
    }

    /// Strips a layout down to its layout facts and puts its fields in offset order.
    ///
    /// - Parameter layout: a layout from any reader.
    /// - Returns: the layout as a snapshot stores it.
    public static func normalized(_ layout: TypeLayout) -> TypeLayout {
        let isClass = layout.kind == .class
        let fields = layout.fields.map { field in
            FieldLayout(
                name: field.name, type: field.type, offset: field.offset, size: field.size,
                bitOffset: field.bitOffset, bitWidth: field.bitWidth, ownership: field.ownership
            )
        }
        return TypeLayout(
            name: layout.name,
            kind: layout.kind,
            size: layout.size,
            alignment: layout.alignment,
            stride: layout.stride,
            instanceSize: isClass ? layout.instanceSize : nil,
            instanceAlignment: isClass ? layout.instanceAlignment : nil,
            superclass: isClass ? layout.superclass : nil,
            fields: offsetOrdered(fields),
            cases: layout.cases
        )
    }

    /// Fields sorted by (offset, bit offset, declaration index) when every offset is known;
    /// otherwise the declaration order, which is all there is to go on.
    static func offsetOrdered(_ fields: [FieldLayout]) -> [FieldLayout] {
        guard fields.allSatisfy({ $0.offset != nil }) else { return fields }
        return fields.enumerated().sorted { lhs, rhs in
            let l = (lhs.element.offset ?? 0, lhs.element.bitOffset ?? 0, lhs.offset)
            let r = (rhs.element.offset ?? 0, rhs.element.bitOffset ?? 0, rhs.offset)
            return l < r
        }.map(\.element)
    }

    /// Types sorted by (name, kind, input index): deterministic, and duplicates keep their order.
    static func sorted(_ types: [TypeLayout]) -> [TypeLayout] {
        types.enumerated().sorted { lhs, rhs in
            if lhs.element.name != rhs.element.name { return lhs.element.name < rhs.element.name }
            if lhs.element.kind != rhs.element.kind { return lhs.element.kind.rawValue < rhs.element.kind.rawValue }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// Why a snapshot file could not be read.
public enum LayoutSnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file was written by a newer typeinfo than this one.
    case unsupportedVersion(found: Int, supported: Int)
    /// The bytes are not a snapshot (nor a layout document); `detail` says where it went wrong.
    case malformed(detail: String)

    /// One sentence saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .unsupportedVersion(let found, let supported):
            return
                "layout snapshot has version \(found), this typeinfo reads up to \(supported): upgrade typeinfo or re-record the snapshot"
        case .malformed(let detail):
            return "not a typeinfo layout snapshot: \(detail)"
        }
    }
}
