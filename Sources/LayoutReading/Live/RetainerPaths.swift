import BinaryInfo

/// Paths from roots to an allocation over a marking's recorded edges (``HeapEdges``): the first
/// reaches make a tree of shortest paths (through Swift objects' references wherever those reach:
/// ``AllocationReferenceLayouts``), and the graph says which other allocations hold it.
struct RetainerPaths {
    /// One holder of a path and where in it the word pointing to the next lies.
    enum Step: Hashable {
        case root(HeapRootWord)
        /// An allocation's position; `offset` is the pointing word's (nil when not known).
        case allocation(Int, offset: UInt64?)
    }

    let reachability: HeapReachability
    let edges: HeapEdges

    init(_ reachability: HeapReachability) {
        self.reachability = reachability
        // The reader always marks with the edges recorded.
        edges = reachability.edges ?? HeapEdges.empty(allocations: reachability.addresses.count)
    }

    /// The holders of `object`'s first-reach path (a shortest one through references), root first; nil when no root
    /// reaches it.
    func firstReachChain(to object: Int) -> [Step]? {
        var steps: [Step] = []
        var node = object
        while let reach = edges.firstReach(of: node) {
            switch reach {
            case .root(let word):
                steps.append(.root(word))
                return steps.reversed()
            case .allocation(let parent, let offset):
                steps.append(.allocation(parent, offset: offset))
                node = parent
            }
            // First reaches form a tree (each was set once, from an allocation reached a round
            // earlier), so a path is never longer than there are allocations.
            if steps.count > reachability.addresses.count { return nil }
        }
        return nil
    }

    /// Up to `count` shortest paths to `object`, each ending in a different holder, shortest
    /// first (a root word that points into it first of all; a holder whose word pointing to it is
    /// no reference after every other), and how many reachable allocations
    /// other than the object, and how many root words (up to 64), hold it.
    func paths(to object: Int, count: Int, memory: TargetMemory) throws(BinaryInfoError) -> (
        paths: [[Step]], holderCount: Int, rootCount: Int
    ) {
        guard reachability.isReachable(object) else { return ([], 0, 0) }
        var holders: [Int] = []
        for node in reachability.addresses.indices where node != object && reachability.isReachable(node) {
            if edges.graph.successors(of: node).contains(UInt32(object)) { holders.append(node) }
        }
        var depths: [Int: Int] = [:]
        // A path whose last holder points to the object by a word that is no reference comes
        // after every path through references.
        var candidates: [(conservative: Bool, depth: Int, chain: [Step])] = []
        let roots = try reachability.rootWords(pointingInto: object)
        for word in roots { candidates.append((false, 1, [.root(word)])) }
        for holder in holders {
            guard var chain = firstReachChain(to: holder),
                !chain.contains(where: { if case .allocation(object, _) = $0 { true } else { false } })
            else { continue }
            depths[holder] = chain.count
            let offset = offset(in: holder, of: object, memory: memory)
            chain.append(.allocation(holder, offset: offset))
            let conservative = offset.map { ReferenceWords.isStrong(in: holder, at: $0, reachability, memory: memory) == false } ?? false
            candidates.append((conservative, chain.count, chain))
        }
        // Stable: roots in the order found, holders by position.
        let ordered = candidates.enumerated().sorted {
            ($0.element.conservative ? 1 : 0, $0.element.depth, $0.offset) < ($1.element.conservative ? 1 : 0, $1.element.depth, $1.offset)
        }
        return (ordered.prefix(max(count, 0)).map(\.element.chain), holders.count, roots.count)
    }

    /// The offset of the first word of `holder` that points into `object`: the first reach's when
    /// `holder` is its first holder, else read from the target (nil when unreadable, or when the
    /// holder is larger than is worth reading for it).
    func offset(in holder: Int, of object: Int, memory: TargetMemory) -> UInt64? {
        if case .allocation(holder, let offset) = edges.firstReach(of: object) { return offset }
        return Self.offset(in: holder, of: object, reachability, memory: memory)
    }

    /// The offset of the first word of `holder` that points into `object`, read from the target:
    /// the first of its strong references when one does (``ReferenceWords``).
    static func offset(in holder: Int, of object: Int, _ reachability: HeapReachability, memory: TargetMemory) -> UInt64? {
        let size = reachability.sizes[holder]
        guard size <= 1 << 26, let bytes = try? memory.bytes(at: reachability.addresses[holder], count: Int(size), what: "a holder") else {
            return nil
        }
        let plan = ReferenceWords.plan(of: holder, reachability)
        let count = plan.map { ReferenceWords.elementCount($0, bytes: bytes) } ?? 0
        var first: UInt64?
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            if reachability.allocation(containing: word) == object {
                guard let plan else { return UInt64(offset) }
                if plan.isStrong(wordOffset: UInt64(offset), elementCount: count) { return UInt64(offset) }
                if first == nil { first = UInt64(offset) }
            }
            offset += 8
        }
        return first
    }
}
