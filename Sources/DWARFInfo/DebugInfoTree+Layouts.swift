import TypeLayout

// From entries to `TypeLayout` values. Every number comes from the file; arithmetic on those
// numbers is overflow-checked and an overflow makes the fact unknown (`nil`).

extension DebugInfoTree {
    /// The layouts of every complete, named struct, class, union and enum in the file, in file
    /// order, with exact duplicates (the same type described by several units) removed.
    func typeLayouts(languages: DWARFLanguages = .all) -> [TypeLayout] {
        var seen = SeenLayouts()
        return typeLayouts(languages: languages, leavingOut: &seen)
    }

    /// As ``typeLayouts(languages:)``, leaving out the layouts in `seen` and adding those it
    /// returns (a reading unit by unit keeps one set for the file).
    func typeLayouts(languages: DWARFLanguages, leavingOut seen: inout SeenLayouts) -> [TypeLayout] {
        var result: [TypeLayout] = []
        var walk = LayoutWalk()
        for index in entries.indices where DebugTag.isLayoutType(entries[index].tag) {
            let language: DWARFLanguages
            switch self.language(of: index) {
            case .swift: language = .swift
            case .cPlusPlus: language = .cPlusPlus
            case .c, .other: language = .c
            }
            guard languages.contains(language) else { continue }
            guard let layout = layout(of: index, walk: &walk), seen.insert(layout) else { continue }
            result.append(layout)
        }
        return result
    }

    /// The layout of the aggregate or enum at `index`, or `nil` when the entry is only a
    /// declaration, has no size (an incomplete type), is anonymous, or is a Swift generic
    /// specialisation or compiler builtin.
    func layout(of index: Int, walk: inout LayoutWalk) -> TypeLayout? {
        let entry = entries[index]
        guard !entry.isDeclaration, let rawSize = entry.byteSize, let size = Int(exactly: rawSize) else { return nil }
        guard let name = layoutName(of: index) else { return nil }
        if language(of: index) == .swift {
            return swiftLayout(of: index, name: name, size: size)
        }
        return cLayout(of: index, name: name, size: size, walk: &walk)
    }

    // MARK: C and C++

    private func cLayout(of index: Int, name: String, size: Int, walk: inout LayoutWalk) -> TypeLayout {
        let entry = entries[index]
        let kind: TypeKind
        switch entry.tag {
        case DebugTag.unionType: kind = .union
        case DebugTag.enumerationType: kind = .enum
        case DebugTag.classType: kind = .class
        default: kind = .struct
        }
        var layout = TypeLayout(name: name, kind: kind, size: size, source: .dwarf)
        walk.budget = Self.walkBudget
        layout.alignment = alignment(ofTypeAt: index, depth: 0, walk: &walk)
        // C's sizeof already includes tail padding: the stride of a C type is its size.
        layout.stride = size
        if kind == .enum {
            layout.cases = entry.children.compactMap { child in
                entries[child].tag == DebugTag.enumerator ? entries[child].name.map { EnumCaseLayout(name: $0) } : nil
            }
            return layout
        }
        var fields: [FieldLayout] = []
        var superclass: String?
        collectFields(of: index, base: 0, into: &fields, superclass: &superclass, depth: 0, walk: &walk)
        layout.fields = fields
        layout.superclass = superclass
        return layout
    }

