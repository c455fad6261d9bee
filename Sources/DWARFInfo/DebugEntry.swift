/// A global offset of a debugging information entry in `.debug_info` (or `.debug_types`).
struct DebugOffset: Hashable, Comparable, Sendable {
    /// The section offset; ``typesSectionBit`` set for an entry of `.debug_types`.
    var rawValue: UInt64

    /// Marks offsets into `.debug_types` (DWARF 4 type units), which count from zero like
    /// `.debug_info`'s. No real section is 2^63 bytes long.
    static let typesSectionBit: UInt64 = 1 << 63

    static func < (lhs: DebugOffset, rhs: DebugOffset) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The facts of one debugging information entry (DIE) that type layouts need, copied out of
/// libdwarf into plain Swift values so that everything above the wrapper is safe and testable.
///
/// Attributes the file does not carry are `nil`; an attribute carried in a form this reader
/// does not understand is also `nil` (the layout then says "unknown" rather than guessing).
struct DebugEntry: Sendable {
    /// Where the entry is in `.debug_info`.
    var offset: DebugOffset
    /// The `DW_TAG_*` value.
    var tag: UInt16
    /// The index of the parent entry in ``DebugInfoTree/entries``; `nil` for a unit's root.
    var parent: Int?
    /// Indexes of the children in ``DebugInfoTree/entries``, in file order.
    var children: [Int] = []
    /// The index of the root of the unit holding this entry.
    var unitRoot: Int

    var name: String?
    var linkageName: String?
    var byteSize: UInt64?
    var bitSize: UInt64?
    /// `DW_AT_data_member_location` as a constant, or decoded from a `DW_OP_plus_uconst` expression.
    var dataMemberLocation: UInt64?
    var dataBitOffset: UInt64?
    /// The DWARF 2/3 `DW_AT_bit_offset`: bits from the most significant bit of the storage unit.
    var legacyBitOffset: UInt64?
    var type: DebugOffset?
    /// A `DW_FORM_ref_sig8` type reference, resolved to ``type`` once every type unit is read.
    var typeSignature: UInt64?
    /// `DW_AT_signature` of a declaration stub: the type unit that defines the type.
    var definitionSignature: UInt64?
    /// ``definitionSignature`` resolved: where the full type is.
    var definition: DebugOffset?
    var specification: DebugOffset?
    var isDeclaration = false
    var isArtificial = false
    var upperBound: Int64?
    var count: UInt64?
    var constValue: Int64?
    var alignment: UInt64?
    var language: UInt64?
    var encoding: UInt64?
    /// `DW_AT_APPLE_runtime_class`: `DW_LANG_Swift` on Swift types.
    var runtimeClass: UInt64?
    /// `DW_AT_decl_line`, used to tell anonymous types apart.
    var declLine: UInt64?
}
