// A process with a known graph of Swift objects, for `typeinfo leaks`: objects reachable in each
// way a root can hold them (a global, a thread's stack, a thread-specific value, a malloc'd C
// struct) and objects nothing holds (two-object retain cycles, objects retained and forgotten,
// cycles that weak references also point at, objects and the closures they own that capture
// them). It also keeps objects reachable only from a task-local value, only from an actor's
// state, and objects a weak reference points at beside their strong holder. Words that are no
// references but hold an object's address bits: an `[Int]` a global reaches whose element is the
// address of an object a longer chain of stored properties holds, an `Int` field that is the only
// holder of an object kept alive by `Unmanaged`, and leaked cycles whose `[UInt8]` bytes are
// their partner's address. Class references inside a struct's class-bound existential and inside
// an enum's payload. It prints one JSON line:
//   {"pid": …, "leaked": {"LiveLeaks.CycleA": ["0x…", …], …}, "leakedContexts": N, "leakedByteArrays": N, "reachable": {"global": [...], …},
//    "chains": {"0x…": ["global LiveLeaks.strongHolder", "LiveLeaks.StrongHolder.target"], …}}
// where each chain is the holders it built for a reachable object, root first: a global by its
// name, a Swift object's stored property as Type.property, an array's element as "element".
// and waits until its standard input closes. Its record of the leaked addresses is kept XORed
// with a key, so that the record is no pointer to them; the leaks are made on a thread that
// ends, so no live frame or register holds them.
#if canImport(Glibc)
import Glibc
#endif

final class CycleA { var other: CycleB? }
final class CycleB { var other: CycleA? }
final class Forgotten { var payload = (1, 2, 3) }
final class WeaklyHeldCycle { var other: WeaklyHeldCycle? }
final class WeakHolder { weak var target: WeaklyHeldCycle? }
final class HeldByGlobal { var value = 1 }
final class HeldOnStack { var value = 2 }
final class HeldThreadSpecific { var value = 3 }
final class HeldByMalloc { var value = 4 }
final class ClosureOwner {
    // Not optional: an optional closure is stored generically, and reading it back would wrap it.
    var callback: () -> Void = {}
    var value = 5
    // Two captures, so that the closure has a context of its own (one captured object would be
    // the context itself).
    init(tag: Int) { callback = { print(self.value, tag) } }
}
final class WeaklyAlsoHeld { var value = 6 }
final class StrongHolder { var target: WeaklyAlsoHeld? }
final class WeakOnly { weak var target: WeaklyAlsoHeld? }
final class UnownedHolder {
    unowned var target: WeaklyAlsoHeld
    init(_ target: WeaklyAlsoHeld) { self.target = target }
}
final class HeldByActor { var value = 7 }
final class OwnedAlsoOnStack { var value = 9 }
final class Owner { var items: [OwnedAlsoOnStack] = [] }
final class PointedAtByBits { var value = 9 }
final class Outer { var middle = Middle() }
final class Middle { var inner = Inner() }
final class Inner { var target: PointedAtByBits? }
final class BitsHolder { var words: [Int] = [] }
final class HeldByBitPattern { var value = 10 }
final class BitPatternHolder { var bits = 0 }
protocol Named: AnyObject { var name: String { get } }
final class InExistential: Named { var name = "inside" }
struct Boxed {
    var label = 1
    var item: any Named
}
final class ExistentialHolder {
    var boxed: Boxed
    init(_ item: any Named) { boxed = Boxed(item: item) }
}
final class InEnumPayload { var value = 11 }
enum Slot {
    case empty
    case held(InEnumPayload)
}
final class EnumHolder { var slot = Slot.empty }
final class BytesCycleA {
    var other: BytesCycleB?
    var bytes: [UInt8] = []
}
final class BytesCycleB { var other: BytesCycleA? }
final class HeldByTaskLocal { var value = 8 }
actor Ledger {
    var entries: [HeldByActor] = []
    func add(_ entry: HeldByActor) { entries.append(entry) }
}
enum Locals {
    @TaskLocal static var held: HeldByTaskLocal?
}

