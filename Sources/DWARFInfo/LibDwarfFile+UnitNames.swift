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
    /// Only tags and names are read; libdwarf still walks each child's subtree to reach the
    /// next sibling (the file has no `DW_AT_sibling` to jump with).
    func holdsTopLevelType(_ keys: SwiftUnitKeys, in root: Dwarf_Die, unitOffset: UInt64) throws(DWARFReaderError) -> Bool {
        var found = false
        try forEachChild(of: root, at: unitOffset) { (child, tag) throws(DWARFReaderError) in
            guard tag == DebugTag.module, let module = name(of: child), let wanted = keys.outermostTypes[module] else { return true }
            try forEachChild(of: child, at: unitOffset) { (type, tag) throws(DWARFReaderError) in
                guard DebugTag.isLayoutType(tag), let name = name(of: type), wanted.contains(name) else { return true }
                found = true
                return false
            }
            return !found
        }
        return found
    }

    /// Calls `body` with each child of `parent` and its tag, while `body` returns true.
    private func forEachChild(
        of parent: Dwarf_Die, at unitOffset: UInt64, _ body: (Dwarf_Die, UInt16) throws(DWARFReaderError) -> Bool
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
            let goesOn: Bool
            do {
                goesOn = try body(current, tag)
            } catch {
                dwarf_dealloc_die(current)
                throw error
            }
            var sibling: Dwarf_Die?
            let siblingResult = goesOn ? dwarf_siblingof_b(debug, current, 1, &sibling, &error) : DW_DLV_NO_ENTRY
            dwarf_dealloc_die(current)
            if siblingResult == DW_DLV_NO_ENTRY { return }
            guard siblingResult == DW_DLV_OK, let sibling else { throw fail(error, offset: unitOffset) }
            current = sibling
        }
    }

    /// The entry's `DW_AT_name`, or nil when it has none or libdwarf cannot read it.
    private func name(of die: Dwarf_Die) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard succeeds({ dwarf_diename(die, &text, &$0) }), let text else { return nil }
        return String(cString: text)
    }
}
