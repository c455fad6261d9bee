import CLibDwarf

// The first pass over a Swift unit's top-level names: a reading of a few types decides from
// them, without reading any entry's attributes but a name, whether the unit is read whole.

/// The top-level types a Swift unit must describe to be read whole: Swift puts a nominal type
/// (`NIOCore.ByteBuffer`), and each type nested in it (`NIOCore.ByteBuffer.CopyBytesError`),
/// inside the outermost type's entry, a child of the unit's `DW_TAG_module` for its module.
struct SwiftUnitKeys: Sendable {
    /// For each module name, the names of its wanted outermost types.
    var outermostTypes: [String: Set<String>] = [:]

    /// The keys of `names`, or nil when a name has no module and outermost type this can tell
    /// (generic arguments, private or local contexts): the reading then reads every unit.
    init?(names: Set<String>) {
        for name in names {
            guard !name.contains("<"), !name.contains("(") else { return nil }
            let components = name.split(separator: ".", omittingEmptySubsequences: false)
            guard components.count >= 2, components.allSatisfy({ !$0.isEmpty }) else { return nil }
            outermostTypes[String(components[0]), default: []].insert(String(components[1]))
        }
    }
}

extension LibDwarfFile {
    /// Whether the unit whose root is `root` has, as a child of a module entry named for a key's
    /// module, a struct, class, union or enum entry named for one of its outermost types.
    ///
    /// Only tags and names are read. libdwarf still walks each child's subtree to reach the next
    /// sibling (the file has no `DW_AT_sibling` to jump with), except after a module whose
    /// children were all looked at: the entry after it is found from where that stopped.
    ///
    /// - Parameters:
    ///   - unitEnd: the offset just past the unit.
    ///   - jumping: as `readEntries`' `jumpsPastTopLevel`.
    func holdsTopLevelType(_ keys: SwiftUnitKeys, in root: Dwarf_Die, unitOffset: UInt64, unitEnd: UInt64, jumping: Bool)
        throws(DWARFReaderError) -> Bool
    {
        var found = false
        try forEachChild(of: root, at: unitOffset, unitEnd: unitEnd) { (child, tag) throws(DWARFReaderError) -> ChildStep in
            guard tag == DebugTag.module, let module = name(of: child), let wanted = keys.outermostTypes[module] else { return .sibling }
            var lastChild: Dwarf_Off?
            try forEachChild(of: child, at: unitOffset, unitEnd: unitEnd) { (type, tag) throws(DWARFReaderError) -> ChildStep in
                lastChild = try offset(of: type, unitOffset: unitOffset)
                guard DebugTag.isLayoutType(tag), let name = name(of: type), wanted.contains(name) else { return .sibling }
                found = true
                return .stop
            }
            if found { return .stop }
            guard jumping, let lastChild else { return .sibling }
            return .pastSubtree(of: try offset(of: child, unitOffset: unitOffset), lastVisited: lastChild)
        }
        return found
    }

    /// What ``forEachChild(of:at:unitEnd:_:)`` does after a child.
    private enum ChildStep {
        /// Goes on to the next sibling, which libdwarf finds by walking the child's subtree.
        case sibling
        /// Stops.
        case stop
        /// Goes on to the entry after the subtree of this top-level entry, whose entry visited
        /// last (in file order) is given (``nextTopLevelEntry(after:lastVisited:unitEnd:isInfo:)``).
        case pastSubtree(of: Dwarf_Off, lastVisited: Dwarf_Off)
    }

    /// Calls `body` with each child of `parent` and its tag, until `body` says stop.
    private func forEachChild(
        of parent: Dwarf_Die, at unitOffset: UInt64, unitEnd: UInt64, _ body: (Dwarf_Die, UInt16) throws(DWARFReaderError) -> ChildStep
    ) throws(DWARFReaderError) {
        var error: Dwarf_Error?
        var child: Dwarf_Die?
        let childResult = dwarf_child(parent, &child, &error)
        if childResult == DW_DLV_NO_ENTRY { return }
        guard childResult == DW_DLV_OK, var current = child else { throw fail(error, offset: unitOffset) }
        while true {
            var tag: Dwarf_Half = 0
            guard dwarf_tag(current, &tag, &error) == DW_DLV_OK else {
                dwarf_dealloc_die(current)
                throw fail(error, offset: unitOffset)
            }
            let step: ChildStep
            do {
                step = try body(current, tag)
            } catch {
                dwarf_dealloc_die(current)
                throw error
            }
            var sibling: Dwarf_Die?
            let siblingResult: Int32
            switch step {
            case .stop:
                siblingResult = DW_DLV_NO_ENTRY
            case .sibling:
                siblingResult = dwarf_siblingof_b(debug, current, 1, &sibling, &error)
            case .pastSubtree(let offset, let lastVisited):
                do {
                    sibling = try nextTopLevelEntry(after: offset, lastVisited: lastVisited, unitEnd: unitEnd, isInfo: true)
                } catch {
                    dwarf_dealloc_die(current)
                    throw error
                }
                siblingResult = sibling == nil ? DW_DLV_NO_ENTRY : DW_DLV_OK
            }
            dwarf_dealloc_die(current)
            if siblingResult == DW_DLV_NO_ENTRY { return }
            guard siblingResult == DW_DLV_OK, let sibling else { throw fail(error, offset: unitOffset) }
            current = sibling
        }
    }

    /// The entry's section offset.
    private func offset(of die: Dwarf_Die, unitOffset: UInt64) throws(DWARFReaderError) -> Dwarf_Off {
        var offset: Dwarf_Off = 0
        var error: Dwarf_Error?
        guard dwarf_dieoffset(die, &offset, &error) == DW_DLV_OK else { throw fail(error, offset: unitOffset) }
        return offset
    }

    /// The entry's `DW_AT_name`, or nil when it has none or libdwarf cannot read it.
    private func name(of die: Dwarf_Die) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard succeeds({ dwarf_diename(die, &text, &$0) }), let text else { return nil }
        return String(cString: text)
    }
}
