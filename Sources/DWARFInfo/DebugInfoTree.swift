import Algorithms

/// All the type-describing entries of one file, linked by index, with the lookups that naming
/// and layout need. Pure Swift: built from ``DebugEntry`` values, never touches libdwarf.
struct DebugInfoTree: Sendable {
    /// The entries in file order; `children` and `parent` are indexes into this array.
    let entries: [DebugEntry]
    /// Whether multi-byte values in the file are little-endian (needed for DWARF 2/3 bitfields).
    let isLittleEndian: Bool
    /// The size of a pointer in the file's architecture (for pointers without `DW_AT_byte_size`).
    let pointerSize: Int
    /// The largest alignment a scalar gets from the platform ABI when the source asks for none:
    /// 4 on i386 (`double`, `long long` and `long double` inside structs), unlimited elsewhere.
    let maximumScalarAlignment: Int

    /// Entries are read in file order, so their offsets ascend and a lookup is a binary search;
    /// this dictionary exists only for a file that breaks that order.
    private let indexByOffset: [DebugOffset: Int]?
    /// For an anonymous struct, union or enum, the first typedef that names it.
    private let typedefNaming: [DebugOffset: Int]

    /// How deep type chains (typedef of const of pointer of ...) are followed before giving up:
    /// a malformed file can make them cyclic.
    static let maximumChainDepth = 64

    init(entries: [DebugEntry], isLittleEndian: Bool, pointerSize: Int, maximumScalarAlignment: Int = .max) {
        self.entries = entries
        self.isLittleEndian = isLittleEndian
        self.pointerSize = pointerSize
        self.maximumScalarAlignment = maximumScalarAlignment
        let ascending = zip(entries.indices.dropFirst(), entries.indices).allSatisfy { entries[$0].offset > entries[$1].offset }
        var index: [DebugOffset: Int]?
        if !ascending {
            var byOffset: [DebugOffset: Int] = [:]
            for position in entries.indices { byOffset[entries[position].offset] = position }
            index = byOffset
        }
        self.indexByOffset = index
        var naming: [DebugOffset: Int] = [:]
        for position in entries.indices where entries[position].tag == DebugTag.typedef {
            guard let targetIndex = Self.lookUp(entries[position].type, in: entries, index: index) else { continue }
            let target = entries[targetIndex].offset
            if DebugTag.isLayoutType(entries[targetIndex].tag), entries[targetIndex].name == nil, naming[target] == nil {
                naming[target] = position
            }
        }
        self.typedefNaming = naming
    }

    /// The index of the entry at `offset`, if the file has one there.
    /// A declaration stub that names its type unit (`DW_AT_signature`) stands for the full
    /// type there.
    func index(of offset: DebugOffset?) -> Int? {
        guard let position = Self.lookUp(offset, in: entries, index: indexByOffset) else { return nil }
        if let definition = entries[position].definition,
            let full = Self.lookUp(definition, in: entries, index: indexByOffset)
        {
            return full
        }
        return position
    }

    private static func lookUp(_ offset: DebugOffset?, in entries: [DebugEntry], index: [DebugOffset: Int]?) -> Int? {
        guard let offset else { return nil }
        if let index { return index[offset] }
        let low = entries.partitioningIndex { $0.offset >= offset }
        return low < entries.count && entries[low].offset == offset ? low : nil
    }

    /// The typedef that names the anonymous type at `index`, if any.
    func namingTypedef(of index: Int) -> Int? {
        typedefNaming[entries[index].offset]
    }

    /// The source language of the unit holding the entry; in a unit of no known language (not C,
    /// C++ or Swift), a type marked Swift's (`DW_AT_APPLE_runtime_class`) counts as Swift. A C or
    /// C++ unit's types are that language's: a reading of other languages skips those units.
    func language(of index: Int) -> SourceLanguage {
        let entry = entries[index]
        let unitLanguage = SourceLanguage(dwarfLanguage: entries[entry.unitRoot].language)
        if unitLanguage == .other, entry.runtimeClass == 0x1e { return .swift }
        return unitLanguage
    }

    /// Whether the unit holding the entry records every explicit alignment (`DW_AT_alignment`):
    /// DWARF 5 units do, and clang's at any version. Elsewhere (GCC before DWARF 5) an
    /// `_Alignas` or `aligned` leaves no trace but the offsets.
    func unitRecordsAlignment(of index: Int) -> Bool {
        let unit = entries[entries[index].unitRoot]
        return unit.unitVersion >= 5 || unit.isClangUnit
    }

    /// Follows typedefs and qualifiers (`const`, `volatile`, ...) to the type they stand for.
    ///
    /// - Returns: the index of the underlying entry, or `nil` for `void`, a missing entry or a cycle.
    func stripTypedefsAndQualifiers(_ offset: DebugOffset?) -> Int? {
        var current = index(of: offset)
        var depth = 0
        while let position = current, depth < Self.maximumChainDepth {
            switch entries[position].tag {
            case DebugTag.typedef, DebugTag.constType, DebugTag.volatileType, DebugTag.restrictType,
                DebugTag.atomicType, DebugTag.immutableType:
                current = index(of: entries[position].type)
                depth += 1
            default:
                return position
            }
        }
        return nil
    }

    /// The size in bytes of the type at `offset`, following typedefs, qualifiers and arrays.
    func byteSize(ofType offset: DebugOffset?, depth: Int = 0) -> Int? {
        guard depth < Self.maximumChainDepth, let position = index(of: offset) else { return nil }
        let entry = entries[position]
        if let size = entry.byteSize {
            return Int(exactly: size)
        }
        switch entry.tag {
        case DebugTag.typedef, DebugTag.constType, DebugTag.volatileType, DebugTag.restrictType,
            DebugTag.atomicType, DebugTag.immutableType:
            return byteSize(ofType: entry.type, depth: depth + 1)
        case DebugTag.pointerType, DebugTag.referenceType, DebugTag.rvalueReferenceType:
            return pointerSize
        case DebugTag.arrayType:
            guard let elementSize = byteSize(ofType: entry.type, depth: depth + 1) else { return nil }
            var total = elementSize
            for count in arrayDimensions(of: position) {
                guard let count else { return nil }
                let (product, overflow) = total.multipliedReportingOverflow(by: count)
                if overflow { return nil }
                total = product
            }
            return total
        default:
            return nil
        }
    }

    /// The element counts of an array entry's dimensions, outermost first; `nil` for a
    /// dimension without a known count (a flexible array member).
    func arrayDimensions(of index: Int) -> [Int?] {
        entries[index].children.compactMap { child -> Int?? in
            let subrange = entries[child]
            guard subrange.tag == DebugTag.subrangeType else { return nil }
            if let count = subrange.count {
                return .some(Int(exactly: count))
            }
            if let upper = subrange.upperBound {
                // C arrays count from zero unless DW_AT_lower_bound says otherwise; the
                // languages this reader names all start at zero.
                let (count, overflow) = upper.addingReportingOverflow(1)
                return .some(overflow || count < 0 ? nil : Int(exactly: count))
            }
            return .some(nil)
        }
    }
}
