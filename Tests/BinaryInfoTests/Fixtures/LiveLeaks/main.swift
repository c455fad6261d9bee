// A process with a known graph of Swift objects, for `typeinfo leaks`: objects reachable in each
// way a root can hold them (a global, a thread's stack, a thread-specific value, a malloc'd C
// struct) and objects nothing holds (two-object retain cycles, objects retained and forgotten,
// cycles that weak references also point at). It prints one JSON line:
//   {"pid": …, "leaked": {"LiveLeaks.CycleA": ["0x…", …], …}, "reachable": {"global": [...], …}}
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

let key: UInt = 0x5a5a_5a5a_5a5a_5a5a
nonisolated(unsafe) var leaked: [String: [UInt]] = [:]
nonisolated(unsafe) var reachable: [String: [UInt]] = [:]
nonisolated(unsafe) var heldByGlobal: [HeldByGlobal] = []
nonisolated(unsafe) var weakHolders: [WeakHolder] = []
nonisolated(unsafe) var mallocBlock: UnsafeMutablePointer<UnsafeMutableRawPointer>?
nonisolated(unsafe) var specificKey = pthread_key_t()
nonisolated(unsafe) var stopHolding = false

@inline(never) func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

@inline(never) func record(_ object: AnyObject, leakedAs name: String) {
    leaked[name, default: []].append(address(object) ^ key)
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

@inline(never) func holdOnStack(_ ready: UnsafeMutablePointer<pthread_barrier_t>) {
    let object = HeldOnStack()
    reachable["stack", default: []].append(address(object) ^ key)
    let specific = HeldThreadSpecific()
    pthread_setspecific(specificKey, Unmanaged.passRetained(specific).toOpaque())
    reachable["thread-specific", default: []].append(address(specific) ^ key)
    pthread_barrier_wait(ready)
    // The object is used after the wait, so its reference stays in this frame or a register.
    while !stopHolding { pause() }
    print(object.value)
}

pthread_key_create(&specificKey, nil)
let global = HeldByGlobal()
heldByGlobal.append(global)
reachable["global"] = [address(global) ^ key]
let inMalloc = HeldByMalloc()
mallocBlock = .allocate(capacity: 4)
mallocBlock![2] = Unmanaged.passRetained(inMalloc).toOpaque()
reachable["malloc"] = [address(inMalloc) ^ key]

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
print("{\"pid\": \(getpid()), \"leaked\": \(object(leaked)), \"reachable\": \(object(reachable))}")
fflush(stdout)
var byte: UInt8 = 0
while read(0, &byte, 1) > 0 {}
exit(0)
