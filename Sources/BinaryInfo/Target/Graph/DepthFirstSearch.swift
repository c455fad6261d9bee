/// A depth-first search of an ``AdjacencyGraph`` from one root, without recursion: the nodes it
/// reaches numbered in preorder (root `0`), and the search tree.
///
/// The search's stack is the tree itself: the node being explored goes back to its parent
/// (``parents``) when its successors are exhausted, and how far each node's successors have been
/// looked at is kept per number (``cursors``), so a path of ten million nodes needs no more than
/// the arrays every node has anyway.
struct DepthFirstSearch {
    /// Each node's preorder number plus one; `0` for a node the root does not reach.
    var numbers: [UInt32]
    /// The node of each preorder number.
    var vertices: [UInt32]
    /// The search tree parent of each number (``DominatorTree/none`` for the root).
    var parents: [UInt32]
    /// Each number's position in its node's successors when it was left; spare storage once the
    /// search is done.
    var cursors: [UInt32]

    init(_ graph: RootedRows, root: Int) {
        let nodeCount = graph.nodeCount
        numbers = [UInt32](repeating: 0, count: nodeCount)
        vertices = []
        parents = []
        cursors = []
        // Reserved, not filled: the pages of the unused tail are never touched.
        vertices.reserveCapacity(nodeCount)
        parents.reserveCapacity(nodeCount)
        cursors.reserveCapacity(nodeCount)
        numbers[root] = 1
        vertices.append(UInt32(root))
        parents.append(DominatorTree.none)
        cursors.append(0)
        var current = 0
        explore: while true {
            let node = Int(vertices[current])
            let row = graph.row(node)
            let start = row.startIndex
            let end = row.endIndex
            var position = start + Int(cursors[current])
            while position < end {
                let successor = Int(row[position])
                position += 1
                if numbers[successor] == 0 {
                    cursors[current] = UInt32(position - start)
                    let number = vertices.count
                    numbers[successor] = UInt32(number + 1)
                    vertices.append(UInt32(successor))
                    parents.append(UInt32(current))
                    cursors.append(0)
                    current = number
                    continue explore
                }
            }
            if current == 0 { break }
            current = Int(parents[current])
        }
    }

    /// The predecessors of each reached node among the reached nodes, by preorder number.
    /// Uses ``cursors`` as its fill positions.
    mutating func predecessors(_ graph: RootedRows) -> NumberedPredecessors {
        let count = vertices.count
        var starts = [UInt32](repeating: 0, count: count + 1)
        // Every successor of a reached node is reached.
        for number in 0..<count {
            for successor in graph.row(Int(vertices[number])) { starts[Int(numbers[Int(successor)])] += 1 }
        }
        for number in 0..<count { starts[number + 1] += starts[number] }
        for number in 0..<count { cursors[number] = starts[number] }
        var sources = [UInt32](repeating: 0, count: Int(starts[count]))
        for number in 0..<count {
            for successor in graph.row(Int(vertices[number])) {
                let target = Int(numbers[Int(successor)]) - 1
                sources[Int(cursors[target])] = UInt32(number)
                cursors[target] += 1
            }
        }
        return NumberedPredecessors(starts: starts, sources: sources)
    }
}

/// Each preorder number's predecessors' numbers, as compressed rows.
struct NumberedPredecessors {
    let starts: [UInt32]
    let sources: [UInt32]

    @inline(__always)
    func of(_ number: Int) -> ArraySlice<UInt32> { sources[Int(starts[number])..<Int(starts[number + 1])] }
}

/// An ``AdjacencyGraph``, with one more node after its own when it has a virtual root: a node
/// whose successors are listed apart (what the roots reach directly), so that the graph's rows
/// are not copied to add them.
struct RootedRows {
    let graph: AdjacencyGraph
    /// The virtual root's successors; nil when the graph is searched from one of its own nodes.
    let rootRow: [UInt32]?

    var nodeCount: Int { graph.nodeCount + (rootRow == nil ? 0 : 1) }

    @inline(__always)
    func row(_ node: Int) -> ArraySlice<UInt32> {
        node < graph.nodeCount ? graph.targets[graph.starts[node]..<graph.starts[node + 1]] : rootRow![...]
    }
}
