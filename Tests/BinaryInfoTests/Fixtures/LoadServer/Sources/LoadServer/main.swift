// A busy process with a known stable population, for reading live targets under load (run by
// Tests/BinaryFixtures/LoadServerFixture.swift). It sets up and keeps, unchanged until it ends:
// - STABLE objects of class `StableRecord` and STABLE / 4 of `StableNode`, held by globals;
// - LEDGERS actors of type `StableLedger`, idle;
// - PARKED tasks suspended forever in `parkForever(_:)`;
// - one `StableBox<StablePair<Int8, Double>>`, generic instantiations made at run time.
// Then it prints that as one JSON line and, until it ends, keeps every core busy: WORKERS threads
// and WORKERS tasks (default one per core, at least 2; 0 makes a quiet process) each allocate and
// free `ChurnObject`s of many sizes (tcache, fastbin, small, large and mmapped chunks), strings
// and arrays, hand objects to each other across threads, start short tasks and send messages to
// a `ChurnLedger` actor. Lines on standard input: `stats` prints how many objects the churn made
// so far; `quiet` stops the churn (the workers sleep) and `busy` starts it again, so that one
// process can be read both ways. It ends when its standard input closes (the test process that started it is gone) or
// after LOAD_SERVER_SECONDS (default 1800).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

func setting(_ name: String, _ fallback: Int) -> Int {
    getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback
}

let stable = setting("LOAD_SERVER_STABLE", 20_000)
let parked = setting("LOAD_SERVER_PARKED", 5_000)
let ledgers = setting("LOAD_SERVER_LEDGERS", 3)
let workers = setting("LOAD_SERVER_WORKERS", max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
let lifetime = setting("LOAD_SERVER_SECONDS", 1800)

final class StableRecord {
    let id: Int
    var hits: Int
    var label: String
    init(id: Int) {
        self.id = id
        hits = id &* 3
        label = "r\(id % 1000)"
    }
}

final class StableNode {
    let index: Int
    var record: StableRecord
    weak var neighbour: StableNode?
    init(index: Int, record: StableRecord) {
        self.index = index
        self.record = record
    }
}

actor StableLedger {
    var entries: [Int] = []
}

/// A generic class holding a generic struct, made once: instantiations the runtime makes at run
/// time (their metadata is in its generic metadata caches).
struct StablePair<A, B> {
    var first: A
    var second: B
}

final class StableBox<T> {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Allocated and freed without end; its tail varies the chunk size from 48 bytes to 256 KiB.
final class ChurnObject {
    var tag: Int
    var tail: [UInt8]
    var link: ChurnObject?
    init(tag: Int, size: Int) {
        self.tag = tag
        tail = size > 0 ? [UInt8](repeating: UInt8(truncatingIfNeeded: tag), count: size) : []
    }
}

actor ChurnLedger {
    var total = 0
    var recent: [ChurnObject] = []
    func post(_ object: ChurnObject) {
        total &+= object.tag
        recent.append(object)
        if recent.count > 64 { recent.removeFirst(32) }
    }
}

let made = Atomic<Int>(0)
let churning = Atomic<Bool>(true)
let churnLedger = ChurnLedger()

/// Objects handed from one worker to another, so that a chunk is often freed by a thread (and
/// arena) other than the one that allocated it.
final class Mailbox: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var slots: [ChurnObject?] = Array(repeating: nil, count: 256)
    init() { pthread_mutex_init(&lock, nil) }
    func swap(_ object: ChurnObject, at index: Int) -> ChurnObject? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        let old = slots[index & 255]
        slots[index & 255] = object
        return old
    }
}
let mailbox = Mailbox()

/// A small xorshift generator: the churn needs variety, not quality.
struct Shuffle {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
}

func chunkSize(_ random: inout Shuffle) -> Int {
    switch random.next(100) {
    case 0..<40: return random.next(64)  // tcache and fastbin sizes
    case 40..<80: return 64 + random.next(900)  // small bins
    case 80..<99: return 1024 + random.next(30_000)  // large bins
    default: return 140_000 + random.next(120_000)  // above the mmap threshold
    }
}

/// One round of churn: replace random slots of `ring`, link some objects, pass some on.
func churn(_ ring: inout [ChurnObject?], _ random: inout Shuffle, rounds: Int) {
    for _ in 0..<rounds {
        let object = ChurnObject(tag: random.next(1 << 20), size: chunkSize(&random))
        if random.next(8) == 0 { object.link = ChurnObject(tag: 1, size: random.next(200)) }
        if random.next(16) == 0 { object.tail.append(contentsOf: [UInt8](repeating: 7, count: random.next(500))) }
        if random.next(32) == 0 {
            if let passed = mailbox.swap(object, at: random.next(256)) { ring[random.next(ring.count)] = passed }
        } else {
            ring[random.next(ring.count)] = object
        }
        if random.next(64) == 0 { _ = String(repeating: "churn", count: 1 + random.next(40)) }
    }
    made.add(rounds, ordering: .relaxed)
}

