@testable import BinaryInfo
import Testing

/// ``DominatorTree`` against dominators by their definition (``BruteForceDominators``) on seeded
/// random graphs and on the shapes that break dominator algorithms, against an independent
/// iterative algorithm on larger graphs, and on paths too long for any recursion.
@Suite("dominator tree")
struct DominatorTreeTests {
    /// Everything the tree states about a graph, compared with the definition.
    func checkAgainstDefinition(
        nodeCount: Int, edges: [(UInt32, UInt32)], root: Int, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let tree = DominatorTree(adjacencyGraph(nodeCount: nodeCount, edges: edges), root: root)
        let oracle = BruteForceDominators(nodeCount: nodeCount, edges: edges, root: root)
        var random = SplitMix64(seed: seed ^ 0x5EED)
        let sizes = (0..<nodeCount).map { _ in UInt64.random(in: 1...4096, using: &random) }
        let classCount = 3
        let classes = (0..<nodeCount).map { _ in UInt32.random(in: 0...UInt32(classCount), using: &random) }
            .map { $0 == UInt32(classCount) ? DominatorTree.none : $0 }
        let retained = tree.retainedSizes(ownSizes: sizes)
        let outermost = tree.outermostOfClass(classes, classCount: classCount)
        for node in 0..<nodeCount {
            let context = "seed \(seed), node \(node) of \(nodeCount), edges \(edges)"
            #expect(tree.isReachable(node) == oracle.reachable[node], "\(context)", sourceLocation: sourceLocation)
            #expect(tree.immediateDominator(of: node) == oracle.immediateDominator(of: node), "\(context)", sourceLocation: sourceLocation)
            let expected = oracle.reachable[node] ? oracle.retainedSize(of: node, sizes: sizes) : 0
            #expect(retained[node] == expected, "\(context)", sourceLocation: sourceLocation)
            #expect(outermost[node] == oracle.isOutermost(node, classes: classes), "\(context)", sourceLocation: sourceLocation)
        }
        #expect(Set(tree.preorder.map(Int.init)) == Set((0..<nodeCount).filter { oracle.reachable[$0] }), sourceLocation: sourceLocation)
        #expect(tree.preorder.first.map(Int.init) == root, sourceLocation: sourceLocation)
        var seen = Set<Int>()
        for node in tree.preorder.map(Int.init) {
            if let dominator = tree.immediateDominator(of: node) {
                #expect(seen.contains(dominator), "a node before its dominator in the preorder", sourceLocation: sourceLocation)
            }
            seen.insert(node)
        }
    }

    @Test("random graphs, every fact against the definition", arguments: 0..<40)
    func randomGraphs(batch: Int) {
        var random = SplitMix64(seed: UInt64(batch) &* 0x9E37_79B9)
        for round in 0..<10 {
            let nodeCount = Int.random(in: 1...36, using: &random)
            let edgeCount = Int.random(in: 0...(nodeCount * 3), using: &random)
            let edges = (0..<edgeCount).map { _ in
                (UInt32.random(in: 0..<UInt32(nodeCount), using: &random), UInt32.random(in: 0..<UInt32(nodeCount), using: &random))
            }
            let root = Int.random(in: 0..<nodeCount, using: &random)
            checkAgainstDefinition(nodeCount: nodeCount, edges: edges, root: root, seed: UInt64(batch * 100 + round))
        }
    }

    /// Shapes that each break a careless implementation: a path (deep search), a diamond (a node
    /// two parents share), cycles and self loops, a ladder (semidominators far from parents),
    /// nested loops entered from several places (irreducible), a complete graph, and several
    /// roots under one virtual root, as the heap's graph is built.
    static let shapes: [(name: String, nodeCount: Int, edges: [(UInt32, UInt32)])] = {
        func path(_ count: Int) -> [(UInt32, UInt32)] { (0..<(count - 1)).map { (UInt32($0), UInt32($0 + 1)) } }
        var shapes: [(String, Int, [(UInt32, UInt32)])] = []
        shapes.append(("path", 30, path(30)))
        shapes.append(("path with back edges", 30, path(30) + (1..<30).map { (UInt32($0), UInt32($0 - 1)) }))
        shapes.append(("path with edges to the root", 30, path(30) + (1..<30).map { (UInt32($0), 0) }))
        shapes.append(("diamond", 4, [(0, 1), (0, 2), (1, 3), (2, 3)]))
        shapes.append(
            (
                "stacked diamonds", 13,
                (0..<4).flatMap { level -> [(UInt32, UInt32)] in
                    let top = UInt32(level * 3)
                    return [(top, top + 1), (top, top + 2), (top + 1, top + 3), (top + 2, top + 3)]
                }
            ))
        shapes.append(("cycle", 12, path(12) + [(11, 0)]))
        shapes.append(("cycle entered twice", 8, [(0, 1), (0, 4), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 1)]))
        shapes.append(("self loops", 6, [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (0, 4), (4, 3), (5, 5)]))
        shapes.append(
            (
                "ladder", 20,
                (0..<9).flatMap { rung -> [(UInt32, UInt32)] in
                    let left = UInt32(rung * 2)
                    return [(left, left + 2), (left + 1, left + 3), (left, left + 1), (left + 1, left + 2)]
                } + [(18, 19)]
            ))
        shapes.append(
            (
                "irreducible nested loops", 9,
                [
                    (0, 1), (0, 2), (1, 2), (2, 1), (1, 3), (3, 4), (4, 3), (2, 4), (4, 5), (5, 6), (6, 5), (3, 6), (6, 1), (5, 7), (7, 8),
                    (8, 7),
                ]
            ))
        shapes.append(("complete", 7, (0..<7).flatMap { source in (0..<7).map { (UInt32(source), UInt32($0)) } }))
        shapes.append(("unreachable parts", 10, [(0, 1), (1, 2), (3, 4), (4, 3), (5, 2), (6, 6), (2, 0)]))
        // Node 0 is the virtual root; 1...3 are what roots reach directly; the rest hang below.
        shapes.append(
            (
                "virtual root over several roots", 12,
                [
                    (0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (4, 5), (5, 6), (3, 7), (7, 8), (8, 7), (8, 9), (6, 9), (9, 10), (10, 11),
                    (11, 9),
                ]
            ))
        shapes.append(("a tree", 15, (1..<15).map { (UInt32(($0 - 1) / 2), UInt32($0)) }))
        return shapes
    }()

