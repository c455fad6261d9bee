// A process with a known Swift heap (built by Tests/BinaryFixtures/LiveHeapFixture.swift), for the live-process and core-file tests.
//
// It makes objects of its own types (so no other code in the process makes any), on the main
// thread and on parked threads (so several malloc arenas hold them), frees thousands of others,
// and prints what it holds as one JSON line: each type's name as the runtime spells it, its
// metadata address, how many instances are alive and the sum of their allocations'
// `malloc_usable_size`, plus sample objects with their field values. Then it waits on stdin:
// `grow` adds a known batch and prints the new state; `churn` starts two threads that allocate
// and free objects of another type forever; end of input parks it for good.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Reflection) import Swift

struct Point { var x: Int32; var y: Int32 }

enum Status {
    case pending
    case shipped(Int)
    case cancelled(String)
}

final class Order {
    let id: Int
    var name: String
    var price: Double
    var paid: Bool
    var status: Status
    var tags: [String]
    var parent: Order?
    init(id: Int, name: String, price: Double, paid: Bool, status: Status, tags: [String], parent: Order?) {
        self.id = id
        self.name = name
        self.price = price
        self.paid = paid
        self.status = status
        self.tags = tags
        self.parent = parent
    }
}

class Animal {
    var legs: Int
    init(legs: Int) { self.legs = legs }
}

final class Dog: Animal {
    var name: String
    init(name: String) {
        self.name = name
        super.init(legs: 4)
    }
}

final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Large enough (a header plus 20,000 doubles) that malloc serves it with its own mapping.
final class Samples: ManagedBuffer<Int, Double> {}

func makeSamples(_ count: Int) -> Samples {
    let buffer = Samples.create(minimumCapacity: count) { _ in count }
    buffer.withUnsafeMutablePointerToElements { elements in
        for index in 0..<count { (elements + index).initialize(to: Double(index) / 2) }
    }
    return unsafeDowncast(buffer, to: Samples.self)
}

/// Everything alive, kept in arrays the fixture owns; guarded by `lock` while threads fill it.
var held: [AnyObject] = []
var lock = pthread_mutex_t()

func hold(_ objects: [AnyObject]) {
    pthread_mutex_lock(&lock)
    held.append(contentsOf: objects)
    pthread_mutex_unlock(&lock)
}

func makeBatch(thread: Int, count: Int) -> [AnyObject] {
    var made: [AnyObject] = []
    for index in 0..<count {
        let id = thread * 100_000 + index
        made.append(
            Order(
                id: id, name: "order number \(id)", price: Double(id) + 0.25, paid: index % 2 == 0,
                status: index % 3 == 0 ? .shipped(id) : .pending, tags: ["t\(index % 5)"], parent: nil))
        if index % 4 == 0 { made.append(Box(id)) }
        if index % 8 == 0 { made.append(Box("box \(id)")) }
        if index % 16 == 0 { made.append(Box(Point(x: Int32(index), y: -1))) }
    }
    return made
}

/// Allocations that are freed before the report: their chunks must never be counted.
func churn(_ count: Int) {
    var garbage: [AnyObject] = []
    for index in 0..<count {
        garbage.append(Order(id: -index, name: "freed", price: 0, paid: false, status: .pending, tags: [], parent: nil))
        garbage.append(Box(index))
        garbage.append(Dog(name: "freed"))
    }
    garbage.removeAll()
}

let threadCount = 4
var ready = 0
var readyCondition = pthread_cond_t()
pthread_mutex_init(&lock, nil)
pthread_cond_init(&readyCondition, nil)

var threads: [pthread_t] = []
for thread in 1...threadCount {
    var handle = pthread_t()
    let context = UnsafeMutableRawPointer(bitPattern: thread)
    pthread_create(
        &handle, nil,
        { context in
            let thread = Int(bitPattern: context)
            hold(makeBatch(thread: thread, count: 500 * thread))
            churn(300)
            pthread_mutex_lock(&lock)
            ready += 1
            pthread_cond_signal(&readyCondition)
            pthread_mutex_unlock(&lock)
            // Parked, not exited: an exited thread's arena is reused by the next one.
            while true { pause() }
        }, context)
    threads.append(handle)
}

hold(makeBatch(thread: 0, count: 1000))
churn(2000)
let root = Order(
    id: 42, name: "the root order, named at length", price: 1234.5, paid: true, status: .cancelled("late"),
    tags: ["red", "green", "blue"], parent: nil)
let child = Order(id: 43, name: "short", price: -0.5, paid: false, status: .shipped(7), tags: [], parent: root)
let spot = Dog(name: "Spot")
let animal = Animal(legs: 6)
hold([root, child, spot, animal, makeSamples(20_000), makeSamples(20_000), makeSamples(30_000)])

/// A closure over one mutable local: its context is the variable's box (a fixed-size box).
func makeCounter() -> () -> Int {
    var count = 0
    return {
        count += 1
        return count
    }
}

/// A closure over two values: a closure context holding both.
func makeGreeter(_ name: String, _ times: Int) -> () -> String {
    { String(repeating: name, count: times) }
}

let counter = makeCounter()
let greeter = makeGreeter("hi", 3)

