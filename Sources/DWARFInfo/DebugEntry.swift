/// A global offset of a debugging information entry in `.debug_info` (or `.debug_types`).
struct DebugOffset: Hashable, Comparable, Sendable {
    /// The section offset in the low 48 bits; above it the section group (bits 48 to 62) and
    /// ``typesSectionBit`` for `.debug_types`. Each group's sections, and `.debug_types`, count
    /// from zero like `.debug_info`; no real section is 2^48 bytes long.
    var rawValue: UInt64

    /// Marks offsets into `.debug_types` (DWARF 4 type units).
    static let typesSectionBit: UInt64 = 1 << 63
    /// Offsets at or past this are not representable (and not real).
    static let maximumSectionOffset: UInt64 = 1 << 48
    /// Section group numbers at or past this are not read.
    static let maximumGroup: UInt64 = 1 << 15

    /// The bits that mark which section and group an offset belongs to.
    static func tag(group: UInt64, isInfo: Bool) -> UInt64 {
        (group % maximumGroup) << 48 | (isInfo ? 0 : typesSectionBit)
    }

    static func < (lhs: DebugOffset, rhs: DebugOffset) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The facts of one debugging information entry (DIE) that type layouts need, copied out of
/// libdwarf into plain Swift values so that everything above the wrapper is safe and testable.
///
/// Attributes the file does not carry are `nil`; an attribute carried in a form this reader
/// does not understand is also `nil` (the layout then says "unknown" rather than guessing).
///
/// A large binary has hundreds of thousands of these, so the numeric attributes are stored
/// unboxed with one presence bit each (8 bytes rather than an optional's 16), and only those
/// present take a place.
struct DebugEntry: Sendable {
    /// Where the entry is in `.debug_info`.
    var offset: DebugOffset
    /// The `DW_TAG_*` value.
    var tag: UInt16
    var isDeclaration = false
    /// The entry has a `DW_AT_data_member_location` this reader cannot evaluate (a virtual
    /// base's location expression, say): its offset is unknown, not 0.
    var hasUnreadableMemberLocation = false
    /// On a unit's root: the unit's DWARF version.
    var unitVersion: UInt16 = 0
    /// On a unit's root: `DW_AT_producer` names clang, which records `DW_AT_alignment` for
    /// every explicit alignment whatever the DWARF version.
    var isClangUnit = false
    /// The index of the parent entry in ``DebugInfoTree/entries``; `nil` for a unit's root.
    var parent: Int?
    /// Indexes of the children in ``DebugInfoTree/entries``, in file order.
    var children: [Int] = []
    /// The index of the root of the unit holding this entry.
    var unitRoot: Int

    var name: String?
    var linkageName: String?

    private enum Slot: Int, CaseIterable {
        case byteSize, bitSize, dataMemberLocation, dataBitOffset, legacyBitOffset, type, typeSignature
        case definitionSignature, definition, specification, upperBound, count, alignment, language
        case encoding, runtimeClass
    }

    /// Which ``Slot``s hold a value.
    private var present: UInt32 = 0
    /// The values of the present slots in slot order: the first ``inlineCount`` here, the rest
    /// in `overflow`. Most entries carry two or three numbers (a member: its type and offset),
    /// so sixteen fixed places would be mostly empty in every one of a large file's entries.
    private var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var overflow: [UInt64] = []
    private static let inlineCount = 4

    init(offset: DebugOffset, tag: UInt16, parent: Int?, unitRoot: Int) {
        self.offset = offset
        self.tag = tag
        self.parent = parent
        self.unitRoot = unitRoot
    }

    /// Where the value of `slot` is (or goes) among the present slots' values.
    private func position(of slot: Slot) -> Int {
        (present & ((1 << UInt32(slot.rawValue)) - 1)).nonzeroBitCount
    }

