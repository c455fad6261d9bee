import CLibDwarf

// Finding the entry after a subtree that was just read, without libdwarf walking the subtree
// again: the compilers write no `DW_AT_sibling`, so `dwarf_siblingof_b` can only reach an
// entry's sibling by walking everything below the entry.
//
// libdwarf keeps, per section, the position where its last `dwarf_child` call stopped. On an
// entry without children that position is the entry's end, moved past the null entries that
// close the child lists ending there: the next entry in file order, or the unit's end.
// `dwarf_validate_die_sibling` (meant for checking `DW_AT_sibling` after such a walk) reports
// that position. After a top-level entry's subtree it is the entry's next sibling, since only
// the unit's root lies further out, and the root has no siblings.

extension LibDwarfFile {
    /// The deepest a descent along last children may go before the walk falls back.
    private static let maximumDescent = 10_000

    /// The top-level entry after the one at `offset`, or nil at the end of the unit.
    ///
    /// - Parameters:
    ///   - offset: the top-level entry whose subtree was read (section-relative).
    ///   - lastVisited: the entry of that subtree visited last, in file order. The entries below
    ///     it, if any, were not read: the position is found past the last of them.
    ///   - unitEnd: the offset just past the unit.
    /// - Returns: the next top-level entry, which the caller owns.
    func nextTopLevelEntry(after offset: Dwarf_Off, lastVisited: Dwarf_Off, unitEnd: UInt64, isInfo: Bool) throws(DWARFReaderError)
        -> Dwarf_Die?
    {
        if let position = positionAfterSubtree(endingWith: lastVisited, isInfo: isInfo), position > offset, position <= unitEnd {
            guard position < unitEnd else { return nil }
            var next: Dwarf_Die?
            var error: Dwarf_Error?
            let result = dwarf_offdie_b(debug, position, isInfo ? 1 : 0, &next, &error)
            if let error { dwarf_dealloc_error(debug, error) }
            if result == DW_DLV_OK, let next { return next }
            if result == DW_DLV_NO_ENTRY { return nil }
        }
        // The position could not be told (libdwarf failed along the way): let libdwarf walk the
        // subtree, and report what it finds wrong.
        var error: Dwarf_Error?
        var die: Dwarf_Die?
        guard dwarf_offdie_b(debug, offset, isInfo ? 1 : 0, &die, &error) == DW_DLV_OK, let die else { throw fail(error, offset: offset) }
        defer { dwarf_dealloc_die(die) }
        var sibling: Dwarf_Die?
        let result = dwarf_siblingof_b(debug, die, isInfo ? 1 : 0, &sibling, &error)
        if result == DW_DLV_ERROR { throw fail(error, offset: offset) }
        return result == DW_DLV_OK ? sibling : nil
    }

    /// The section offset libdwarf reaches after the entry at `offset` and everything below it,
    /// or nil when a libdwarf call fails.
    ///
    /// Descends along last children until an entry without children, so that the last
    /// `dwarf_child` call is made where the subtree ends.
    private func positionAfterSubtree(endingWith offset: Dwarf_Off, isInfo: Bool) -> Dwarf_Off? {
        var current: Dwarf_Die?
        guard succeeds({ dwarf_offdie_b(debug, offset, isInfo ? 1 : 0, &current, &$0) }), var entry = current else { return nil }
        for _ in 0..<Self.maximumDescent {
            var child: Dwarf_Die?
            var error: Dwarf_Error?
            let result = dwarf_child(entry, &child, &error)
            if result == DW_DLV_NO_ENTRY {
                defer { dwarf_dealloc_die(entry) }
                var position: Dwarf_Off = 0
                // DW_DLV_ERROR is the answer here: the position is not the start of `entry`.
                return dwarf_validate_die_sibling(entry, &position) == DW_DLV_ERROR ? position : nil
            }
            dwarf_dealloc_die(entry)
            if let error { dwarf_dealloc_error(debug, error) }
            guard result == DW_DLV_OK, let child, let last = lastSibling(from: child) else { return nil }
            entry = last
        }
        dwarf_dealloc_die(entry)
        return nil
    }

    /// The last entry of the sibling list that `first` starts (which this takes ownership of),
    /// or nil when libdwarf fails.
    private func lastSibling(from first: Dwarf_Die) -> Dwarf_Die? {
        var entry = first
        while true {
            var sibling: Dwarf_Die?
            var error: Dwarf_Error?
            let result = dwarf_siblingof_b(debug, entry, dwarf_get_die_infotypes_flag(entry), &sibling, &error)
            switch result {
            case DW_DLV_NO_ENTRY:
                return entry
            case DW_DLV_OK:
                dwarf_dealloc_die(entry)
                guard let sibling else { return nil }
                entry = sibling
            default:
                dwarf_dealloc_die(entry)
                if let error { dwarf_dealloc_error(debug, error) }
                return nil
            }
        }
    }
}
