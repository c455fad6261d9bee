import Testing
import TypeLayout
@testable import DWARFInfo

/// The pure half of the reader, on entry trees a malformed file could produce.
@Suite struct DebugInfoTreeTests {
    /// A C unit holding `struct s { T m; }`, where the member's type chain is given.
    static func tree(memberType: UInt64, extra: [DebugEntry], reversed: Bool = false) -> DebugInfoTree {
        var unit = DebugEntry(offset: DebugOffset(rawValue: 0x10), tag: DebugTag.compileUnit, parent: nil, unitRoot: 0)
        unit.language = 0x0c  // C99
        var structure = DebugEntry(offset: DebugOffset(rawValue: 0x20), tag: DebugTag.structureType, parent: 0, unitRoot: 0)
        structure.name = "s"
        structure.byteSize = 8
        var member = DebugEntry(offset: DebugOffset(rawValue: 0x30), tag: DebugTag.member, parent: 1, unitRoot: 0)
        member.name = "m"
        member.type = DebugOffset(rawValue: memberType)
        member.dataMemberLocation = 0
        structure.children = [2]
        unit.children = [1] + extra.indices.map { $0 + 3 }
        var entries = [unit, structure, member] + extra
        if reversed {
            // The same tree with its entries out of offset order, indexes remapped.
            let order = Array(entries.indices.reversed())
            let newIndex = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            entries = order.map { old in
                var entry = entries[old]
                entry.parent = entry.parent.flatMap { newIndex[$0] }
                entry.children = entry.children.compactMap { newIndex[$0] }
                entry.unitRoot = newIndex[entry.unitRoot] ?? 0
                return entry
            }
        }
        return DebugInfoTree(entries: entries, isLittleEndian: true, pointerSize: 8)
    }

    static func typedef(at offset: UInt64, named name: String, to target: UInt64) -> DebugEntry {
        var entry = DebugEntry(offset: DebugOffset(rawValue: offset), tag: DebugTag.typedef, parent: 0, unitRoot: 0)
        entry.name = name
        entry.type = DebugOffset(rawValue: target)
        return entry
    }

    @Test("a cyclic typedef chain ends in an unknown size, not a hang")
    func cyclicTypedefs() throws {
        let tree = Self.tree(
            memberType: 0x40,
            extra: [
                Self.typedef(at: 0x40, named: "a", to: 0x50),
                Self.typedef(at: 0x50, named: "b", to: 0x40),
            ])
        let layouts = tree.typeLayouts()
        let layout = try #require(layouts.first)
        #expect(layout.name == "struct s")
        #expect(layout.fields.first?.type == "a")
        #expect(layout.fields.first?.size == nil)
        #expect(layout.alignment == nil)
    }