    @Test("adversarial shapes against the definition, from every root", arguments: shapes.indices)
    func adversarialShapes(shape: Int) {
        let (_, nodeCount, edges) = Self.shapes[shape]
        for root in 0..<nodeCount {
            checkAgainstDefinition(nodeCount: nodeCount, edges: edges, root: root, seed: UInt64(shape * 1000 + root))
        }
    }

    /// A virtual root (the heap's roots, which are no allocations) is the same tree as a graph
    /// with that node and its edges written out.
    @Test("a virtual root against the same node written out", arguments: 0..<20)
    func virtualRoot(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed) &* 0x2545_F491)
        let nodeCount = Int.random(in: 1...30, using: &random)
        let edges = (0..<Int.random(in: 0...(nodeCount * 2), using: &random)).map { _ in
            (UInt32.random(in: 0..<UInt32(nodeCount), using: &random), UInt32.random(in: 0..<UInt32(nodeCount), using: &random))
        }
        let rootSuccessors = (0..<Int.random(in: 0...4, using: &random)).map { _ in UInt32.random(in: 0..<UInt32(nodeCount), using: &random)
        }
        let tree = DominatorTree(adjacencyGraph(nodeCount: nodeCount, edges: edges), virtualRootSuccessors: rootSuccessors)
        #expect(tree.nodeCount == nodeCount + 1)
        #expect(tree.root == nodeCount)
        let written = edges + rootSuccessors.map { (UInt32(nodeCount), $0) }
        let oracle = BruteForceDominators(nodeCount: nodeCount + 1, edges: written, root: nodeCount)
        for node in 0...nodeCount {
            #expect(tree.immediateDominator(of: node) == oracle.immediateDominator(of: node), "seed \(seed), node \(node)")
            #expect(tree.isReachable(node) == oracle.reachable[node], "seed \(seed), node \(node)")
        }
        checkAgainstDefinition(nodeCount: nodeCount + 1, edges: written, root: nodeCount, seed: UInt64(seed))
    }

    @Test("larger random graphs against the iterative algorithm", arguments: [(2_000, 4_000), (5_000, 15_000), (20_000, 30_000)])
    func largerGraphs(nodeCount: Int, edgeCount: Int) {
        var random = SplitMix64(seed: UInt64(nodeCount * 31 + edgeCount))
        // A spanning path from the root keeps most nodes reachable and the search deep.
        var edges = (0..<(nodeCount / 2)).map { (UInt32($0), UInt32($0 + 1)) }
        edges += (0..<edgeCount).map { _ in
            (UInt32.random(in: 0..<UInt32(nodeCount), using: &random), UInt32.random(in: 0..<UInt32(nodeCount), using: &random))
        }
        let tree = DominatorTree(adjacencyGraph(nodeCount: nodeCount, edges: edges), root: 0)
        let expected = iterativeDominators(nodeCount: nodeCount, edges: edges, root: 0)
        let mismatches = (0..<nodeCount).filter { tree.immediateDominator(of: $0) != expected[$0] }
        #expect(mismatches.isEmpty, "\(mismatches.count) nodes differ, first \(mismatches.prefix(5))")
    }

    /// Two million nodes in a path, walked forwards and back (a doubly linked list): deeper than
    /// any recursion fits a thread's stack (`Tools/bench-graph` runs ten million in a release
    /// build). A node with one predecessor is immediately dominated by it, so on a
    /// singly linked path each node's dominator is the one before, and its retained size is the
    /// sum of the sizes from it to the end.
    @Test("a linked list of two million nodes")
    func longLinkedList() {
        let count = 2_000_000
        let forward = (0..<UInt32(count - 1)).map { ($0, $0 + 1) }
        let tree = DominatorTree(adjacencyGraph(nodeCount: count, edges: forward), root: 0)
        let retained = tree.retainedSizes(ownSizes: [UInt64](repeating: 16, count: count))
        #expect(tree.preorder.count == count)
        #expect((1..<count).allSatisfy { tree.immediateDominators[$0] == UInt32($0 - 1) })
        #expect((0..<count).allSatisfy { retained[$0] == UInt64(count - $0) * 16 })
        // Backward links give each node a second predecessor, the one after it, which the one
        // before it dominates: the dominators stay the same.
        let both = forward + forward.map { ($0.1, $0.0) }
        let doubly = DominatorTree(adjacencyGraph(nodeCount: count, edges: both), root: 0)
        #expect(doubly.immediateDominators == tree.immediateDominators)
        // From the far end the list is walked backwards.
        let fromEnd = DominatorTree(adjacencyGraph(nodeCount: count, edges: both), root: count - 1)
        #expect((0..<(count - 1)).allSatisfy { fromEnd.immediateDominators[$0] == UInt32($0 + 1) })
    }
}
