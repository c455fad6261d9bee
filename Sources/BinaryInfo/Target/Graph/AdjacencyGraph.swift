/// A directed graph over nodes `0..<nodeCount`, stored as compressed rows: node `n`'s successors
/// are `targets[starts[n]..<starts[n + 1]]`.
///
/// The heap's memory graph has one node per allocation and often tens of millions of edges, so
/// it is kept in two flat arrays (4 bytes an edge, 8 a node) rather than in per-node arrays.
public struct AdjacencyGraph: Sendable {
    /// Where each node's successors start in ``targets``; `nodeCount + 1` entries, the last
    /// being `targets.count`.
    public let starts: [Int]
    /// Every node's successors, node by node.
    public let targets: [UInt32]

    /// How many nodes the graph has.
    public var nodeCount: Int { starts.count - 1 }

    /// How many edges the graph has.
    public var edgeCount: Int { targets.count }

    /// The successors of `node`.
    public func successors(of node: Int) -> ArraySlice<UInt32> { targets[starts[node]..<starts[node + 1]] }

    /// A graph of `nodeCount` nodes with no edges.
    public init(nodeCount: Int) {
        starts = Array(repeating: 0, count: nodeCount + 1)
        targets = []
    }

    /// Builds the rows from edges given in any order: `sources[i] → targets[i]`.
    ///
    /// - Precondition: both arrays have one entry per edge, and every entry is below `nodeCount`
    ///   (the builder checks; an edge outside the graph is a bug of the caller, not of the target
    ///   read).
    public init(nodeCount: Int, sources: [UInt32], targets edgeTargets: [UInt32]) {
        precondition(sources.count == edgeTargets.count, "one source per edge target")
        var starts = Array(repeating: 0, count: nodeCount + 1)
        for source in sources {
            precondition(Int(source) < nodeCount, "an edge's source outside the graph")
            starts[Int(source) + 1] += 1
        }
        for node in 0..<nodeCount { starts[node + 1] += starts[node] }
        var next = starts
        var targets = [UInt32](repeating: 0, count: edgeTargets.count)
        for (source, target) in zip(sources, edgeTargets) {
            precondition(Int(target) < nodeCount, "an edge's target outside the graph")
            targets[next[Int(source)]] = target
            next[Int(source)] += 1
        }
        self.starts = starts
        self.targets = targets
    }

    /// Rows already built (`starts` ascending from 0 to `targets.count`, every target a node).
    init(starts: [Int], targets: [UInt32]) {
        self.starts = starts
        self.targets = targets
    }

    /// The same nodes with every edge reversed.
    public func reversed() -> AdjacencyGraph {
        var sources = [UInt32]()
        sources.reserveCapacity(edgeCount)
        for node in 0..<nodeCount {
            for _ in starts[node]..<starts[node + 1] { sources.append(UInt32(node)) }
        }
        return AdjacencyGraph(nodeCount: nodeCount, sources: targets, targets: sources)
    }
}
