// Times what `heap`, `object` and `dump --pid` do on a target, stage by stage:
//   TargetBenchmark (--pid PID | --core PATH) METADATA-ADDRESS...
// Prints one line per stage: its name, the median of its runs in milliseconds, and what it found.
import BinaryInfo
import TypeLowering

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let kind = arguments.first else {
    print("usage: TargetBenchmark (--pid PID | --core PATH) METADATA-ADDRESS...")
    exit(2)
}
let target: TargetSpecifier = kind == "--pid" ? .process(Int32(arguments[1]) ?? 0) : .core(path: arguments[1])
let metadata = arguments.dropFirst(2).compactMap { UInt64($0.dropFirst(2), radix: 16) }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Runs `body` `runs` times and prints the median.
func measure<T>(_ name: String, runs: Int, _ body: () throws -> T) rethrows -> T {
    var times: [Double] = []
    var result: T?
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        result = try body()
        times.append(milliseconds(clock.now - start))
    }
    times.sort()
    let median = (times[times.count / 2] * 100).rounded() / 100
    print("\(name): \(median) ms;", terminator: " ")
    return result!
}

do {
    let inspector = try measure("open (images, build ids, class descriptors)", runs: 5) { try TargetInspector(target) }
    print(
        "images: \(inspector.images.count), Swift: \(inspector.images.filter(\.isSwift).count), class descriptors: \(inspector.classes.classDescriptors.count)"
    )
    // A heap walk checks one candidate word per chunk: a million checks, most of them not metadata.
    let candidates = (0..<1_000_000).map { index in
        index % 10 == 0 ? metadata[index / 10 % metadata.count] : UInt64(index) &* 0x9E37_79B9 & ~7
    }
    let found = measure("1,000,000 candidate checks (1 in 10 metadata)", runs: 3) {
        candidates.filter { inspector.classMetadata(at: $0) != nil }.count
    }
    print("recognised: \(found)")
    // A heap's first words: mostly the few metadata of its objects, some other data.
    let heapLike = (0..<1_000_000).map { index in index % 10 == 0 ? UInt64(index) &* 0x9E37_79B9 & ~7 : metadata[index % metadata.count] }
    let batch = measure("1,000,000 heap-like words as one batch (9 in 10 metadata)", runs: 3) {
        inspector.classMetadata(candidates: heapLike).count
    }
    print("distinct metadata: \(batch)")
    let names = try measure("name \(metadata.count) metadata (one worker run)", runs: 3) { try inspector.typeNames(ofMetadata: metadata) }
    print("named: \(names.count)")
    let fields = try measure("fields of one class (one worker run)", runs: 3) { try inspector.storedFields(ofClassAt: metadata[0]) }
    print("fields: \(fields?.count ?? -1)")
    // `dump --pid`'s image reading: every Swift image's types from the target's bytes, next to
    // the same reading of the files.
    let swiftImages = inspector.images.filter(\.isSwift)
    let fromTarget = try measure("read \(swiftImages.count) Swift images' types from the target", runs: 3) {
        try swiftImages.reduce(0) { $0 + (try BinaryImage.read($1, in: inspector.memory, runtimeLibrary: nil)).document.types.count }
    }
    print("types: \(fromTarget)")
    let fromFiles = try measure("the same from their files", runs: 3) {
        try swiftImages.reduce(0) { $0 + (try BinaryImage.read(atPath: $1.filePath, runtimeLibrary: nil)).document.types.count }
    }
    print("types: \(fromFiles)")
} catch {
    print("\(error)")
    exit(2)
}
