import BinaryInfo

/// What `retainers` keeps of a marking to say, after the process runs again, how many bytes the
/// objects it asked about retain: their dominator subtrees' sizes (``DominatorTree``), as
/// `heap --retained` computes them.
///
/// The tree needs only the graph, the allocations' sizes and what the roots reach, all read while
/// the process was held; computing it after the process is let go keeps it out of the stop.
struct RetainerRetainedSizes {
    let sizes: HeapSizes
    let graph: AdjacencyGraph
    let rootReached: [UInt32]

    init(_ reachability: HeapReachability) {
        sizes = reachability.sizes
        let edges = reachability.edges ?? HeapEdges.empty(allocations: reachability.addresses.count)
        graph = edges.graph
        rootReached = edges.rootReached.map(UInt32.init)
    }

    /// Whether the graph can be numbered for the tree (nil sizes otherwise: a retained size is
    /// then unknown, never guessed).
    var fitsTheTree: Bool {
        DominatorTree.canNumber(nodeCount: sizes.count, edgeCount: graph.edgeCount, virtualRootSuccessors: rootReached.count)
    }

    /// The bytes `object` retains: its own and those of every allocation only it holds.
    func retained(by object: Int) -> Int? {
        guard fitsTheTree, object < sizes.count else { return nil }
        let tree = DominatorTree(graph, virtualRootSuccessors: rootReached)
        return Int(tree.retainedSizes(ownSizes: sizes)[object])
    }

    /// The bytes each group of `objects` retains, counting every allocation once: the sum of the
    /// retained sizes of the group's objects that no other object of the list dominates (an
    /// object inside another's subtree is already in that one's size).
    ///
    /// - Parameter objects: each object's position and its group's number, below `groupCount`.
    func retained(byGroups objects: [(object: Int, group: Int)], groupCount: Int) -> [Int]? {
        guard fitsTheTree else { return nil }
        let tree = DominatorTree(graph, virtualRootSuccessors: rootReached)
        let retained = tree.retainedSizes(ownSizes: sizes)
        // One class for every object asked about: only the outermost of them count.
        var classes = [UInt32](repeating: DominatorTree.none, count: sizes.count + 1)
        for (object, _) in objects where object < sizes.count { classes[object] = 0 }
        let outermost = tree.outermostOfClass(classes, classCount: 1)
        var sums = [Int](repeating: 0, count: groupCount)
        for (object, group) in objects where object < sizes.count && outermost[object] && group < groupCount {
            sums[group] += Int(retained[object])
        }
        return sums
    }
}
