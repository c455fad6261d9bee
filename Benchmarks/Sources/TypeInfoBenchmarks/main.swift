import BenchmarkSupport
import Foundation
import TypeInfo

// The TypeInfo benchmark of issues 2 and 10: first reads, cached lookups, property access,
// the factory and enum values, each against direct Swift code.
// Run: swift run -c release --package-path Benchmarks TypeInfoBenchmarks
// Instruction counts: Tools/bench-typeinfo-instructions (one row at a time under callgrind,
// through `--only "<row>" --iterations N`).

/// Twenty stored properties of assorted types.
struct TwentyProperties {
    var p01: Int = 1, p02: String = "two", p03: Double = 3, p04: Bool = true, p05: [Int] = [5]
    var p06: Int8 = 6, p07: String? = nil, p08: Float = 8, p09: UInt16 = 9, p10: [String: Int] = [:]
    var p11: Int = 11, p12: String = "twelve", p13: Double = 13, p14: Bool = false, p15: Set<Int> = []
    var p16: Int32 = 16, p17: Date = Date(timeIntervalSince1970: 17), p18: UInt8 = 18, p19: Int64 = 19, p20: String = "twenty"
}

class Level1 { final var a: Int = 1; final var b: String = "b"; final var c: Double = 3 }
class Level2: Level1 { final var d: Int = 4; final var e: String? = nil; final var f: [Int] = [] }
final class Level3: Level2 { var g: Bool = true; var h: Int16 = 8; var i: String = "i" }

let firstReads: [Timing?] = [
    row("first read: 20-property struct", iterations: 50, batches: 40) {
        ClassInfo.of(TwentyProperties.self).setNeedsUpdate()
        return ClassInfo.of(TwentyProperties.self)
    },
    row("first read: 3-level class (whole chain)", iterations: 50, batches: 40) {
        ClassInfo.of(Level3.self).setNeedsUpdate()
        ClassInfo.of(Level2.self).setNeedsUpdate()
        ClassInfo.of(Level1.self).setNeedsUpdate()
        return ClassInfo.of(Level3.self)
    },
    row("first read: 3-level class (superclasses cached)", iterations: 50, batches: 40) {
        ClassInfo.of(Level3.self).setNeedsUpdate()
        return ClassInfo.of(Level3.self)
    },
]
report("First read (rebuild after setNeedsUpdate)", firstReads.compactMap { $0 })

let types: [Any.Type] = [TwentyProperties.self, Level3.self, Level2.self, Level1.self, Int.self, String.self, [Int].self, Date.self]
for type in types { _ = ClassInfo.of(type) }
var cursor = 0
let lookups: [Timing?] = [
    row("empty operation (harness overhead)", iterations: 200_000) { cursor },
    row("cached ClassInfo.of (same type)", iterations: 200_000) { ClassInfo.of(TwentyProperties.self) },
    row("cached ClassInfo.of (8 types round robin)", iterations: 200_000) {
        cursor = (cursor + 1) & 7
        return ClassInfo.of(types[cursor])
    },
]
report("Cached lookup", lookups.compactMap { $0 })

// Two threads hammering the cache at once: with no lock on the read path, per-lookup cost
// stays near the single-thread cost instead of doubling.
func parallelLookupCost(threads: Int, iterations: Int) -> Double {
    let group = DispatchGroup()
    let start = ContinuousClock.now
    for _ in 0..<threads {
        group.enter()
        Thread {
            for _ in 0..<iterations { blackHole(ClassInfo.of(TwentyProperties.self)) }
            group.leave()
        }.start()
    }
    group.wait()
    return nanoseconds(start.duration(to: .now)) / Double(iterations)
}
if RowSelection.only == nil {
let single = (0..<7).map { _ in parallelLookupCost(threads: 1, iterations: 1_000_000) }.sorted()[3]
let double = (0..<7).map { _ in parallelLookupCost(threads: 2, iterations: 1_000_000) }.sorted()[3]
print("## Concurrent cached lookups (wall time per lookup per thread, median of 7 runs)")
print("1 thread: \(format(single))   2 threads: \(format(double))   ratio: \(String(format: "%.2f", double / single))\n")
}

