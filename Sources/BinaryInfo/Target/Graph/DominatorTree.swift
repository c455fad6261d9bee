/// The immediate dominators of a directed graph's nodes as seen from one root: `d` dominates `n`
/// when every path from the root to `n` passes through `d`, and `n`'s immediate dominator is the
/// dominator of `n` (other than `n`) that every other one dominates.
///
/// Computed with Lengauer and Tarjan's algorithm ("A fast algorithm for finding dominators in a
/// flowgraph", 1979) in its simple form, path compression without balancing: O(m log n) for n
/// nodes and m edges whatever the graph's shape, with no recursion (the depth-first search keeps
/// its stack in the tree's parent links, and path compression reverses the pointers it walks), so
/// a linked list of ten million allocations is one more graph. Everything is flat `UInt32` arrays
/// indexed by preorder number: at its peak the computation holds at most 4 bytes per node of the graph
/// plus 24 per reachable node and 4 per edge between reachable nodes.
///
/// A memory graph is rooted at a virtual root whose edges lead to what the roots reach directly,
/// so its dominator tree says which allocations keep which others alive alone
/// (``retainedSizes(ownSizes:)``).
public struct DominatorTree: Sendable {
    /// The value of ``immediateDominators`` for the root and for nodes the root does not reach.
    public static let none = UInt32.max

    /// The root the dominators were computed from.
    public let root: Int
    /// Each node's immediate dominator, ``none`` for the root and for nodes the root does not
    /// reach.
    public let immediateDominators: [UInt32]
    /// The nodes the root reaches, in the depth-first search's preorder, root first: every node
    /// comes after each of its dominators.
    public let preorder: [UInt32]

    /// How many nodes the graph has.
    public var nodeCount: Int { immediateDominators.count }

    /// Whether the root reaches `node`.
    public func isReachable(_ node: Int) -> Bool { node == root || immediateDominators[node] != Self.none }

    /// The immediate dominator of `node`: nil for the root and for nodes the root does not reach.
    public func immediateDominator(of node: Int) -> Int? {
        let dominator = immediateDominators[node]
        return dominator == Self.none ? nil : Int(dominator)
    }

    /// The largest graph the tree is computed for: node numbers and edge positions are `UInt32`,
    /// and ``none`` is a node number no node has.
    public static let largestCount = Int(UInt32.max) - 1

    /// Whether a graph of `nodeCount` nodes and `edgeCount` edges, with a virtual root of
    /// `virtualRootSuccessors` successors (``init(_:virtualRootSuccessors:)``), is within
    /// ``largestCount``: the bound the initializer's precondition states, for a caller to check
    /// before it builds the tree.
    public static func canNumber(nodeCount: Int, edgeCount: Int, virtualRootSuccessors: Int) -> Bool {
        nodeCount < largestCount && edgeCount <= largestCount - virtualRootSuccessors
    }

    /// Computes the immediate dominators of `graph`'s nodes from `root`.
    ///
    /// - Precondition: `root` is a node of `graph`, and the graph has at most ``largestCount``
    ///   nodes and at most as many edges (a caller building the graph from a target checks, and
    ///   refuses a larger one with its own error).
    public init(_ graph: AdjacencyGraph, root: Int) {
        precondition(root >= 0 && root < graph.nodeCount, "the root is a node of the graph")
        self.init(RootedRows(graph: graph, rootRow: nil), root: root)
    }

    /// Computes the immediate dominators of `graph`'s nodes and of one more, a virtual root
    /// numbered `graph.nodeCount` whose successors are `virtualRootSuccessors`: the tree of a
    /// graph with many roots (a heap's, whose roots are registers and memory outside it).
    ///
    /// - Precondition: the successors are nodes of `graph`, and the graph with its virtual root has
    ///   at most ``largestCount`` nodes and at most as many edges.
    ///
    /// The graph's rows are let go once its predecessors are listed, when the caller hands them
    /// over (`consume`).
    public init(_ graph: consuming AdjacencyGraph, virtualRootSuccessors: [UInt32]) {
        let root = graph.nodeCount
        self.init(RootedRows(graph: graph, rootRow: virtualRootSuccessors), root: root)
    }

    private init(_ graph: consuming RootedRows, root: Int) {
        precondition(
            graph.nodeCount <= Self.largestCount && graph.graph.edgeCount + (graph.rootRow?.count ?? 0) <= Self.largestCount,
            "a graph of at most 2^32 - 2 nodes and edges")
        self.root = root
        let nodeCount = graph.nodeCount
        var search = DepthFirstSearch(copy graph, root: root)
        let idom: [UInt32]
        do {
            let predecessors = search.predecessors(copy graph)
            // Neither the successors nor the node-to-number map are needed while the dominators
            // are computed.
            graph = RootedRows(emptyWithNodeCount: nodeCount)
            search.numbers = []
            idom = Self.dominatorNumbers(predecessors: predecessors, parents: &search.parents, cursor: &search.cursors)
        }
        search.parents = []
        search.cursors = []
        var dominators = [UInt32](repeating: Self.none, count: nodeCount)
        for (number, node) in search.vertices.enumerated().dropFirst() {
            dominators[Int(node)] = search.vertices[Int(idom[number])]
        }
        immediateDominators = dominators
        preorder = search.vertices
    }

