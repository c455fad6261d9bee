/// The strongly connected components of an ``AdjacencyGraph`` (Tarjan's algorithm, with an
/// explicit stack: a heap's graph can be a list millions of nodes deep).
public struct StronglyConnectedComponents: Sendable {
    /// Each component's nodes, ascending; components with one node are included only when the
    /// node points to itself (`cyclesOnly`) or always.
    public let components: [[Int]]

    /// - Parameter cyclesOnly: keep only components that hold a cycle (two nodes or more, or one
    ///   with an edge to itself).
    public init(_ graph: AdjacencyGraph, cyclesOnly: Bool = true) {
        let count = graph.nodeCount
        var index = [Int](repeating: -1, count: count)
        var lowLink = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var next = 0
        // Each frame: a node and how far through its successors it is.
        var frames: [(node: Int, edge: Int)] = []
        for root in 0..<count where index[root] < 0 {
            frames.append((root, graph.starts[root]))
            index[root] = next
            lowLink[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                if frame.edge < graph.starts[node + 1] {
                    frames[frames.count - 1].edge += 1
                    let successor = Int(graph.targets[frame.edge])
                    if index[successor] < 0 {
                        index[successor] = next
                        lowLink[successor] = next
                        next += 1
                        stack.append(successor)
                        onStack[successor] = true
                        frames.append((successor, graph.starts[successor]))
                    } else if onStack[successor] {
                        lowLink[node] = min(lowLink[node], index[successor])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { lowLink[parent.node] = min(lowLink[parent.node], lowLink[node]) }
                guard lowLink[node] == index[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                if !cyclesOnly || component.count > 1 || graph.successors(of: node).contains(UInt32(node)) {
                    components.append(component.sorted())
                }
            }
        }
        self.components = components
    }
}