/// Closures held in a concrete struct, so that reading their words sees them as made (passed
/// to a generic function as themselves, they would be wrapped in a reabstraction thunk).
struct Closures {
    var counter: () -> Int
    var greeter: () -> String
}

/// The context object of each closure (a thick function is its code and its context).
let contexts = unsafeBitCast(Closures(counter: counter, greeter: greeter), to: (UInt, UInt, UInt, UInt).self)

pthread_mutex_lock(&lock)
while ready < threadCount { pthread_cond_wait(&readyCondition, &lock) }
pthread_mutex_unlock(&lock)

/// `malloc_usable_size(3)`, which Glibc's module map leaves out.
let usableSize = unsafeBitCast(
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size")!, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)

func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

func metadataAddress(_ object: AnyObject) -> UInt { unsafeBitCast(type(of: object), to: UInt.self) }

func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

func hex(_ value: UInt) -> String { quoted("0x" + String(value, radix: 16)) }

/// A class's stored fields (its superclasses' first) as the runtime's reflection states them,
/// with the instance size they add up to: the end of the last field, or the header's 16 bytes.
func storedFields(_ type: AnyObject.Type) -> (fields: [String], instanceSize: Int) {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    var fields: [String] = []
    var end = 16
    _ = _forEachField(of: type, options: .classType) { name, offset, fieldType, _ in
        fields.append("{\"name\":\(quoted(String(cString: name))),\"offset\":\(offset)}")
        end = max(end, offset + _openExistential(fieldType, do: size))
        return true
    }
    return (fields, end)
}

/// The array storage object behind `root.tags` (an `Array` is one reference to it): a standard
/// library generic class the fixture did not declare.
let tagsStorage = unsafeBitCast(root.tags, to: AnyObject.self)

/// One JSON line: the types the fixture made (count and bytes by metadata) and the sample objects.
func report() {
    var byMetadata: [UInt: (name: String, count: Int, bytes: Int, type: AnyObject.Type)] = [:]
    pthread_mutex_lock(&lock)
    for object in held {
        let metadata = metadataAddress(object)
        let size = usableSize(Unmanaged.passUnretained(object).toOpaque())
        var entry = byMetadata[metadata] ?? (String(reflecting: type(of: object)), 0, 0, type(of: object))
        entry.count += 1
        entry.bytes += size
        byMetadata[metadata] = entry
    }
    pthread_mutex_unlock(&lock)
    let types = byMetadata.sorted { $0.key < $1.key }.map { metadata, entry in
        let layout = storedFields(entry.type)
        return "{\"type\":\(quoted(entry.name)),\"metadata\":\(hex(metadata)),\"count\":\(entry.count),\"bytes\":\(entry.bytes),"
            + "\"instanceSize\":\(layout.instanceSize),\"fields\":[\(layout.fields.joined(separator: ","))]}"
    }
    let samples = [
        "{\"name\":\"root\",\"address\":\(hex(address(root))),\"type\":\(quoted(String(reflecting: type(of: root)))),"
            + "\"id\":\(root.id),\"orderName\":\(quoted(root.name)),\"price\":\(root.price),\"paid\":\(root.paid),"
            + "\"status\":\(quoted("\(root.status)")),\"tags\":[\(root.tags.map(quoted).joined(separator: ","))],"
            + "\"tagsStorage\":\(hex(address(tagsStorage))),\"tagsStorageType\":\(quoted(String(reflecting: type(of: tagsStorage))))}",
        "{\"name\":\"child\",\"address\":\(hex(address(child))),\"type\":\(quoted(String(reflecting: type(of: child)))),"
            + "\"id\":\(child.id),\"orderName\":\(quoted(child.name)),\"price\":\(child.price),\"paid\":\(child.paid),"
            + "\"status\":\(quoted("\(child.status)")),\"parent\":\(hex(address(root)))}",
        "{\"name\":\"spot\",\"address\":\(hex(address(spot))),\"type\":\(quoted(String(reflecting: type(of: spot)))),"
            + "\"legs\":\(spot.legs),\"dogName\":\(quoted(spot.name))}",
    ]
    print(
        "{\"pid\":\(getpid()),\"threads\":\(threadCount + 1),\"types\":[\(types.joined(separator: ","))],"
            + "\"samples\":[\(samples.joined(separator: ","))],"
            // How many values each context captures: the closures' source says so.
            + "\"contexts\":[{\"name\":\"counter\",\"address\":\(hex(contexts.1)),\"captures\":1},"
            + "{\"name\":\"greeter\",\"address\":\(hex(contexts.3)),\"captures\":2}]}")
    fflush(stdout)
}

/// Made and dropped without pause by `churn`'s threads: never held, never reported.
final class Scratch {
    var values = (0, 0, 0)
}

/// Two threads that allocate and free forever, as a busy server does.
func churnForever() {
    for _ in 0..<2 {
        var handle = pthread_t()
        pthread_create(
            &handle, nil,
            { _ in
                while true {
                    var scratch: [Scratch] = []
                    for _ in 0..<64 { scratch.append(Scratch()) }
                    scratch.removeAll()
                }
            }, nil)
    }
}

report()
while let line = readLine() {
    if line == "grow" {
        hold(makeBatch(thread: 9, count: 100))
        report()
    } else if line == "churn" {
        churnForever()
        report()
    }
}
while true { pause() }
