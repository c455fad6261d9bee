import BinaryInfo
import Testing

/// `DominatorTree` and its retained sizes as a Swift 5 language mode client calls them, on a
/// diamond under a path, against the definition: `d` dominates `n` when `n` is unreachable from
/// the root once `d` is taken out.
@Suite("Dominator tree from a Swift 5 client")
struct DominatorTreeSwift5Tests {
    static let edges: [(UInt32, UInt32)] = [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 5), (5, 4), (6, 5)]
    static let nodeCount = 7

    static func reached(without removed: Int?) -> Set<Int> {
        var reached: Set<Int> = removed == 0 ? [] : [0]
        var changed = true
        while changed {
            changed = false
            for (source, target) in edges where reached.contains(Int(source)) && Int(target) != removed {
                changed = reached.insert(Int(target)).inserted || changed
            }
        }
        return reached
    }

    /// The nodes other than `node` that dominate it.
    static func strictDominators(of node: Int) -> Set<Int> {
        Set((0..<nodeCount).filter { $0 != node && !reached(without: $0).contains(node) })
    }

    @Test func dominatorsAndRetainedSizes() {
        let graph = AdjacencyGraph(nodeCount: Self.nodeCount, sources: Self.edges.map { $0.0 }, targets: Self.edges.map { $0.1 })
        let tree = DominatorTree(graph, root: 0)
        let sizes: [UInt64] = (0..<Self.nodeCount).map { UInt64(16 << $0) }
        let classes: [UInt32] = [0, 1, 1, 1, 1, 0, DominatorTree.none]
        let retained = tree.retainedSizes(ownSizes: sizes)
        let outermost = tree.outermostOfClass(classes, classCount: 2)
        let everything = Self.reached(without: nil)
        for node in 0..<Self.nodeCount {
            #expect(tree.isReachable(node) == everything.contains(node))
            guard everything.contains(node) else {
                #expect(tree.immediateDominator(of: node) == nil)
                #expect(retained[node] == 0)
                #expect(!outermost[node])
                continue
            }
            let strict = Self.strictDominators(of: node)
            let immediate = strict.first { candidate in strict.subtracting([candidate]).isSubset(of: Self.strictDominators(of: candidate)) }
            #expect(tree.immediateDominator(of: node) == immediate)
            let dominated = everything.subtracting(Self.reached(without: node))
            #expect(retained[node] == dominated.reduce(0) { $0 + sizes[$1] })
            let sameClassAbove = strict.contains { classes[$0] == classes[node] }
            #expect(outermost[node] == (classes[node] != DominatorTree.none && !sameClassAbove))
        }
    }
}
