// The probe Tools/bench-graph compiles with DominatorTree's sources: builds one synthetic graph,
// computes its dominator tree and retained sizes, and prints how long each step took.
//
//   probe SHAPE NODES      SHAPE: list (a doubly linked list from its head), random (a path
//                          through half the nodes and two random edges per node), heap (a
//                          virtual root over 1,000 roots, a random tree below them, a tenth of
//                          the nodes with one more random edge)
#if canImport(Glibc)
import Glibc
#endif

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Everything in one function: top-level variables would be globals, checked for exclusive access at every use.
func run() {
    let arguments = CommandLine.arguments
    let shape = arguments.count > 1 ? arguments[1] : "heap"
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000_000 : 10_000_000
    var random = SplitMix64(state: 42)
    var sources: [UInt32] = []
    var targets: [UInt32] = []
    var rootSuccessors: [UInt32]? = nil
    switch shape {
    case "list":
        sources.reserveCapacity(2 * count)
        targets.reserveCapacity(2 * count)
        for node in 0..<UInt32(count - 1) {
            sources.append(node)
            targets.append(node + 1)
            sources.append(node + 1)
            targets.append(node)
        }
    case "random":
        for node in 0..<UInt32(count / 2) {
            sources.append(node)
            targets.append(node + 1)
        }
        for _ in 0..<(2 * count) {
            sources.append(UInt32.random(in: 0..<UInt32(count), using: &random))
            targets.append(UInt32.random(in: 0..<UInt32(count), using: &random))
        }
    default:
        rootSuccessors = (0..<UInt32(1000)).map { $0 }
        for node in 1000..<UInt32(count) {
            sources.append(UInt32.random(in: 0..<node, using: &random))
            targets.append(node)
        }
        for _ in 0..<(count / 10) {
            sources.append(UInt32.random(in: 0..<UInt32(count), using: &random))
            targets.append(UInt32.random(in: 0..<UInt32(count), using: &random))
        }
    }
    let graph = AdjacencyGraph(nodeCount: count, sources: sources, targets: targets)
    sources = []
    targets = []
    let start = seconds()
    let tree = rootSuccessors.map { DominatorTree(graph, virtualRootSuccessors: $0) } ?? DominatorTree(graph, root: 0)
    let built = seconds()
    let sizes = [UInt64](repeating: 48, count: tree.nodeCount)
    let retained = tree.retainedSizes(ownSizes: sizes)
    let summed = seconds()
    let classes = (0..<tree.nodeCount).map { UInt32($0 % 7) }
    let outermost = tree.outermostOfClass(classes, classCount: 7)
    let classified = seconds()
    print(
        "\(shape): \(count) nodes, \(graph.edgeCount) edges, \(tree.preorder.count) reached; dominators \(built - start) s, "
            + "retained sizes \(summed - built) s (root retains \(retained[tree.root]) bytes), outermost of 7 classes \(classified - summed) s "
            + "(\(outermost.lazy.filter { $0 }.count) outermost)")
}

run()
