/// A depth-first search of an ``AdjacencyGraph`` from one root, without recursion: the nodes it
/// reaches numbered in preorder (root `0`), and the search tree.
///
/// The search's stack is the tree itself: the node being explored goes back to its parent
/// (``parents``) when its successors are exhausted, and how far each node's successors have been
/// looked at is kept per number (``cursors``), so a path of ten million nodes needs no more than
/// the arrays every node has anyway. The loops run over buffer pointers: every index is a node
/// of the graph (``RootedRows`` checks the rows once) or a number the search gave.
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
        var numbers = [UInt32](repeating: 0, count: nodeCount)
        var vertices = [UInt32](repeating: 0, count: nodeCount)
        var parents = [UInt32](repeating: 0, count: nodeCount)
        var cursors = [UInt32](repeating: 0, count: nodeCount)
        var reached = 1
        graph.withRows { rows in
            numbers.withUnsafeMutableBufferPointer { numbers in
                vertices.withUnsafeMutableBufferPointer { vertices in
                    parents.withUnsafeMutableBufferPointer { parents in
                        cursors.withUnsafeMutableBufferPointer { cursors in
                            numbers[root] = 1
                            vertices[0] = UInt32(root)
                            parents[0] = DominatorTree.none
                            var current = 0
                            explore: while true {
                                let row = rows.row(Int(vertices[current]))
                                var position = Int(cursors[current])
                                while position < row.count {
                                    let successor = Int(row[position])
                                    position += 1
                                    if numbers[successor] == 0 {
                                        cursors[current] = UInt32(position)
                                        numbers[successor] = UInt32(reached + 1)
                                        vertices[reached] = UInt32(successor)
                                        parents[reached] = UInt32(current)
                                        current = reached
                                        reached += 1
                                        continue explore
                                    }
                                }
                                if current == 0 { break }
                                current = Int(parents[current])
                            }
                        }
                    }
                }
            }
        }
        vertices.removeLast(nodeCount - reached)
        parents.removeLast(nodeCount - reached)
        cursors.removeLast(nodeCount - reached)
        self.numbers = numbers
        self.vertices = vertices
        self.parents = parents
        self.cursors = cursors
    }

    /// The predecessors of each reached node among the reached nodes, by preorder number.
    /// Uses ``cursors`` as its fill positions.
    mutating func predecessors(_ graph: RootedRows) -> NumberedPredecessors {
        let count = vertices.count
        var starts = [UInt32](repeating: 0, count: count + 1)
        var sources: [UInt32] = []
        graph.withRows { rows in
            numbers.withUnsafeBufferPointer { numbers in
                vertices.withUnsafeBufferPointer { vertices in
                    starts.withUnsafeMutableBufferPointer { starts in
                        // Every successor of a reached node is reached.
                        for number in 0..<count {
                            for successor in rows.row(Int(vertices[number])) { starts[Int(numbers[Int(successor)])] += 1 }
                        }
                        for number in 0..<count { starts[number + 1] += starts[number] }
                    }
                    sources = [UInt32](repeating: 0, count: Int(starts[count]))
                    starts.withUnsafeBufferPointer { starts in
                        sources.withUnsafeMutableBufferPointer { sources in
                            cursors.withUnsafeMutableBufferPointer { cursors in
                                for number in 0..<count { cursors[number] = starts[number] }
                                for number in 0..<count {
                                    for successor in rows.row(Int(vertices[number])) {
                                        let target = Int(numbers[Int(successor)]) - 1
                                        sources[Int(cursors[target])] = UInt32(number)
                                        cursors[target] += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return NumberedPredecessors(starts: starts, sources: sources)
    }
}

/// Each preorder number's predecessors' numbers, as compressed rows.
struct NumberedPredecessors {
    let starts: [UInt32]
    let sources: [UInt32]
}

/// An ``AdjacencyGraph``, with one more node after its own when it has a virtual root: a node
/// whose successors are listed apart (what the roots reach directly), so that the graph's rows
/// are not copied to add them.
struct RootedRows {
    let graph: AdjacencyGraph
    /// The virtual root's successors; nil when the graph is searched from one of its own nodes.
    let rootRow: [UInt32]?

    /// Checks that every successor is a node: the searches index by them without checks.
    init(graph: AdjacencyGraph, rootRow: [UInt32]?) {
        precondition(
            graph.starts.count == graph.nodeCount + 1 && graph.starts.first == 0 && graph.starts.last == graph.edgeCount
                && zip(graph.starts, graph.starts.dropFirst()).allSatisfy { $0 <= $1 },
            "rows that cover the targets in order")
        let nodeCount = UInt32(graph.nodeCount)
        precondition(graph.targets.allSatisfy { $0 < nodeCount }, "every edge's target a node of the graph")
        precondition(rootRow?.allSatisfy { $0 < nodeCount } ?? true, "the virtual root's successors are nodes of the graph")
        self.graph = graph
        self.rootRow = rootRow
    }

    var nodeCount: Int { graph.nodeCount + (rootRow == nil ? 0 : 1) }

    /// Rows of no edges, standing in for rows let go.
    init(emptyWithNodeCount nodeCount: Int) {
        graph = AdjacencyGraph(nodeCount: 0)
        rootRow = nil
    }

    /// The rows as buffers, for the length of `body`.
    func withRows<Result>(_ body: (Buffers) -> Result) -> Result {
        graph.starts.withUnsafeBufferPointer { starts in
            graph.targets.withUnsafeBufferPointer { targets in
                (rootRow ?? []).withUnsafeBufferPointer { rootRow in
                    body(Buffers(starts: starts, targets: targets, rootRow: rootRow))
                }
            }
        }
    }

    /// The rows' storage, valid inside ``withRows(_:)`` only.
    struct Buffers {
        let starts: UnsafeBufferPointer<Int>
        let targets: UnsafeBufferPointer<UInt32>
        let rootRow: UnsafeBufferPointer<UInt32>

        @inline(__always)
        func row(_ node: Int) -> UnsafeBufferPointer<UInt32> {
            node < starts.count - 1 ? UnsafeBufferPointer(rebasing: targets[starts[node]..<starts[node + 1]]) : rootRow
        }
    }
}