    /// Appends the data members of the aggregate at `index`, at `base` bytes into the outer
    /// value: base-class members first (C++), anonymous struct and union members flattened
    /// (C11 and C++ let you name their members directly, and so does `offsetof`).
    private func collectFields(
        of index: Int, base: Int, into fields: inout [FieldLayout], superclass: inout String?, depth: Int,
        walk: inout LayoutWalk
    ) {
        guard depth < Self.maximumChainDepth, walk.budget > 0 else { return }
        walk.budget -= 1
        let facts = aggregateFacts(of: index, depth: depth, walk: &walk)
        for child in entries[index].children {
            let member = entries[child]
            if member.tag == DebugTag.inheritance {
                guard let baseIndex = stripTypedefsAndQualifiers(member.type) else { continue }
                if superclass == nil, depth == 0 { superclass = layoutName(of: baseIndex) }
                var ignored: String?
                let offset = member.memberOffset.flatMap { Self.add(base, $0) }
                if let offset {
                    collectFields(of: baseIndex, base: offset, into: &fields, superclass: &ignored, depth: depth + 1, walk: &walk)
                }
                continue
            }
            // Static data members are declarations (DWARF 4) and take no storage here.
            guard member.tag == DebugTag.member, !member.isDeclaration else { continue }
            let location = member.memberOffset
            if member.name == nil, let nested = stripTypedefsAndQualifiers(member.type),
                entries[nested].name == nil,
                entries[nested].tag == DebugTag.structureType || entries[nested].tag == DebugTag.unionType,
                let offset = location.flatMap({ Self.add(base, $0) })
            {
                var ignored: String?
                collectFields(of: nested, base: offset, into: &fields, superclass: &ignored, depth: depth + 1, walk: &walk)
                continue
            }
            // An unnamed bitfield is padding that no code can name: not a field.
            guard member.name != nil || member.bitSize == nil else { continue }
            var field = field(for: member, location: location, base: base)
            if field.bitWidth == nil, !facts.overAlignedMembers.contains(child) {
                // A member of a packed aggregate is aligned to 1, as the compiler's __alignof__ says.
                field.alignment =
                    member.alignment.flatMap { Int(exactly: $0) }
                    ?? (facts.isPacked ? 1 : self.index(of: member.type).flatMap { alignment(ofTypeAt: $0, depth: depth + 1, walk: &walk) })
            }
            fields.append(field)
        }
    }

    private func field(for member: DebugEntry, location: UInt64?, base: Int) -> FieldLayout {
        var field = FieldLayout(name: member.name ?? "", type: typeName(of: member.type))
        // The virtual table pointer: GCC calls it `_vptr.Shape` of type `int (**)(...)`, clang
        // `_vptr$Shape` of type `int (**)()`. One spelling (clang's), so that a snapshot does not
        // change with the compiler.
        if let name = member.name, name.hasPrefix("_vptr.") || name.hasPrefix("_vptr$") {
            field.name = "_vptr$" + name.dropFirst("_vptr.".count)
            field.type = "int (**)()"
        }
        guard let bitWidth = member.bitSize.flatMap({ Int(exactly: $0) }) else {
            field.offset = location.flatMap { Self.add(base, $0) }
            field.size = byteSize(ofType: member.type)
            return field
        }
        field.bitWidth = bitWidth
        guard let firstBit = firstBit(of: member, location: location, bitWidth: bitWidth),
            let byteOffset = Self.add(base, firstBit / 8)
        else { return field }
        field.offset = byteOffset
        field.bitOffset = Int(firstBit % 8)
        // The bytes the bitfield touches (a width from a corrupt file can be huge).
        let (lastBit, overflow) = bitWidth.addingReportingOverflow(Int(firstBit % 8) + 7)
        field.size = overflow ? nil : lastBit / 8
        return field
    }

    /// The bitfield's first bit, counted from the start of its enclosing aggregate with bit 0
    /// the least significant bit of byte 0 (little-endian) or the most significant (big-endian).
    private func firstBit(of member: DebugEntry, location: UInt64?, bitWidth: Int) -> UInt64? {
        if let dataBitOffset = member.dataBitOffset {
            return dataBitOffset
        }
        // DWARF 2/3: DW_AT_bit_offset counts from the most significant bit of a storage unit
        // of DW_AT_byte_size bytes at DW_AT_data_member_location.
        guard let legacy = member.legacyBitOffset, let location else {
            guard let location else { return nil }
            let (bit, overflow) = location.multipliedReportingOverflow(by: 8)
            return overflow ? nil : bit
        }
        guard let unitSize = member.byteSize ?? byteSize(ofType: member.type).flatMap({ UInt64(exactly: $0) }) else {
            return nil
        }
        let (unitStart, overflowStart) = location.multipliedReportingOverflow(by: 8)
        if overflowStart { return nil }
        if !isLittleEndian {
            let (bit, overflow) = unitStart.addingReportingOverflow(legacy)
            return overflow ? nil : bit
        }
        let (unitBits, overflowBits) = unitSize.multipliedReportingOverflow(by: 8)
        let (end, overflowEnd) = legacy.addingReportingOverflow(UInt64(bitWidth))
        guard !overflowBits, !overflowEnd, end <= unitBits else { return nil }
        let (bit, overflow) = unitStart.addingReportingOverflow(unitBits - legacy - UInt64(bitWidth))
        return overflow ? nil : bit
    }