@inline(never)
func parkForever(_ index: Int) async {
    await withCheckedContinuation { continuations.keep($0) }
}

final class Continuations: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var kept: [CheckedContinuation<Void, Never>] = []
    init() { pthread_mutex_init(&lock, nil) }
    func keep(_ continuation: CheckedContinuation<Void, Never>) {
        pthread_mutex_lock(&lock)
        kept.append(continuation)
        pthread_mutex_unlock(&lock)
    }
    var count: Int {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return kept.count
    }
}
let continuations = Continuations()

// The stable population.
let records = (0..<stable).map { StableRecord(id: $0) }
let nodes = (0..<stable / 4).map { StableNode(index: $0, record: records[$0 * 4]) }
for index in nodes.indices.dropFirst() { nodes[index].neighbour = nodes[index - 1] }
let stableLedgers = (0..<ledgers).map { _ in StableLedger() }
let stableBox = StableBox(StablePair(first: Int8(1), second: 2.5))
let parkedTasks = (0..<parked).map { index in Task.detached { await parkForever(index) } }
while continuations.count < parked { usleep(1000) }

// The load: threads outside the cooperative pool, and tasks inside it.
var threads: [pthread_t] = []
for index in 0..<workers {
    var thread = pthread_t()
    let seed = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    seed.pointee = 0x9E37_79B9_7F4A_7C15 &* UInt64(index + 1)
    pthread_create(
        &thread, nil,
        { argument in
            let seed = argument!.assumingMemoryBound(to: UInt64.self)
            var random = Shuffle(state: seed.pointee)
            seed.deallocate()
            var ring = [ChurnObject?](repeating: nil, count: 2048)
            while true {
                if churning.load(ordering: .relaxed) { churn(&ring, &random, rounds: 256) } else { usleep(10_000) }
            }
        }, seed)
    threads.append(thread)
}
for index in 0..<workers {
    Task.detached {
        var random = Shuffle(state: 0xD1B5_4A32_D192_ED03 &* UInt64(index + 1))
        var ring = [ChurnObject?](repeating: nil, count: 1024)
        while true {
            if !churning.load(ordering: .relaxed) {
                try? await Task.sleep(nanoseconds: 10_000_000)
                continue
            }
            churn(&ring, &random, rounds: 64)
            // Short tasks that allocate, complete and are awaited, and messages to an actor.
            let value = await Task { ChurnObject(tag: random.next(100), size: random.next(300)).tag }.value
            await churnLedger.post(ChurnObject(tag: value, size: random.next(100)))
            await Task.yield()
        }
    }
}

func hex(_ value: UInt) -> String { "\"0x" + String(value, radix: 16) + "\"" }
func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

print(
    "{\"pid\":\(getpid()),\"stableRecords\":\(records.count),\"stableRecordType\":\"LoadServer.StableRecord\","
        + "\"stableNodes\":\(nodes.count),\"stableNodeType\":\"LoadServer.StableNode\","
        + "\"ledgers\":\(stableLedgers.count),\"ledgerType\":\"LoadServer.StableLedger\","
        + "\"parked\":\(parked),\"parkedFunction\":\"LoadServer.parkForever(Swift.Int) async -> ()\","
        + "\"churnType\":\"LoadServer.ChurnObject\",\"workers\":\(workers),"
        + "\"firstRecord\":\(hex(address(records[0]))),\"firstNode\":\(hex(address(nodes[0]))),"
        + "\"ledgerAddresses\":[\(stableLedgers.map { hex(address($0)) }.joined(separator: ","))],"
        + "\"stableBoxType\":\"\(String(reflecting: type(of: stableBox)))\","
        + "\"stablePairType\":\"\(String(reflecting: StablePair<Int8, Double>.self))\","
        + "\"stablePairSize\":\(MemoryLayout<StablePair<Int8, Double>>.size),"
        + "\"stablePairAlignment\":\(MemoryLayout<StablePair<Int8, Double>>.alignment),"
        + "\"stablePairStride\":\(MemoryLayout<StablePair<Int8, Double>>.stride),"
        + "\"stablePairSecondOffset\":\(MemoryLayout<StablePair<Int8, Double>>.offset(of: \.second)!)}")
fflush(stdout)

// The lifetime limit, on a thread of its own.
var watchdog = pthread_t()
pthread_create(
    &watchdog, nil,
    { _ in
        sleep(UInt32(lifetime))
        exit(0)
    }, nil)

// Commands until standard input closes.
while let line = readLine() {
    switch line {
    case "stats":
        print("{\"made\":\(made.load(ordering: .relaxed))}")
        fflush(stdout)
    case "quiet": churning.store(false, ordering: .relaxed)
    case "busy": churning.store(true, ordering: .relaxed)
    default: break
    }
}
exit(0)