/// Property access against direct access, on a local model (a global would add dynamic
/// exclusivity checks to every access, on both sides).
func propertyAccessTimings() -> [Timing?] {
    let info = ClassInfo.of(TwentyProperties.self)
    guard let intProperty = info.propertyInfo(named: "p11"), let stringProperty = info.propertyInfo(named: "p12") else {
        fatalError("benchmark type lost its properties")
    }
    var model = TwentyProperties()
    // Reads borrow a `let`, as an encoder holding a model does; reading a captured `var`
    // would copy the whole 20-field struct into the call on both sides.
    let reading = TwentyProperties()
    var counter = 0
    let timings = [
        row("empty operation (harness overhead)", iterations: 1_000_000) { counter },
        row("direct read  model.p11", iterations: 1_000_000) { reading.p11 },
        row("PropertyInfo.get(Int.self, from:)", iterations: 1_000_000) { (try? intProperty.get(Int.self, from: reading)) ?? 0 },
        row("PropertyInfo.get(from:) -> Any", iterations: 1_000_000) { (try? intProperty.get(from: reading)) ?? 0 },
        row("direct write model.p11 = n", iterations: 1_000_000) { counter &+= 1; model.p11 = counter },
        row("PropertyInfo.set(Int, on: &model)", iterations: 1_000_000) {
            counter &+= 1
            try? intProperty.set(counter, on: &model)
        },
        row("PropertyInfo.set(Any, on: &model)", iterations: 1_000_000) {
            counter &+= 1
            try? intProperty.set(counter as Any, on: &model)
        },
        row("direct write model.p12 = string", iterations: 1_000_000) { model.p12 = "twelve" },
        row("PropertyInfo.set(String, on: &model)", iterations: 1_000_000) { try? stringProperty.set("twelve", on: &model) },
    ]
    blackHole(model)
    return timings
}
report("Property access (struct)", propertyAccessTimings().compactMap { $0 })

/// Filling five fields of a model, as a mapper does per object: direct assignments against
/// PropertyInfo.set per field and against one ClassInfo.withStorage per model.
func fillTimings() -> [Timing?] {
    let info = ClassInfo.of(TwentyProperties.self)
    let names = ["p01", "p02", "p03", "p11", "p12"]
    let properties = names.compactMap { info.propertyInfo(named: $0) }
    guard properties.count == names.count else { fatalError("benchmark type lost its properties") }
    var model = TwentyProperties()
    var counter = 0
    let timings = [
        row("direct: 5 assignments", iterations: 300_000) {
            counter &+= 1
            model.p01 = counter; model.p02 = "two"; model.p03 = 3.5; model.p11 = counter; model.p12 = "twelve"
        },
        row("PropertyInfo.set x5", iterations: 300_000) {
            counter &+= 1
            try? properties[0].set(counter, on: &model)
            try? properties[1].set("two", on: &model)
            try? properties[2].set(3.5, on: &model)
            try? properties[3].set(counter, on: &model)
            try? properties[4].set("twelve", on: &model)
        },
        row("ClassInfo.withStorage + set x5", iterations: 300_000) {
            counter &+= 1
            try? info.withStorage(of: &model) { storage in
                try storage.set(counter, for: properties[0])
                try storage.set("two", for: properties[1])
                try storage.set(3.5, for: properties[2])
                try storage.set(counter, for: properties[3])
                try storage.set("twelve", for: properties[4])
            }
        },
    ]
    blackHole(model)
    return timings
}
report("Filling a model (5 fields)", fillTimings().compactMap { $0 })
report("Issue 10: inherited set, typed get", issue10AccessTimings().compactMap { $0 })
report("Issue 10: factory", factoryTimings().compactMap { $0 })
report("Issue 10: enum values", enumTimings().compactMap { $0 })
