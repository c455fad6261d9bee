import BinaryInfo
import TypeLayout
import TypeLowering

/// The retain cycles among a heap's unreached allocations: the strongly connected components of
/// the pointers between them, each shown as one cycle through its least allocation, grouped by
/// shape.
enum LeakCycles {
    static func find(_ unreached: [Int], _ reachability: HeapReachability, _ inspector: TargetInspector, names: [UInt64: String])
        throws(LiveReadingError) -> [LeakReport.Cycle]
    {
        guard !unreached.isEmpty else { return [] }
        let graph: AdjacencyGraph
        do throws(BinaryInfoError) {
            graph = try reachability.unreachedGraph(unreached)
        } catch {
            throw .target(error)
        }
        let components = StronglyConnectedComponents(graph).components
        guard !components.isEmpty else { return [] }
        var chains: [[RetainerPaths.Step]] = []
        for component in components {
            let cycle = preferredCycle(in: component, graph, unreached, reachability, inspector.memory)
            let steps: [RetainerPaths.Step] = zip(cycle, cycle.dropFirst() + [cycle[0]]).map { holder, held in
                .allocation(
                    unreached[holder],
                    offset: RetainerPaths.offset(in: unreached[holder], of: unreached[held], reachability, memory: inspector.memory))
            }
            // The last holder first as well, so that the first holder's word names a closure
            // context's function as every other's does; dropped once described.
            chains.append([steps[steps.count - 1]] + steps)
        }
        var describer = HolderDescriber(inspector: inspector, reachability: reachability)
        describer.knownNames = names
        let described = try describer.describe(chains)
        var groups: [[String]: (count: Int, allocations: Int)] = [:]
        for (holders, component) in zip(described, components) {
            let shape = canonical(Array(holders.dropFirst()))
            let known = groups[shape] ?? (0, 0)
            groups[shape] = (known.count + 1, known.allocations + component.count)
        }
        return groups.map { LeakReport.Cycle(shape: $0.key, count: $0.value.count, allocations: $0.value.allocations) }
    }

    /// How many members of a component a cycle through strong references is looked for from.
    static let startsTried = 16

    /// A shortest cycle of `component` through strong references (and allocations scanned
    /// conservatively throughout) where one of its first members has one; else a shortest cycle
    /// through its first member over every word.
    static func preferredCycle(
        in component: [Int], _ graph: AdjacencyGraph, _ unreached: [Int], _ reachability: HeapReachability, _ memory: TargetMemory
    ) -> [Int] {
        let members = Set(component)
        var preferred: [Int: Bool] = [:]
        for start in component.prefix(startsTried) {
            let found = cycle(through: start, within: members, graph) { holder, held in
                let key = holder << 32 | held
                if let known = preferred[key] { return known }
                let answer = ReferenceWords.isPreferredEdge(from: unreached[holder], to: unreached[held], reachability, memory: memory)
                preferred[key] = answer
                return answer
            }
            if let found { return found }
        }
        return cycle(through: component[0], within: members, graph) { _, _ in true } ?? [component[0]]
    }

    /// A shortest cycle from `start` back to it, through nodes of `component` and edges
    /// `following` allows (breadth first); nil when there is none.
    static func cycle(through start: Int, within component: Set<Int>, _ graph: AdjacencyGraph, following: (Int, Int) -> Bool)
        -> [Int]?
    {
        var previous: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in graph.successors(of: node).map(Int.init) where component.contains(next) && following(node, next) {
                if next == start {
                    var cycle = [node]
                    while let before = previous[cycle.last!] { cycle.append(before) }
                    return cycle.reversed()
                }
                if previous[next] == nil, next != start {
                    previous[next] = node
                    queue.append(next)
                }
            }
        }
        // A component of more than one node, or one pointing to itself, has a cycle through each
        // of its nodes over all its edges.
        return nil
    }

    /// The cycle's holders rotated to start at the least (so that one cycle read from any of its
    /// nodes has one shape), with the first holder's kind again at the end.
    static func canonical(_ holders: [RetainersReport.Holder]) -> [String] {
        let shapes = holders.map(\.shape)
        let rotations = shapes.indices.map { Array(shapes[$0...] + shapes[..<$0]) }
        let least = rotations.min { $0.lexicographicallyPrecedes($1) } ?? shapes
        let first = least.first.flatMap { shape in holders.first { $0.shape == shape } }
        let closing: String
        if case .allocation(let allocation, _)? = first { closing = allocation.kindText } else { closing = least.first ?? "" }
        return least + [closing]
    }
}
