// The big heap Tools/bench-heap measures `typeinfo heap` on: OBJECTS live objects (default ten
// million) of three classes, 96 bytes each, made on four threads (so four arenas), about 1.2 GB
// of heap; one more object in ten is made and freed at once. Prints its pid and `ready`, then waits to be killed.
#if canImport(Glibc)
import Glibc
#endif

final class Record {
    var a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10
}

final class Pair<Value> {
    var first: Value
    var second: Value
    init(_ first: Value, _ second: Value) {
        self.first = first
        self.second = second
    }
}

final class Leaf {
    var values: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

let total = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 10_000_000
let threadCount = 4
nonisolated(unsafe) var kept = [[AnyObject]](repeating: [], count: threadCount)

func fill(_ slot: Int) {
    var objects: [AnyObject] = []
    objects.reserveCapacity(total / threadCount)
    var index = 0
    while objects.count < total / threadCount {
        let object: AnyObject
        switch index % 3 {
        case 0: object = Record()
        case 1: object = Pair((index, index, index, index, index), (0, 0, 0, 0, 0))
        default: object = Leaf()
        }
        index += 1
        if index % 10 == 0 { continue }  // made and freed at once
        objects.append(object)
    }
    kept[slot] = objects
}

var threads: [pthread_t] = []
for slot in 0..<threadCount {
    var thread = pthread_t()
    pthread_create(&thread, nil, { fill(Int(bitPattern: $0)); return nil }, UnsafeMutableRawPointer(bitPattern: slot))
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
print("\(getpid()) ready \(kept.reduce(0) { $0 + $1.count }) objects")
fflush(stdout)
while true { pause() }
