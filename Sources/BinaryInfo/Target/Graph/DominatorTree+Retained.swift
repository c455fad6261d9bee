extension DominatorTree {
    /// Each node's retained size: its own size plus the own sizes of every node it dominates,
    /// which is what would become unreachable if it did. `0` for a node the root does not reach.
    ///
    /// One pass over ``preorder`` backwards: a node's dominators all come before it there, so
    /// each node has its whole dominator subtree added in when it is reached, and then adds
    /// itself to its immediate dominator.
    ///
    /// - Precondition: `ownSizes` has one entry per node (or per node before a virtual root,
    ///   whose own size is then 0: a heap's allocation sizes as they are), and the sizes of the
    ///   reachable nodes add up to less than 2^64 (the sizes of allocations that do not overlap
    ///   always do).
    public func retainedSizes<Sizes: RandomAccessCollection<UInt64>>(ownSizes: Sizes) -> [UInt64] where Sizes.Index == Int {
        precondition(ownSizes.count == nodeCount || (ownSizes.count == nodeCount - 1 && root == nodeCount - 1), "one size per node")
        var retained = [UInt64](repeating: 0, count: nodeCount)
        let sized = ownSizes.count
        // Every entry of `preorder` and `immediateDominators` is a node or `none`, below the
        // arrays' length: the buffers are indexed by them unchecked.
        let first = ownSizes.startIndex
        retained.withUnsafeMutableBufferPointer { retained in
            immediateDominators.withUnsafeBufferPointer { dominators in
                for node in preorder.reversed() {
                    let node = Int(node)
                    if node < sized { retained[node] += ownSizes[first + node] }
                    let dominator = dominators[node]
                    if dominator != Self.none { retained[Int(dominator)] += retained[node] }
                }
            }
        }
        return retained
    }

    /// Which reachable nodes no other node of their own class dominates: the outermost of each
    /// class, whose dominator subtrees hold all the others of that class and never overlap one
    /// another. Adding up those nodes' retained sizes counts each node once per class.
    ///
    /// The dominator tree is numbered in its own preorder, where a node's subtree is the range of
    /// numbers from its own up to its subtree's size; the nodes are then visited in that order,
    /// and a node lies under another of its class exactly when its number falls before the end of
    /// the range of the last outermost node of its class visited.
    ///
    /// - Parameters:
    ///   - classes: each node's class, below `classCount`; ``none`` for a node of no class.
    /// - Returns: one flag per node: true for an outermost node of its class; false for the
    ///   others, for nodes of no class and for nodes the root does not reach.
    public func outermostOfClass(_ classes: [UInt32], classCount: Int) -> [Bool] {
        precondition(classes.count == nodeCount, "one class per node")
        precondition(classes.allSatisfy { $0 == Self.none || Int($0) < classCount }, "a class below classCount")
        // Subtree sizes, then each node's number in the dominator tree's preorder: a child takes
        // its parent's next free number, and the parent's next free number moves past the child's
        // subtree. `next` holds a node's subtree size until the node is numbered, then its next
        // free number, which ends as the end of its subtree's range.
        var next = [UInt32](repeating: 0, count: nodeCount)
        var inTreeOrder = [UInt32](repeating: 0, count: preorder.count)
        var outermost = [Bool](repeating: false, count: nodeCount)
        var classEnd = [UInt32](repeating: 0, count: classCount)
        // Indexed unchecked by nodes (entries of `preorder` and `immediateDominators`), by tree
        // numbers (below the reachable nodes' count) and by classes (checked above).
        next.withUnsafeMutableBufferPointer { next in
            immediateDominators.withUnsafeBufferPointer { dominators in
                for node in preorder.reversed() {
                    next[Int(node)] += 1
                    let dominator = dominators[Int(node)]
                    if dominator != Self.none { next[Int(dominator)] += next[Int(node)] }
                }
                inTreeOrder.withUnsafeMutableBufferPointer { inTreeOrder in
                    for node in preorder {
                        let node = Int(node)
                        let dominator = dominators[node]
                        let subtree = next[node]
                        var number: UInt32 = 0
                        if dominator != Self.none {
                            number = next[Int(dominator)]
                            next[Int(dominator)] += subtree
                        }
                        inTreeOrder[Int(number)] = UInt32(node)
                        next[node] = number + 1
                    }
                    classes.withUnsafeBufferPointer { classes in
                        outermost.withUnsafeMutableBufferPointer { outermost in
                            classEnd.withUnsafeMutableBufferPointer { classEnd in
                                for (number, node) in inTreeOrder.enumerated() {
                                    let node = Int(node)
                                    let nodeClass = classes[node]
                                    guard nodeClass != Self.none else { continue }
                                    if UInt32(number) >= classEnd[Int(nodeClass)] {
                                        outermost[node] = true
                                        classEnd[Int(nodeClass)] = next[node]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return outermost
    }
}