let key: UInt = 0x5a5a_5a5a_5a5a_5a5a
nonisolated(unsafe) var leaked: [String: [UInt]] = [:]
nonisolated(unsafe) var reachable: [String: [UInt]] = [:]
nonisolated(unsafe) var heldByGlobal: [HeldByGlobal] = []
nonisolated(unsafe) var weakHolders: [WeakHolder] = []
nonisolated(unsafe) var mallocBlock: UnsafeMutablePointer<UnsafeMutableRawPointer>?
nonisolated(unsafe) var specificKey = pthread_key_t()
nonisolated(unsafe) var stopHolding = false
nonisolated(unsafe) var chains: [UInt: [String]] = [:]
nonisolated(unsafe) var leakedContexts = 0
nonisolated(unsafe) var leakedByteArrays = 0
nonisolated(unsafe) var strongHolder = StrongHolder()
nonisolated(unsafe) var weakOnly = WeakOnly()
let ledger = Ledger()
nonisolated(unsafe) var parked: UnsafeContinuation<Void, Never>?
nonisolated(unsafe) var deepHolder = Outer()
nonisolated(unsafe) var bitsHolder = BitsHolder()
nonisolated(unsafe) var bitPatternHolder = BitPatternHolder()
nonisolated(unsafe) var existentialHolder = ExistentialHolder(InExistential())
nonisolated(unsafe) var enumHolder = EnumHolder()

@inline(never) func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

@inline(never) func record(_ object: AnyObject, leakedAs name: String) {
    leaked[name, default: []].append(address(object) ^ key)
}

// Not inlined, so that every owner's closure is the one function.
@inline(never) func makeClosureOwner(tag: Int) {
    let owner = ClosureOwner(tag: tag)
    record(owner, leakedAs: "LiveLeaks.ClosureOwner")
    // Its closure's context (two captures: one of its own) leaks with it. Its address is not
    // printed: reading the closure back out to a generic function would wrap it in another.
    leakedContexts += 1
}

@inline(never) func makeLeaks() {
    for _ in 0..<7 {
        let a = CycleA()
        let b = CycleB()
        a.other = b
        b.other = a
        record(a, leakedAs: "LiveLeaks.CycleA")
        record(b, leakedAs: "LiveLeaks.CycleB")
    }
    for _ in 0..<5 {
        let object = Forgotten()
        _ = Unmanaged.passRetained(object)
        record(object, leakedAs: "LiveLeaks.Forgotten")
    }
    for _ in 0..<3 {
        let first = WeaklyHeldCycle()
        let second = WeaklyHeldCycle()
        first.other = second
        second.other = first
        let holder = WeakHolder()
        holder.target = first
        weakHolders.append(holder)
        record(first, leakedAs: "LiveLeaks.WeaklyHeldCycle")
        record(second, leakedAs: "LiveLeaks.WeaklyHeldCycle")
    }
    for tag in 0..<4 { makeClosureOwner(tag: tag) }
    for _ in 0..<2 {
        let a = BytesCycleA()
        let b = BytesCycleB()
        a.other = b
        b.other = a
        // B's address again, as the bytes of an array: no reference, yet the bits of one.
        a.bytes = withUnsafeBytes(of: address(b).littleEndian) { Array($0) }
        record(a, leakedAs: "LiveLeaks.BytesCycleA")
        record(b, leakedAs: "LiveLeaks.BytesCycleB")
        // The array's storage leaks with them.
        leakedByteArrays += 1
    }
}

func run(_ body: @escaping () -> Void) -> pthread_t {
    let context = Unmanaged.passRetained(body as AnyObject).toOpaque()
    var thread = pthread_t()
    pthread_create(
        &thread, nil,
        { context in
            let body = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! () -> Void
            body()
            return nil
        }, context)
    return thread
}

let owner = Owner()

@inline(never) func holdOnStack(_ ready: UnsafeMutablePointer<pthread_barrier_t>) {
    let object = HeldOnStack()
    // Held through a global's array, and by this frame too: a stack word's path is shorter
    // than the owner's.
    let owned = OwnedAlsoOnStack()
    owner.items.append(owned)
    chains[address(owned) ^ key] = ["global LiveLeaks.owner", "LiveLeaks.Owner.items", "element"]
    reachable["stack", default: []].append(address(object) ^ key)
    let specific = HeldThreadSpecific()
    pthread_setspecific(specificKey, Unmanaged.passRetained(specific).toOpaque())
    reachable["thread-specific", default: []].append(address(specific) ^ key)
    pthread_barrier_wait(ready)
    // The object is used after the wait, so its reference stays in this frame or a register.
    while !stopHolding { pause() }
    print(object.value, owned.value)
}

pthread_key_create(&specificKey, nil)
let global = HeldByGlobal()
heldByGlobal.append(global)
reachable["global"] = [address(global) ^ key]
chains[address(global) ^ key] = ["global LiveLeaks.heldByGlobal", "element"]
let inMalloc = HeldByMalloc()
mallocBlock = .allocate(capacity: 4)
mallocBlock![2] = Unmanaged.passRetained(inMalloc).toOpaque()
reachable["malloc"] = [address(inMalloc) ^ key]

