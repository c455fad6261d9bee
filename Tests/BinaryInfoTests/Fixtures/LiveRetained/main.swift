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
//
// Two owners a global keeps, each holding its items in an array, for `typeinfo retainers --type`
// (which should group the items through the global): `tlsStore`, whose array storage's address a
// thread's control block also keeps (a value `pthread_setspecific` stored, as a stale word would
// be: a path one step shorter than the owner's), and `bssStore`, a global the executable's bss
// holds past its file's end (after 64 KiB of zero-initialised storage), where the kernel maps the
// bss as anonymous memory, and whose storage's address the thread keeps too (so that only a
// global's place for that bss puts the owner's path first). The JSON line adds
//   "owners": {"tls": N, "bss": N, "bssPastFileEnd": true|false, "tlsStorage": "0x…"}
// (the items of each; whether the bss global lies in an anonymous mapping, read from
// /proc/self/maps; the address of `tlsStore`'s array storage, whose copy the thread keeps).
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

final class TLSItem { var payload = (10, 11) }
final class TLSStore { var items: [TLSItem] = [] }
final class BssItem { var payload = (12, 13) }
final class BssStore { var items: [BssItem] = [] }

/// Zero-initialised bytes in the bss ahead of `bssStore`, so that it lies past the executable's
/// last file page.
nonisolated(unsafe) var bssPadding = InlineArray<65536, UInt8>(repeating: 0)
nonisolated(unsafe) var bssStore = BssStore()
nonisolated(unsafe) var tlsStore = TLSStore()

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

// The owners come after the structures whose retained bytes are checked, so that what their
// making allocates and frees (a thread, /proc/self/maps read) leaves no free chunk beside them.
for _ in 0..<5 { tlsStore.items.append(TLSItem()) }
for _ in 0..<7 { bssStore.items.append(BssItem()) }

/// Whether `address` lies in a mapping with no file (/proc/self/maps).
func inAnonymousMapping(_ address: UInt) -> Bool {
    guard let file = fopen("/proc/self/maps", "r") else { return false }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 4096)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        let fields = text.split { $0 == " " || $0 == "\n" }
        let bounds = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
        guard bounds.count == 2, address >= bounds[0], address < bounds[1] else { continue }
        return fields.count < 6
    }
    return false
}
let bssPastFileEnd = withUnsafePointer(to: &bssStore) { inAnonymousMapping(UInt(bitPattern: $0)) }

/// Stores the items' storage address as the calling thread's value of `key`: glibc keeps the
/// first keys' values in the thread's control block. The frame that computed it is gone by the
/// time the thread waits (below its stack pointer, which the marking leaves out).
@inline(never) func keepStorageAddresses(_ keys: (pthread_key_t, pthread_key_t)) {
    let storage = tlsStore.items.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
    pthread_setspecific(keys.0, storage)
    let inBss = bssStore.items.withUnsafeBufferPointer { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
    pthread_setspecific(keys.1, inBss)
}
nonisolated(unsafe) var storageKeys = (pthread_key_t(), pthread_key_t())
pthread_key_create(&storageKeys.0, nil)
pthread_key_create(&storageKeys.1, nil)
let keeping = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
pthread_barrier_init(keeping, nil, 2)
var keeper = pthread_t()
pthread_create(
    &keeper, nil,
    { _ in
        keepStorageAddresses(storageKeys)
        pthread_barrier_wait(keeping)
        while true { pause() }
    }, nil)
pthread_barrier_wait(keeping)

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
// An array is its storage object's reference.
let tlsStorage = String(unsafeBitCast(tlsStore.items, to: UInt.self), radix: 16)
let owners =
    "{\"tls\": \(tlsStore.items.count), \"bss\": \(bssStore.items.count), \"bssPastFileEnd\": \(bssPastFileEnd), \"tlsStorage\": \"0x\(tlsStorage)\"}"
print(
    "{\"pid\": \(getpid()), \"retained\": \(table(retained)), \"counts\": \(table(counts)), \"outermost\": \(outermostTable), \"owners\": \(owners)}"
)
fflush(stdout)
var byte: UInt8 = 0
while read(0, &byte, 1) > 0 {}
// The structures stay alive until here.
withExtendedLifetime((chain, tree, firstParent, secondParent)) {}
exit(0)
