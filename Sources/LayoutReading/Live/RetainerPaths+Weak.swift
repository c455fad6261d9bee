import BinaryInfo

/// What holds an object weakly: a Swift weak reference holds the object's side table (an
/// allocation whose first word is the object, named by the object's reference count word), and
/// the marking never follows the side table back to the object, so no path goes through it.
extension RetainerPaths {
    /// The high bits of a Swift object's reference count word that say it has a side table
    /// (`UseSlowRC` and `SideTableMark`); the other bits hold the side table's address shifted
    /// right by 3.
    static let sideTableMarks: UInt64 = 0xC000_0000_0000_0000

    /// The position of `object`'s side table: the allocation its reference count word names,
    /// when that allocation's first word is the object again (nil when it has none).
    func sideTable(of object: Int, memory: TargetMemory) -> Int? {
        let address = reachability.addresses[object]
        guard reachability.sizes[object] >= 16,
            let counts = try? memory.read(UInt64.self, at: address &+ 8, what: "an object's reference counts"),
            counts & Self.sideTableMarks == Self.sideTableMarks
        else { return nil }
        let (table, overflow) = (counts & ~Self.sideTableMarks).multipliedReportingOverflow(by: 8)
        guard !overflow, let index = reachability.addresses.position(of: table) else { return nil }
        // The table's first word is its object again (read again when the marking kept none).
        let tableFirstWord =
            reachability.firstWords.isEmpty
            ? try? memory.read(UInt64.self, at: table, what: "a side table's object") : reachability.firstWords[index]
        guard tableFirstWord == address else { return nil }
        return index
    }

    /// The holders of weak references to `object`: root words (up to 64) and reachable
    /// allocations that point into its side table, each as a one-step chain (an allocation with
    /// the offset of its word that does, preferring its weak references).
    func weakHolders(of object: Int, memory: TargetMemory) throws(BinaryInfoError) -> [[Step]] {
        guard let table = sideTable(of: object, memory: memory) else { return [] }
        var chains: [[Step]] = try reachability.rootWords(pointingInto: table).map { [.root($0)] }
        for node in reachability.addresses.indices where node != table && node != object && reachability.isReachable(node) {
            guard edges.graph.successors(of: node).contains(UInt32(table)) else { continue }
            chains.append([.allocation(node, offset: Self.weakOffset(in: node, of: table, reachability, memory: memory))])
        }
        return chains
    }

    /// The offset of the word of `holder` that points into the side table `table`: the first of
    /// its weak references that does, else the first word that does.
    static func weakOffset(in holder: Int, of table: Int, _ reachability: HeapReachability, memory: TargetMemory) -> UInt64? {
        if let plan = ReferenceWords.plan(of: holder, reachability) {
            for offset in plan.weak {
                let address = reachability.addresses[holder] &+ UInt64(offset)
                guard let word = try? memory.read(UInt64.self, at: address, what: "a weak reference") else { continue }
                if reachability.allocation(containing: word) == table { return UInt64(offset) }
            }
        }
        return ReferenceWords.pointingOffsets(in: holder, reachability, memory: memory)?[table]
    }
}