    /// The natural alignment by the platform C ABI (System V x86-64 and i386, AAPCS64 and AAPCS):
    /// DWARF records an alignment only when the source asked for one (`DW_AT_alignment`), so
    /// otherwise it is derived from the members: scalars align to their size (complex numbers
    /// to their part's size; at most 4 on i386), aggregates to their strictest member, and an aggregate whose
    /// members sit off their natural alignment is packed (alignment 1).
    func alignment(ofTypeAt index: Int, depth: Int, walk: inout LayoutWalk) -> Int? {
        guard depth < Self.maximumChainDepth, walk.budget > 0 else { return nil }
        if let known = walk.alignments[index] { return known }
        walk.budget -= 1
        let alignment = uncachedAlignment(ofTypeAt: index, depth: depth, walk: &walk)
        walk.alignments[index] = alignment
        return alignment
    }

    private func uncachedAlignment(ofTypeAt index: Int, depth: Int, walk: inout LayoutWalk) -> Int? {
        let entry = entries[index]
        if let explicit = entry.alignment { return Int(exactly: explicit) }
        switch entry.tag {
        case DebugTag.baseType:
            guard let size = entry.byteSize.flatMap({ Int(exactly: $0) }), size > 0 else { return nil }
            // DW_ATE_complex_float aligns to its parts; long double's size (10 bytes of data in
            // 12 or 16) is already a multiple of its alignment on the supported ABIs.
            let natural = entry.encoding == 0x03 ? max(size / 2, 1) : size
            return min(natural, maximumScalarAlignment)
        case DebugTag.pointerType, DebugTag.referenceType, DebugTag.rvalueReferenceType:
            return min(entry.byteSize.flatMap { Int(exactly: $0) } ?? pointerSize, maximumScalarAlignment)
        case DebugTag.enumerationType:
            if let underlying = self.index(of: entry.type) { return alignment(ofTypeAt: underlying, depth: depth + 1, walk: &walk) }
            return entry.byteSize.flatMap { Int(exactly: $0) }
        case DebugTag.typedef, DebugTag.constType, DebugTag.volatileType, DebugTag.restrictType,
            DebugTag.atomicType, DebugTag.arrayType:
            guard let target = self.index(of: entry.type) else { return nil }
            return alignment(ofTypeAt: target, depth: depth + 1, walk: &walk)
        case DebugTag.structureType, DebugTag.classType, DebugTag.unionType:
            return aggregateAlignment(of: index, depth: depth, walk: &walk)
        default:
            return nil
        }
    }

    private func aggregateAlignment(of index: Int, depth: Int, walk: inout LayoutWalk) -> Int? {
        aggregateFacts(of: index, depth: depth, walk: &walk).alignment
    }

    /// What the members of an aggregate say about its alignment.
    struct AggregateFacts {
        /// The aggregate's alignment, or nil when DWARF does not establish it.
        var alignment: Int?
        /// A member sits off its natural alignment: the aggregate is packed.
        var isPacked = false
        /// Members placed further than their type's natural alignment requires: they were
        /// aligned by something DWARF before version 5 does not record (`_Alignas`, `aligned`),
        /// so their alignment is unknown.
        var overAlignedMembers: Set<Int> = []
    }

