// A process with known concurrency state, for `typeinfo tasks` (run by
// Tests/BinaryFixtures/LiveTasksFixture.swift). It sets up:
// - PARKED tasks suspended forever in `parkInInbox(_:)`, every third of them cancelled (30, or
//   `LIVE_TASKS_PARKED`);
// - one task whose task group's CHILDREN are suspended forever in `parkInGroupChild(_:)`;
// - one task whose two `async let` children (allocated in its own task allocator, not on the
//   heap) are suspended forever in `parkInLetChild(_:)`;
// - IDLE actors of type `Ledger`, never called;
// - one `Teller` actor running a task that never returns (it blocks its thread, whose id it
//   records), and WAITERS tasks enqueued on it;
// - RETURNED tasks that completed with a value and THREW tasks that completed by throwing, their
//   handles kept alive (the task that awaited them is one of the returned ones).
// Then it prints what it set up as one JSON line (task and actor addresses as the runtime gives
// them) and parks its main thread.
#if canImport(Glibc)
import Glibc
#endif

/// `LIVE_TASKS_PARKED` sets how many (Tools/bench-tasks parks 100,000).
let parked = getenv("LIVE_TASKS_PARKED").flatMap { Int(String(cString: $0)) } ?? 30
let children = 12
let idle = 5
let waiters = 4
let returned = 3
let threw = 2

struct Refusal: Error {}

/// Continuations nobody resumes: what keeps the tasks suspended.
final class Inbox: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var continuations: [CheckedContinuation<Void, Never>] = []
    private var addresses: [String: [UInt]] = [:]
    init() { pthread_mutex_init(&lock, nil) }

    func keep(_ continuation: CheckedContinuation<Void, Never>) {
        pthread_mutex_lock(&lock)
        continuations.append(continuation)
        pthread_mutex_unlock(&lock)
    }

    func record(_ group: String, _ address: UInt) {
        pthread_mutex_lock(&lock)
        addresses[group, default: []].append(address)
        pthread_mutex_unlock(&lock)
    }

    func recorded(_ group: String) -> [UInt] {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return addresses[group, default: []]
    }

    var count: Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return continuations.count
    }
}

let inbox = Inbox()

func currentTaskAddress() -> UInt {
    withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
}

@inline(never)
func parkInInbox(_ index: Int) async {
    let address = currentTaskAddress()
    inbox.record("priority \(address)", UInt(Task.currentPriority.rawValue))
    inbox.record("parked", address)
    await withCheckedContinuation { inbox.keep($0) }
}

@inline(never)
func parkInGroupChild(_ index: Int) async {
    inbox.record("child", currentTaskAddress())
    await withCheckedContinuation { inbox.keep($0) }
}

@inline(never)
func parkInLetChild(_ index: Int) async -> Int {
    inbox.record("letChild", currentTaskAddress())
    await withCheckedContinuation { inbox.keep($0) }
    return index
}

actor Ledger {
    var entries: [Int] = []
}

actor Teller {
    var served = 0
    /// Runs on the actor and never gives it up: its thread blocks.
    func holdForever() {
        inbox.record("holder", currentTaskAddress())
        inbox.record("holderThread", threadID())
        while true { pause() }
    }

    func serve() { served += 1 }
}

/// The calling thread's kernel id (glibc declares `gettid` only for C compiled with `_GNU_SOURCE`).
func threadID() -> UInt {
    guard let symbol = dlsym(nil, "gettid") else { return 0 }
    return UInt(unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)())
}

func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

func hex(_ value: UInt) -> String { "\"0x" + String(value, radix: 16) + "\"" }

func waitUntil(_ condition: () -> Bool) {
    while !condition() { usleep(1000) }
}

var parkedTasks: [Task<Void, Never>] = []
for index in 0..<parked {
    // Two priorities, so that a task's priority is something to get right.
    parkedTasks.append(Task.detached(priority: index % 2 == 0 ? .high : .low) { await parkInInbox(index) })
}
let groupOwner = Task.detached {
    inbox.record("groupOwner", currentTaskAddress())
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<children { group.addTask { await parkInGroupChild(index) } }
        await group.waitForAll()
    }
}
let letOwner = Task.detached {
    inbox.record("letOwner", currentTaskAddress())
    async let first = parkInLetChild(0)
    async let second = parkInLetChild(1)
    _ = await (first, second)
}
let ledgers = (0..<idle).map { _ in Ledger() }
let teller = Teller()
let holder = Task.detached { await teller.holdForever() }
waitUntil { inbox.recorded("holder").count == 1 }
let waiting = (0..<waiters).map { _ in Task.detached { await teller.serve() } }
waitUntil { inbox.count == parked + children + 2 && inbox.recorded("groupOwner").count == 1 && inbox.recorded("letOwner").count == 1 }
for (index, task) in parkedTasks.enumerated() where index % 3 == 0 { task.cancel() }
let returning = (0..<returned - 1).map { index in
    Task.detached { () -> Int in
        inbox.record("returned", currentTaskAddress())
        return index
    }
}
let throwing = (0..<threw).map { _ in
    Task.detached { () throws -> Int in
        inbox.record("threw", currentTaskAddress())
        throw Refusal()
    }
}
// Awaits the others' completion, then completes itself: the last returned task.
let awaiter = Task.detached { () -> Int in
    var sum = 0
    for task in returning { sum += await task.value }
    for task in throwing { sum += (try? await task.value) ?? 0 }
    inbox.record("returned", currentTaskAddress())
    return sum
}
waitUntil { inbox.recorded("returned").count == returned && inbox.recorded("threw").count == threw }
// The waiters have no way to say they are enqueued; give them time to get there.
usleep(300_000)

let cancelled = (parked + 2) / 3
print(
    "{\"pid\":\(getpid()),\"parked\":\(parked),\"cancelled\":\(cancelled),\"children\":\(children),\"waiters\":\(waiters),"
        + "\"parkedFunction\":\"LiveTasks.parkInInbox(Swift.Int) async -> ()\","
        + "\"childFunction\":\"LiveTasks.parkInGroupChild(Swift.Int) async -> ()\","
        + "\"letFunction\":\"LiveTasks.parkInLetChild(Swift.Int) async -> Swift.Int\","
        + "\"letOwner\":\(hex(inbox.recorded("letOwner")[0])),\"letChildren\":[\(inbox.recorded("letChild").map(hex).joined(separator: ","))],"
        + "\"parkedTasks\":[\(inbox.recorded("parked").map(hex).joined(separator: ","))],"
        + "\"parkedPriorities\":[\(inbox.recorded("parked").map { String(inbox.recorded("priority \($0)").first ?? 0) }.joined(separator: ","))],"
        + "\"childTasks\":[\(inbox.recorded("child").map(hex).joined(separator: ","))],"
        + "\"groupOwner\":\(hex(inbox.recorded("groupOwner")[0])),\"holder\":\(hex(inbox.recorded("holder")[0])),"
        + "\"holderThread\":\(inbox.recorded("holderThread")[0]),"
        + "\"returnedTasks\":[\(inbox.recorded("returned").map(hex).joined(separator: ","))],"
        + "\"threwTasks\":[\(inbox.recorded("threw").map(hex).joined(separator: ","))],"
        + "\"idleActors\":[\(ledgers.map { hex(address($0)) }.joined(separator: ","))],\"idleActorType\":\"LiveTasks.Ledger\","
        + "\"busyActor\":\(hex(address(teller))),\"busyActorType\":\"LiveTasks.Teller\"}")
fflush(stdout)
while true { pause() }
