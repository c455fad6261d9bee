// A process whose objects' retained sizes are known, for `typeinfo heap --retained`: a chain of
// objects of one type (each link dominates the rest, so only the head counts for its type), a
// tree of nodes with leaves of another type, and a diamond (two parents sharing a child, which
// neither retains alone). It computes each type's retained bytes itself, from
// `malloc_usable_size` of each object, and prints one JSON line:
//   {"pid": …, "retained": {"LiveRetained.ChainLink": N, …}, "counts": {"LiveRetained.ChainLink": N, …},
//    "outermost": {"LiveRetained.ChainLink": "0x…", …}}
// (`outermost`: an object that retains all its type's retained bytes).
// then waits until its standard input closes. The structures hold only each other and no
// strings or arrays, so nothing outside them is in their retained bytes.
#if canImport(Glibc)
import Glibc
#endif

final class ChainLink {
    var next: ChainLink?
    var payload = (1, 2, 3)
}

final class TreeLeaf { var payload = (4, 5) }

final class TreeNode {
    var left: TreeNode?
    var right: TreeNode?
    var leaf: TreeLeaf?
}

final class DiamondGrandchild { var payload = (6, 7, 8, 9) }
final class DiamondChild { var grandchild = DiamondGrandchild() }
final class DiamondParent {
    let child: DiamondChild
    init(child: DiamondChild) { self.child = child }
}

/// `malloc_usable_size(3)`, which Glibc's module map leaves out.
let usableSize = unsafeBitCast(
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size")!, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)

func size(_ object: AnyObject) -> Int { usableSize(Unmanaged.passUnretained(object).toOpaque()) }

nonisolated(unsafe) var retained: [String: Int] = [:]
nonisolated(unsafe) var counts: [String: Int] = [:]

func count(_ object: AnyObject, _ type: String) -> Int {
    counts[type, default: 0] += 1
    return size(object)
}

/// A chain of `length` links: the head retains every link.
@inline(never) func makeChain(length: Int) -> ChainLink {
    let head = ChainLink()
    var bytes = count(head, "LiveRetained.ChainLink")
    var last = head
    for _ in 1..<length {
        let link = ChainLink()
        bytes += count(link, "LiveRetained.ChainLink")
        last.next = link
        last = link
    }
    retained["LiveRetained.ChainLink"] = bytes
    return head
}

/// A full binary tree of `depth` levels of nodes, each bottom node holding a leaf. The root
/// retains every node and leaf; each leaf is retained by its node alone.
@inline(never) func makeTree(depth: Int) -> TreeNode {
    var leafBytes = 0
    var nodeBytes = 0
    func build(_ level: Int) -> TreeNode {
        let node = TreeNode()
        nodeBytes += count(node, "LiveRetained.TreeNode")
        if level == depth {
            let leaf = TreeLeaf()
            leafBytes += count(leaf, "LiveRetained.TreeLeaf")
            node.leaf = leaf
        } else {
            node.left = build(level + 1)
            node.right = build(level + 1)
        }
        return node
    }
    let root = build(1)
    retained["LiveRetained.TreeNode"] = nodeBytes + leafBytes
    retained["LiveRetained.TreeLeaf"] = leafBytes
    return root
}

/// Two parents sharing one child: each parent retains only itself; the child retains itself and
/// its grandchild.
@inline(never) func makeDiamond() -> (DiamondParent, DiamondParent) {
    let child = DiamondChild()
    let first = DiamondParent(child: child)
    let second = DiamondParent(child: child)
    retained["LiveRetained.DiamondParent"] = count(first, "LiveRetained.DiamondParent") + count(second, "LiveRetained.DiamondParent")
    let grandchild = count(child.grandchild, "LiveRetained.DiamondGrandchild")
    retained["LiveRetained.DiamondChild"] = count(child, "LiveRetained.DiamondChild") + grandchild
    retained["LiveRetained.DiamondGrandchild"] = grandchild
    return (first, second)
}

let chain = makeChain(length: 1000)
let tree = makeTree(depth: 8)
let (firstParent, secondParent) = makeDiamond()

func table(_ values: [String: Int]) -> String {
    "{" + values.keys.sorted().map { "\"\($0)\": \(values[$0]!)" }.joined(separator: ", ") + "}"
}
/// One object whose retained bytes are its type's: the chain's head, the tree's root, the
/// diamond's shared child (for `typeinfo retainers ADDRESS`).
func address(_ object: AnyObject) -> String {
    "\"0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16) + "\""
}
let outermost = [
    "LiveRetained.ChainLink": address(chain), "LiveRetained.TreeNode": address(tree),
    "LiveRetained.DiamondChild": address(firstParent.child),
]
let outermostTable = "{" + outermost.keys.sorted().map { "\"\($0)\": \(outermost[$0]!)" }.joined(separator: ", ") + "}"
print("{\"pid\": \(getpid()), \"retained\": \(table(retained)), \"counts\": \(table(counts)), \"outermost\": \(outermostTable)}")
fflush(stdout)
var byte: UInt8 = 0
while read(0, &byte, 1) > 0 {}
// The structures stay alive until here.
withExtendedLifetime((chain, tree, firstParent, secondParent)) {}
exit(0)