let alsoWeak = WeaklyAlsoHeld()
strongHolder.target = alsoWeak
weakOnly.target = alsoWeak
let unownedHolder = UnownedHolder(alsoWeak)
reachable["weakly-also"] = [address(alsoWeak) ^ key]
chains[address(alsoWeak) ^ key] = ["global LiveLeaks.strongHolder", "LiveLeaks.StrongHolder.target"]

// Made in a function, so that no global but the holders' refers to the objects.
@inline(never) func holdThroughWordsThatAreNoReferences() {
    // An object held by a chain of stored properties, whose address is also an Int element of
    // an array a global reaches in fewer steps.
    let pointedAt = PointedAtByBits()
    deepHolder.middle.inner.target = pointedAt
    bitsHolder.words = [0, Int(bitPattern: address(pointedAt))]
    reachable["bits-also"] = [address(pointedAt) ^ key]
    chains[address(pointedAt) ^ key] = [
        "global LiveLeaks.deepHolder", "LiveLeaks.Outer.middle", "LiveLeaks.Middle.inner", "LiveLeaks.Inner.target",
    ]
    // An object only an Int field holds the address of (alive by an unbalanced retain).
    let byBitPattern = HeldByBitPattern()
    bitPatternHolder.bits = Int(bitPattern: Unmanaged.passRetained(byBitPattern).toOpaque())
    reachable["bit-pattern"] = [address(byBitPattern) ^ key]
    // Objects inside a struct's class-bound existential, and inside an enum's payload.
    reachable["existential"] = [address(existentialHolder.boxed.item) ^ key]
    chains[address(existentialHolder.boxed.item) ^ key] = [
        "global LiveLeaks.existentialHolder", "LiveLeaks.ExistentialHolder.boxed.item",
    ]
    let inPayload = InEnumPayload()
    enumHolder.slot = .held(inPayload)
    reachable["enum-payload"] = [address(inPayload) ^ key]
    chains[address(inPayload) ^ key] = ["global LiveLeaks.enumHolder", "LiveLeaks.EnumHolder.slot"]
}
holdThroughWordsThatAreNoReferences()

// Objects only the actor's state holds, added from a task that ends.
let added = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
pthread_barrier_init(added, nil, 2)
Task.detached {
    for _ in 0..<3 {
        let entry = HeldByActor()
        reachable["actor", default: []].append(address(entry) ^ key)
        chains[address(entry) ^ key] = ["global LiveLeaks.ledger", "LiveLeaks.Ledger.entries", "element"]
        await ledger.add(entry)
    }
    pthread_barrier_wait(added)
}
pthread_barrier_wait(added)

// An object only a task-local value holds: the task parks for good, its continuation kept.
Task.detached {
    let held = HeldByTaskLocal()
    reachable["task-local", default: []].append(address(held) ^ key)
    await Locals.$held.withValue(held) {
        await withUnsafeContinuation { continuation in
            parked = continuation
            pthread_barrier_wait(added)
        }
    }
}
pthread_barrier_wait(added)

let leaker = run { makeLeaks() }
pthread_join(leaker, nil)
let ready = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)
pthread_barrier_init(ready, nil, 2)
_ = run { holdOnStack(ready) }
pthread_barrier_wait(ready)

func hexList(_ values: [UInt]) -> String { "[" + values.map { "\"0x\(String($0 ^ key, radix: 16))\"" }.joined(separator: ", ") + "]" }
func object(_ table: [String: [UInt]]) -> String {
    "{" + table.keys.sorted().map { "\"\($0)\": \(hexList(table[$0]!))" }.joined(separator: ", ") + "}"
}
func chainList(_ chain: [String]) -> String { "[" + chain.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
let chainTable = chains.keys.sorted().map { "\"0x\(String($0 ^ key, radix: 16))\": \(chainList(chains[$0]!))" }.joined(separator: ", ")
print(
    "{\"pid\": \(getpid()), \"leaked\": \(object(leaked)), \"leakedContexts\": \(leakedContexts), \"leakedByteArrays\": \(leakedByteArrays), \"reachable\": \(object(reachable)), \"chains\": {\(chainTable)}}"
)
fflush(stdout)
var byte: UInt8 = 0
while read(0, &byte, 1) > 0 {}
exit(0)