    /// Lengauer and Tarjan's semidominators and immediate dominators over preorder numbers
    /// (`0` the root): `predecessors` lists each number's predecessors' numbers, `parents` the
    /// search tree (taken over as the link forest's ancestors), `cursor` spare storage of the
    /// same length (taken over as the forest's labels). Returns each number's immediate
    /// dominator's number, ``none`` for the root.
    ///
    /// The buckets (the vertices whose semidominator is `w`, waiting until every vertex after `w`
    /// is linked) are lists threaded through the answer's own array: before `w` is processed its
    /// slot holds the head of `w`'s bucket, while `w` waits in a bucket its slot links to the
    /// next waiting vertex, and once it leaves the bucket its slot holds its (relative) dominator.
    static func dominatorNumbers(predecessors: NumberedPredecessors, parents: inout [UInt32], cursor: inout [UInt32]) -> [UInt32] {
        let count = parents.count
        var semi = [UInt32](repeating: 0, count: count)
        var idom = [UInt32](repeating: none, count: count)
        predecessors.starts.withUnsafeBufferPointer { starts in
            predecessors.sources.withUnsafeBufferPointer { sources in
                parents.withUnsafeMutableBufferPointer { ancestor in
                    cursor.withUnsafeMutableBufferPointer { label in
                        semi.withUnsafeMutableBufferPointer { semi in
                            idom.withUnsafeMutableBufferPointer { idom in
                                let forest = LinkForest(ancestor: ancestor, label: label, semi: semi)
                                for number in 0..<count {
                                    semi[number] = UInt32(number)
                                    label[number] = UInt32(number)
                                }
                                var w = count - 1
                                while w >= 0 {
                                    let vertex = UInt32(w)
                                    // The vertices whose semidominator is w: every vertex after w is
                                    // linked, so the forest's path from each of them up to w is w's
                                    // subtree's part of its tree path.
                                    var waiting = idom[w]
                                    while waiting != none {
                                        let next = idom[Int(waiting)]
                                        let lowest = forest.eval(waiting, linkedAbove: vertex)
                                        idom[Int(waiting)] = semi[Int(lowest)] < semi[Int(waiting)] ? lowest : vertex
                                        waiting = next
                                    }
                                    if w == 0 { break }
                                    var lowestSemi = vertex
                                    for position in Int(starts[w])..<Int(starts[w + 1]) {
                                        let predecessor = sources[position]
                                        let candidate =
                                            predecessor <= vertex ? predecessor : semi[Int(forest.eval(predecessor, linkedAbove: vertex))]
                                        lowestSemi = min(lowestSemi, candidate)
                                    }
                                    semi[w] = lowestSemi
                                    idom[w] = idom[Int(lowestSemi)]
                                    idom[Int(lowestSemi)] = vertex
                                    // Linking w to its parent is implicit: from the next step on,
                                    // every vertex above the one being processed counts as linked,
                                    // and `ancestor` already holds the parent.
                                    w -= 1
                                }
                                idom[0] = none
                                for number in 1..<max(count, 1) where idom[number] != semi[number] {
                                    idom[number] = idom[Int(idom[number])]
                                }
                            }
                        }
                    }
                }
            }
        }
        return idom
    }
}

/// The link-eval forest of Lengauer and Tarjan's algorithm, over preorder numbers: a vertex
/// numbered above `linkedAbove` is linked to its forest parent (`ancestor`), the others are roots.
/// Its buffers are the dominator computation's arrays, for the length of that computation; every
/// index is a preorder number (the search gave them all, below the arrays' length).
struct LinkForest {
    let ancestor: UnsafeMutableBufferPointer<UInt32>
    let label: UnsafeMutableBufferPointer<UInt32>
    let semi: UnsafeMutableBufferPointer<UInt32>

    /// The vertex of least semidominator on the forest path from `vertex` up to, and without,
    /// its tree's root (`vertex` itself when it is a root); compresses the path on the way.
    @inline(__always)
    func eval(_ vertex: UInt32, linkedAbove bound: UInt32) -> UInt32 {
        if vertex <= bound { return vertex }
        if ancestor[Int(vertex)] > bound { compress(vertex, linkedAbove: bound) }
        return label[Int(vertex)]
    }

    /// Path compression without a stack: the walk up reverses each ancestor link to point at the
    /// vertex below it, and the walk back down carries the least label down and points every
    /// vertex of the path at the root-side end's ancestor.
    func compress(_ vertex: UInt32, linkedAbove bound: UInt32) {
        var below = DominatorTree.none
        var current = vertex
        while ancestor[Int(current)] > bound {
            let above = ancestor[Int(current)]
            ancestor[Int(current)] = below
            below = current
            current = above
        }
        // `current` is the highest linked vertex of the path; its ancestor is the tree's root.
        let top = ancestor[Int(current)]
        var above = current
        while below != DominatorTree.none {
            let next = ancestor[Int(below)]
            if semi[Int(label[Int(above)])] < semi[Int(label[Int(below)])] { label[Int(below)] = label[Int(above)] }
            ancestor[Int(below)] = top
            above = below
            below = next
        }
    }
}