    @Test("a pointer cycle is spelled without recursing forever")
    func cyclicPointers() throws {
        var pointer = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.pointerType, parent: 0, unitRoot: 0)
        pointer.type = DebugOffset(rawValue: 0x40)
        let tree = Self.tree(memberType: 0x40, extra: [pointer])
        let field = try #require(tree.typeLayouts().first?.fields.first)
        #expect(field.type.hasPrefix("<unknown>"))
        #expect(field.size == 8)
    }

    @Test("a reference to no entry is unknown")
    func danglingReference() throws {
        let tree = Self.tree(memberType: 0x999, extra: [])
        let field = try #require(tree.typeLayouts().first?.fields.first)
        #expect(field.type == "<unknown>")
        #expect(field.size == nil)
        #expect(field.offset == 0)
    }

    @Test("entries out of offset order are still found")
    func unsortedEntries() throws {
        var base = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.baseType, parent: 0, unitRoot: 0)
        base.name = "long"
        base.byteSize = 8
        base.encoding = 0x05
        let sorted = Self.tree(memberType: 0x40, extra: [base]).typeLayouts()
        let unsorted = Self.tree(memberType: 0x40, extra: [base], reversed: true).typeLayouts()
        #expect(sorted == unsorted)
        #expect(sorted.first?.fields.first?.type == "long")
        #expect(sorted.first?.fields.first?.size == 8)
        #expect(sorted.first?.alignment == 8)
    }

    @Test("a bitfield of absurd width gets no byte size, and no trap")
    func hugeBitfield() throws {
        var base = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.baseType, parent: 0, unitRoot: 0)
        base.name = "int"
        base.byteSize = 4
        var tree = Self.tree(memberType: 0x40, extra: [base]).entries
        tree[2].bitSize = UInt64(Int.max)
        tree[2].dataBitOffset = 3
        let layouts = DebugInfoTree(entries: tree, isLittleEndian: true, pointerSize: 8).typeLayouts()
        let field = try #require(layouts.first?.fields.first)
        #expect(field.bitWidth == Int.max)
        #expect(field.size == nil)
        #expect(field.bitOffset == 3)
    }

    @Test("a function type that takes itself is spelled in bounded time")
    func selfReferentialFunction() throws {
        // int (*)(f, f) where f is that same pointer type.
        var pointer = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.pointerType, parent: 0, unitRoot: 0)
        pointer.type = DebugOffset(rawValue: 0x50)
        var function = DebugEntry(offset: DebugOffset(rawValue: 0x50), tag: DebugTag.subroutineType, parent: 0, unitRoot: 0)
        function.children = [5, 6]
        var first = DebugEntry(offset: DebugOffset(rawValue: 0x58), tag: DebugTag.formalParameter, parent: 4, unitRoot: 0)
        first.type = DebugOffset(rawValue: 0x40)
        var second = first
        second.offset = DebugOffset(rawValue: 0x60)
        let tree = Self.tree(memberType: 0x40, extra: [pointer, function, first, second])
        let field = try #require(tree.typeLayouts().first?.fields.first)
        #expect(field.type.contains("<unknown>"))
        #expect(field.size == 8)
    }

    @Test("a corrupt tree of types that doubles at every level is walked in bounded time")
    func exponentialTypeTree() throws {
        // struct s { t0 m; }, and each t_i holds two members of type t_(i+1), 60 levels deep:
        // 2^60 paths. The walk stops at its budget and says "unknown" for what it did not finish.
        var base = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.baseType, parent: 0, unitRoot: 0)
        base.name = "long"
        base.byteSize = 8
        var extra: [DebugEntry] = [base]
        let levels = 60
        for level in 0..<levels {
            let index = 3 + extra.count
            var aggregate = DebugEntry(
                offset: DebugOffset(rawValue: 0x1000 + UInt64(level) * 0x100), tag: DebugTag.structureType, parent: 0, unitRoot: 0)
            aggregate.name = "t\(level)"
            aggregate.byteSize = 8
            var members: [DebugEntry] = []
            for slot in 0..<2 {
                var member = DebugEntry(
                    offset: DebugOffset(rawValue: aggregate.offset.rawValue + 0x10 + UInt64(slot) * 0x10), tag: DebugTag.member,
                    parent: index, unitRoot: 0)
                member.name = "m\(slot)"
                member.dataMemberLocation = 0
                member.type = DebugOffset(rawValue: level + 1 < levels ? aggregate.offset.rawValue + 0x100 : 0x40)
                members.append(member)
            }
            aggregate.children = [index + 1, index + 2]
            extra += [aggregate] + members
        }
        let tree = Self.tree(memberType: 0x1000, extra: extra)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = tree.typeLayouts() }
        #expect(elapsed < .seconds(30))
        #expect(tree.typeLayouts().count == levels + 1)
    }

    @Test("an array whose element count overflows has an unknown size")
    func overflowingArray() throws {
        var base = DebugEntry(offset: DebugOffset(rawValue: 0x40), tag: DebugTag.baseType, parent: 0, unitRoot: 0)
        base.name = "long"
        base.byteSize = 8
        var array = DebugEntry(offset: DebugOffset(rawValue: 0x50), tag: DebugTag.arrayType, parent: 0, unitRoot: 0)
        array.type = DebugOffset(rawValue: 0x40)
        array.children = [5]
        var subrange = DebugEntry(offset: DebugOffset(rawValue: 0x58), tag: DebugTag.subrangeType, parent: 4, unitRoot: 0)
        subrange.count = UInt64(Int.max)
        let tree = Self.tree(memberType: 0x50, extra: [base, array, subrange])
        let field = try #require(tree.typeLayouts().first?.fields.first)
        #expect(field.type == "long[\(Int.max)]")
        #expect(field.size == nil)
    }
}