    /// Lays the members out again by the natural rule and compares with where DWARF says they
    /// are: a member off its alignment means packed. In a unit that may leave explicit
    /// alignments unrecorded (GCC before DWARF 5), a member (or the whole aggregate) further out
    /// than the rule puts it means such an alignment, which stays unknown rather than guessed.
    func aggregateFacts(of index: Int, depth: Int, walk: inout LayoutWalk) -> AggregateFacts {
        var facts = AggregateFacts()
        let isUnion = entries[index].tag == DebugTag.unionType
        // Where every explicit alignment is recorded, the natural rule is exact.
        let suspectHiddenAlignment = !unitRecordsAlignment(of: index)
        var strictest = 1
        var end: UInt64 = 0
        var unknown = false
        for child in entries[index].children {
            let member = entries[child]
            guard member.tag == DebugTag.member || member.tag == DebugTag.inheritance, !member.isDeclaration else { continue }
            let explicit = member.alignment.flatMap { Int(exactly: $0) }
            guard let typeIndex = self.index(of: member.type),
                let memberAlignment = explicit ?? alignment(ofTypeAt: typeIndex, depth: depth + 1, walk: &walk),
                memberAlignment > 0
            else {
                unknown = true
                continue
            }
            strictest = max(strictest, memberAlignment)
            if let width = member.bitSize {
                // A bitfield occupies bits, not whole members: it only moves the end.
                if let first = member.dataBitOffset ?? member.memberOffset.map({ $0 &* 8 }) {
                    let (last, overflow) = first.addingReportingOverflow(width)
                    if !overflow { end = max(end, (last &+ 7) / 8) }
                }
                continue
            }
            guard let location = member.memberOffset else {
                unknown = true
                continue
            }
            if location % UInt64(memberAlignment) != 0 {
                facts.isPacked = true
                facts.alignment = 1
                return facts
            }
            if suspectHiddenAlignment, !isUnion, explicit == nil, location > Self.roundUp(end, to: memberAlignment) {
                facts.overAlignedMembers.insert(child)
            }
            let size = byteSize(ofType: member.type).flatMap { UInt64(exactly: $0) } ?? 0
            let (memberEnd, overflow) = location.addingReportingOverflow(size)
            if !overflow { end = max(end, memberEnd) }
        }
        guard let size = entries[index].byteSize else {
            facts.alignment = unknown || !facts.overAlignedMembers.isEmpty ? nil : strictest
            return facts
        }
        if size % UInt64(strictest) != 0 {
            facts.isPacked = true
            facts.alignment = 1
            return facts
        }
        let natural = size == 0 ? 0 : Self.roundUp(max(end, 1), to: strictest)
        let overAligned = suspectHiddenAlignment && (size > natural || !facts.overAlignedMembers.isEmpty)
        facts.alignment = unknown || overAligned ? nil : strictest
        return facts
    }

    static func roundUp(_ value: UInt64, to alignment: Int) -> UInt64 {
        let step = UInt64(max(alignment, 1))
        let (rounded, overflow) = value.addingReportingOverflow(step - 1)
        return overflow ? value : rounded / step * step
    }

    /// How many aggregate and alignment steps one type's layout may take. Alignments are
    /// remembered across types, so a real file needs a step per type entry at most; the budget
    /// stops a corrupt file whose types form a deep lattice.
    static let walkBudget = 100_000

    static func add(_ base: Int, _ offset: UInt64) -> Int? {
        guard let offset = Int(exactly: offset) else { return nil }
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? nil : sum
    }
}

/// State shared by the layouts of one file: alignments already worked out (the same member
/// types recur in every unit) and the steps left for the current type.
struct LayoutWalk {
    var budget = DebugInfoTree.walkBudget
    var alignments: [Int: Int?] = [:]
}

/// The layouts a reading has kept, for leaving out exact duplicates (the same type described
/// by several units). Looked up by name first: hashing a whole layout, every field's name and
/// type included, cost about 10,000 instructions an insertion, and layouts under one name are few.
struct SeenLayouts {
    private var byName: [String: [TypeLayout]] = [:]

    /// Adds `layout` unless an identical one is there; returns whether it was added.
    mutating func insert(_ layout: TypeLayout) -> Bool {
        if byName[layout.name]?.contains(layout) == true { return false }
        byName[layout.name, default: []].append(layout)
        return true
    }
}
