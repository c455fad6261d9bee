@testable import BinaryInfo

/// Dominators by their definition, for checking ``DominatorTree`` on small graphs: `d` dominates
/// `n` when `n` cannot be reached from the root once `d` is taken out of the graph.
struct BruteForceDominators {
    let nodeCount: Int
    /// `dominates[d][n]`: `d` dominates `n` (each reachable node dominates itself).
    let dominates: [[Bool]]
    let reachable: [Bool]

    init(nodeCount: Int, edges: [(UInt32, UInt32)], root: Int) {
        self.nodeCount = nodeCount
        reachable = Self.reach(nodeCount: nodeCount, edges: edges, root: root, without: nil)
        var dominates = [[Bool]](repeating: [Bool](repeating: false, count: nodeCount), count: nodeCount)
        for removed in 0..<nodeCount where reachable[removed] {
            let rest = Self.reach(nodeCount: nodeCount, edges: edges, root: root, without: removed)
            for node in 0..<nodeCount where reachable[node] && !rest[node] { dominates[removed][node] = true }
        }
        self.dominates = dominates
    }

    static func reach(nodeCount: Int, edges: [(UInt32, UInt32)], root: Int, without removed: Int?) -> [Bool] {
        var reached = [Bool](repeating: false, count: nodeCount)
        guard root != removed else { return reached }
        reached[root] = true
        var changed = true
        while changed {
            changed = false
            for (source, target) in edges where reached[Int(source)] && !reached[Int(target)] && Int(target) != removed {
                reached[Int(target)] = true
                changed = true
            }
        }
        return reached
    }

    /// The strict dominator of `node` that all its other strict dominators dominate.
    func immediateDominator(of node: Int) -> Int? {
        guard reachable[node] else { return nil }
        let strict = (0..<nodeCount).filter { $0 != node && dominates[$0][node] }
        return strict.first { candidate in strict.allSatisfy { dominates[$0][candidate] } }
    }

    /// The sizes of every node `node` dominates, its own included.
    func retainedSize(of node: Int, sizes: [UInt64]) -> UInt64 {
        (0..<nodeCount).filter { dominates[node][$0] }.reduce(0) { $0 + sizes[$1] }
    }

    /// Whether `node` is reachable and no other node of its class dominates it.
    func isOutermost(_ node: Int, classes: [UInt32]) -> Bool {
        guard reachable[node], classes[node] != DominatorTree.none else { return false }
        return !(0..<nodeCount).contains { $0 != node && classes[$0] == classes[node] && dominates[$0][node] }
    }
}

/// Cooper, Harvey and Kennedy's iterative dominators ("A simple, fast dominance algorithm"),
/// a second, independent computation for graphs too large for the definition: reverse
/// postorder by an explicit stack, then intersections until nothing changes.
func iterativeDominators(nodeCount: Int, edges: [(UInt32, UInt32)], root: Int) -> [Int?] {
    var successors = [[Int]](repeating: [], count: nodeCount)
    var predecessors = [[Int]](repeating: [], count: nodeCount)
    for (source, target) in edges {
        successors[Int(source)].append(Int(target))
        predecessors[Int(target)].append(Int(source))
    }
    var postorder: [Int] = []
    var visited = [Bool](repeating: false, count: nodeCount)
    var stack: [(node: Int, next: Int)] = [(root, 0)]
    visited[root] = true
    while let top = stack.last {
        if top.next < successors[top.node].count {
            stack[stack.count - 1].next += 1
            let successor = successors[top.node][top.next]
            if !visited[successor] {
                visited[successor] = true
                stack.append((successor, 0))
            }
        } else {
            postorder.append(top.node)
            stack.removeLast()
        }
    }
    var order = [Int](repeating: -1, count: nodeCount)
    for (index, node) in postorder.enumerated() { order[node] = index }
    var idom = [Int?](repeating: nil, count: nodeCount)
    idom[root] = root
    var changed = true
    while changed {
        changed = false
        for node in postorder.reversed() where node != root {
            var found: Int?
            for predecessor in predecessors[node] where idom[predecessor] != nil {
                guard var other = found else {
                    found = predecessor
                    continue
                }
                var finger = predecessor
                while finger != other {
                    while order[finger] < order[other] { finger = idom[finger]! }
                    while order[other] < order[finger] { other = idom[other]! }
                }
                found = finger
            }
            if let found, idom[node] != found {
                idom[node] = found
                changed = true
            }
        }
    }
    idom[root] = nil
    return idom
}

/// A graph built from a list of edges, as the heap's graph is.
func adjacencyGraph(nodeCount: Int, edges: [(UInt32, UInt32)]) -> AdjacencyGraph {
    AdjacencyGraph(nodeCount: nodeCount, sources: edges.map(\.0), targets: edges.map(\.1))
}
