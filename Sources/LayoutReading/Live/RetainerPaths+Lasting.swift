import BinaryInfo

/// Shortest paths from the roots that last (``HeapReachability/lastingRootReaches()``: globals,
/// then thread-local storage and mappings for what no global reaches), over the marking's
/// recorded edges: what `retainers --type`
/// groups a type's objects by, so that objects a program keeps through an owner are shown
/// through it, and only those held by a thread's stack alone through a stack frame.
struct LastingRetainerPaths {
    private let paths: RetainerPaths
    /// Per allocation: its parent in the breadth-first tree from the lasting roots, or
    /// ``rootParent`` (then ``rootWords`` has its word), or ``unreached``.
    private var parents: [UInt32]
    private static let rootParent = UInt32.max
    private static let unreached = UInt32.max - 1
    private var rootWords: [Int: HeapRootWord] = [:]
    /// Each holder's word offsets by the allocation they point into, read once per holder.
    private var holderOffsets: [Int: [Int: UInt64]] = [:]

    init(_ paths: RetainerPaths) throws(BinaryInfoError) {
        self.paths = paths
        let reachability = paths.reachability
        parents = [UInt32](repeating: Self.unreached, count: reachability.addresses.count)
        // Globals first, then thread-local storage and other mappings for what globals do not
        // reach: a global outlasts every thread, and a thread's control block may keep a stale
        // word as a stack does.
        let reaches = try reachability.lastingRootReaches()
        var queue: [UInt32] = []
        var next = 0
        let graph = paths.edges.graph
        for inImage in [true, false] {
            for (allocation, word, reachInImage) in reaches where reachInImage == inImage && parents[allocation] == Self.unreached {
                parents[allocation] = Self.rootParent
                rootWords[allocation] = word
                queue.append(UInt32(allocation))
            }
            while next < queue.count {
                let node = Int(queue[next])
                next += 1
                for successor in graph.successors(of: node) where parents[Int(successor)] == Self.unreached {
                    parents[Int(successor)] = UInt32(node)
                    queue.append(successor)
                }
            }
        }
    }

    /// The holders of a shortest path from a lasting root to `object`, root first; the path of
    /// the marking's first reaches (``RetainerPaths/firstReachChain(to:)``) when no lasting root
    /// reaches it, and nil when no root does.
    mutating func chain(to object: Int, memory: TargetMemory) -> [RetainerPaths.Step]? {
        lastingChain(to: object, memory: memory) ?? paths.firstReachChain(to: object)
    }

    /// The holders of a shortest path from a lasting root to `object`, root first; nil when no
    /// lasting root reaches it.
    mutating func lastingChain(to object: Int, memory: TargetMemory) -> [RetainerPaths.Step]? {
        guard parents[object] != Self.unreached else { return nil }
        var steps: [RetainerPaths.Step] = []
        var node = object
        while true {
            let parent = parents[node]
            if parent == Self.rootParent {
                guard let word = rootWords[node] else { return nil }
                steps.append(.root(word))
                return steps.reversed()
            }
            let holder = Int(parent)
            steps.append(.allocation(holder, offset: offset(in: holder, of: node, memory: memory)))
            node = holder
            // A breadth-first tree has no cycles: a path is never longer than there are allocations.
            if steps.count > parents.count { return nil }
        }
    }

    /// The offset of `holder`'s first word that points into `object`: the marking's when it
    /// recorded that pair, else from the holder's words, read once for all its children.
    private mutating func offset(in holder: Int, of object: Int, memory: TargetMemory) -> UInt64? {
        if case .allocation(holder, let offset) = paths.edges.firstReach(of: object) { return offset }
        if let offsets = holderOffsets[holder] { return offsets[object] }
        let reachability = paths.reachability
        var offsets: [Int: UInt64] = [:]
        let size = reachability.sizes[holder]
        if size <= 1 << 26, let bytes = try? memory.bytes(at: reachability.addresses[holder], count: Int(size), what: "a holder") {
            var position = 0
            while position + 8 <= bytes.count {
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt64.self) }
                if let held = reachability.allocation(containing: word), offsets[held] == nil { offsets[held] = UInt64(position) }
                position += 8
            }
        }
        holderOffsets[holder] = offsets
        return offsets[object]
    }
}
