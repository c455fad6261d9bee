/// The memory graph ``HeapReachability`` records when asked: every pointer from one allocation
/// into another, and how each reachable allocation was first reached.
///
/// The marking goes in rounds (the roots, then what they reach, then what those reach, …), so
/// the first reach of an allocation ends a shortest path from a root, counted in steps.
public struct HeapEdges: Sendable {
    /// Allocation → allocation pointers, over the positions of ``HeapReachability/addresses``:
    /// an edge for each allocation a word of the source points into (a word repeated next to
    /// itself counted once). The weak side-table back-pointer is not an edge, and roots are not
    /// nodes (``rootReached`` lists what they point into).
    public let graph: AdjacencyGraph
    /// Per allocation: its first holder's position, or ``Self/rootParent``, or ``Self/unreached``;
    /// empty when the first reaches were not recorded.
    let parents: [UInt32]
    /// Per allocation: the byte offset of the pointing word in its first holder (``Self/offsetTooLarge``
    /// past 4 GiB), or, when a root reached it, the position of the root word in ``rootWords``.
    let offsets: [UInt32]
    /// The root words that first reached an allocation.
    let rootWords: [HeapRootWord]
    /// The allocations a root points into, ascending.
    public let rootReachedPositions: [UInt32]

    /// Whether ``firstReach(of:)`` can be asked: the reading recorded the first reaches.
    public var recordsFirstReaches: Bool { parents.count == graph.nodeCount }

    /// A graph with no edges and nothing reached.
    public static func empty(allocations: Int) -> HeapEdges {
        HeapEdges(
            graph: AdjacencyGraph(nodeCount: allocations), parents: Array(repeating: unreached, count: allocations),
            offsets: Array(repeating: 0, count: allocations), rootWords: [], rootReachedPositions: [])
    }

    static let rootParent = UInt32.max
    static let unreached = UInt32.max - 1
    static let offsetTooLarge = UInt32.max

    /// How `allocation` was first reached; nil when no root reaches it.
    ///
    /// - Precondition: the first reaches were recorded (``recordsFirstReaches``).
    public func firstReach(of allocation: Int) -> HeapFirstReach? {
        precondition(recordsFirstReaches, "the first reaches were not recorded")
        switch parents[allocation] {
        case Self.unreached: return nil
        case Self.rootParent: return .root(rootWords[Int(offsets[allocation])])
        case let parent:
            let offset = offsets[allocation]
            return .allocation(Int(parent), offset: offset == Self.offsetTooLarge ? nil : UInt64(offset))
        }
    }

    /// The allocations a root points into (every root is scanned before any allocation is, so
    /// these are exactly the allocations whose first reach is a root), ascending.
    public var rootReached: [Int] { rootReachedPositions.map(Int.init) }
}

/// How a reachable allocation was first reached.
public enum HeapFirstReach: Sendable, Hashable {
    /// A word of a root points into it.
    case root(HeapRootWord)
    /// A word of the allocation at this position of ``HeapReachability/addresses`` points into
    /// it; `offset` is that word's byte offset from the holder's start (nil past 4 GiB).
    case allocation(Int, offset: UInt64?)
}

/// A root word that points into an allocation.
public enum HeapRootWord: Sendable, Hashable {
    /// A register word of a thread (`index` in ``ThreadRegisters/words``' order).
    case register(thread: Int32, index: Int)
    /// A word of writable memory outside the heap, at this address.
    case memory(address: UInt64)
}

/// What the marking records of the graph: parents and offsets as ``HeapEdges`` keeps them (when
/// asked), and each scanned allocation's row of successors, one after another in the order the
/// allocations were scanned (4 bytes an allocation for that order, 4 for its row's length), in
/// blocks that never double and are let go as the rows are put in node order.
struct HeapEdgeRecorder {
    let recordingFirstReaches: Bool
    var parents: [UInt32] = []
    var offsets: [UInt32] = []
    var rootWords: [HeapRootWord] = []
    var rootReached: [UInt32] = []
    /// The allocations in the order they were scanned, and each one's row length.
    var scanOrder: [UInt32] = []
    var rowCounts: [UInt32]
    private var blocks: [MappedBlock<UInt32>?] = []
    private(set) var lastTarget: UInt32 = 0
    private(set) var edgeCount = 0
    static let blockSize = 1 << 20

    init(allocations: Int, recordingFirstReaches: Bool = true) {
        self.recordingFirstReaches = recordingFirstReaches
        if recordingFirstReaches {
            parents = Array(repeating: HeapEdges.unreached, count: allocations)
            offsets = Array(repeating: 0, count: allocations)
        }
        rowCounts = Array(repeating: 0, count: allocations)
        scanOrder.reserveCapacity(allocations)
    }

    mutating func appendTarget(_ target: UInt32) {
        if edgeCount % Self.blockSize == 0 { blocks.append(MappedBlock(capacity: Self.blockSize)) }
        blocks[blocks.count - 1]!.append(target)
        lastTarget = target
        edgeCount += 1
    }

    /// The edges, with the rows put in node order.
    consuming func finish() -> HeapEdges {
        let nodeCount = rowCounts.count
        var starts = [Int](repeating: 0, count: nodeCount + 1)
        for node in 0..<nodeCount { starts[node + 1] = starts[node] + Int(rowCounts[node]) }
        rowCounts = []
        var targets = [UInt32](repeating: 0, count: edgeCount)
        // The rows lie in scan order across the blocks: one pass copies them, each block let go
        // once passed.
        var block = 0
        var slot = 0
        targets.withUnsafeMutableBufferPointer { targets in
            for node in scanOrder {
                var next = starts[Int(node)]
                let end = starts[Int(node) + 1]
                while next < end {
                    if slot == Self.blockSize {
                        blocks[block] = nil
                        block += 1
                        slot = 0
                    }
                    let take = min(end - next, Self.blockSize - slot)
                    blocks[block]!.withElements { rows in
                        for offset in 0..<take { targets[next + offset] = rows[slot + offset] }
                    }
                    next += take
                    slot += take
                }
            }
        }
        blocks = []
        scanOrder = []
        let graph = AdjacencyGraph(starts: starts, targets: targets)
        return HeapEdges(
            graph: graph, parents: parents, offsets: offsets, rootWords: rootWords, rootReachedPositions: rootReached.sorted())
    }
}