    private func value(at position: Int) -> UInt64 {
        guard position < Self.inlineCount else { return overflow[position - Self.inlineCount] }
        return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: position * 8, as: UInt64.self) }
    }

    private mutating func store(_ value: UInt64, at position: Int) {
        guard position < Self.inlineCount else {
            overflow[position - Self.inlineCount] = value
            return
        }
        withUnsafeMutableBytes(of: &inline) { $0.storeBytes(of: value, toByteOffset: position * 8, as: UInt64.self) }
    }

    private func get(_ slot: Slot) -> UInt64? {
        present & (1 << UInt32(slot.rawValue)) == 0 ? nil : value(at: position(of: slot))
    }

    private mutating func set(_ slot: Slot, _ value: UInt64?) {
        let bit: UInt32 = 1 << UInt32(slot.rawValue)
        let index = position(of: slot)
        let count = present.nonzeroBitCount
        switch (present & bit != 0, value) {
        case (true, let value?):
            store(value, at: index)
        case (false, let value?):
            // Make room at `index`: the later values move up one place.
            if count >= Self.inlineCount { overflow.append(0) }
            var place = count
            while place > index {
                store(self.value(at: place - 1), at: place)
                place -= 1
            }
            store(value, at: index)
            present |= bit
        case (true, nil):
            for place in index..<(count - 1) { store(self.value(at: place + 1), at: place) }
            if count > Self.inlineCount { overflow.removeLast() }
            present &= ~bit
        case (false, nil):
            break
        }
    }

    var byteSize: UInt64? {
        get { get(.byteSize) }
        set { set(.byteSize, newValue) }
    }
    var bitSize: UInt64? {
        get { get(.bitSize) }
        set { set(.bitSize, newValue) }
    }
    /// `DW_AT_data_member_location` as a constant, or decoded from a `DW_OP_plus_uconst` expression;
    /// see ``memberOffset``.
    var dataMemberLocation: UInt64? {
        get { get(.dataMemberLocation) }
        set { set(.dataMemberLocation, newValue) }
    }
    var dataBitOffset: UInt64? {
        get { get(.dataBitOffset) }
        set { set(.dataBitOffset, newValue) }
    }
    /// The DWARF 2/3 `DW_AT_bit_offset`: bits from the most significant bit of the storage unit.
    var legacyBitOffset: UInt64? {
        get { get(.legacyBitOffset) }
        set { set(.legacyBitOffset, newValue) }
    }
    var type: DebugOffset? {
        get { get(.type).map(DebugOffset.init(rawValue:)) }
        set { set(.type, newValue?.rawValue) }
    }
    /// A `DW_FORM_ref_sig8` type reference, resolved to ``type`` once every type unit is read.
    var typeSignature: UInt64? {
        get { get(.typeSignature) }
        set { set(.typeSignature, newValue) }
    }
    /// `DW_AT_signature` of a declaration stub: the type unit that defines the type.
    var definitionSignature: UInt64? {
        get { get(.definitionSignature) }
        set { set(.definitionSignature, newValue) }
    }
    /// ``definitionSignature`` resolved: where the full type is.
    var definition: DebugOffset? {
        get { get(.definition).map(DebugOffset.init(rawValue:)) }
        set { set(.definition, newValue?.rawValue) }
    }
    var specification: DebugOffset? {
        get { get(.specification).map(DebugOffset.init(rawValue:)) }
        set { set(.specification, newValue?.rawValue) }
    }
    var upperBound: Int64? {
        get { get(.upperBound).map { Int64(bitPattern: $0) } }
        set { set(.upperBound, newValue.map { UInt64(bitPattern: $0) }) }
    }
    var count: UInt64? {
        get { get(.count) }
        set { set(.count, newValue) }
    }
    var alignment: UInt64? {
        get { get(.alignment) }
        set { set(.alignment, newValue) }
    }
    var language: UInt64? {
        get { get(.language) }
        set { set(.language, newValue) }
    }
    var encoding: UInt64? {
        get { get(.encoding) }
        set { set(.encoding, newValue) }
    }
    /// `DW_AT_APPLE_runtime_class`: `DW_LANG_Swift` on Swift types.
    var runtimeClass: UInt64? {
        get { get(.runtimeClass) }
        set { set(.runtimeClass, newValue) }
    }

    /// The member's offset in its aggregate: `DW_AT_data_member_location`, or 0 when the
    /// attribute is absent (DWARF 5, 5.7.6: a member at the start of its aggregate, and any union
    /// member, needs none; GCC leaves it out), or unknown when it is there but not a constant.
    var memberOffset: UInt64? {
        if let dataMemberLocation { return dataMemberLocation }
        return hasUnreadableMemberLocation ? nil : 0
    }
}
