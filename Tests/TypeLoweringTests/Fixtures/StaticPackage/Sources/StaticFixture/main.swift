// Reads mangled type names (without `$s`), one per line, on standard input and prints each type's
// layout as this program's own runtime knows it (`MemoryLayout`, `_forEachField`, class metadata):
//   type <mangling> <size> <alignment> <stride> <instance size or -> <instance alignment or ->
//   field <mangling> <name> <offset> <size>
//   missing <mangling>                      (the runtime cannot look it up)
// The types below make the file hold package types as fields: bound generics of another module.
@_spi(Reflection) import Swift
import ArgumentParser
import DequeModule

public struct Options: ParsableArguments {
    @Option(help: "How many") public var count: Int = 1
    @Flag public var verbose = false
    @Argument public var names: [String] = []
    public init() {}
}

public struct Queue {
    public var pending: Deque<String>
    public var flag: Bool
    public var sizes: Deque<Int8>?
}

public enum Work {
    case idle
    case queued(Deque<Int>)
    case options(Options)
}

public final class Worker {
    public var queue = Queue(pending: [], flag: false, sizes: nil)
    public var work = Work.idle
    public weak var peer: Worker?
    public init() {}
}

func sizes<T>(_: T.Type) -> (Int, Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment, MemoryLayout<T>.stride) }

func report(_ mangling: String) {
    guard let type = _typeByName(mangling) else {
        print("missing \(mangling)")
        return
    }
    let (size, alignment, stride) = _openExistential(type, do: sizes)
    var instance = "- -"
    let isClass = type is AnyClass
    if isClass {
        // Class metadata on Linux: instance size (uint32) at +24, instance alignment mask (uint16) at +28.
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        instance = "\(metadata.load(fromByteOffset: 24, as: UInt32.self)) \(Int(metadata.load(fromByteOffset: 28, as: UInt16.self)) + 1)"
    }
    print("type \(mangling) \(size) \(alignment) \(stride) \(instance)")
    _ = _forEachField(of: type, options: isClass ? _EachFieldOptions(rawValue: 1 << 0) : []) { name, offset, fieldType, _ in
        print("field \(mangling) \(String(cString: name)) \(offset) \(_openExistential(fieldType, do: sizes).0)")
        return true
    }
}

// Keep the fixture's types alive in a release build.
let worker = Worker()
worker.queue.pending.append(CommandLine.arguments.first ?? "")
if CommandLine.arguments.count > 1, let options = try? Options.parse(Array(CommandLine.arguments.dropFirst())) {
    worker.work = .options(options)
}
while let line = readLine() { report(line) }
