// BinaryInfo's target readers compiled with -O (ReleaseTargetReadersTests): a target's heap walked
// and its executable's Swift types read from its memory, printed for the test to compare.
//   release-target-readers (pid PID | core PATH) METADATA...
// Prints `object<TAB>METADATA<TAB>COUNT<TAB>BYTES` for each metadata given, then
// `type<TAB>NAME<TAB>SIZE` for each type of the executable; `error<TAB>TEXT` and status 1 on failure.
import BinaryInfo
import TypeLayout

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let processID = Int32(arguments[2]) ?? (arguments[1] == "core" ? 0 : nil) else {
    print("usage: release-target-readers (pid PID | core PATH) METADATA...")
    exit(2)
}
let target: TargetSpecifier = arguments[1] == "pid" ? .process(processID) : .core(path: arguments[2])
let wanted = Set(arguments.dropFirst(3).compactMap { UInt64($0.dropFirst(2), radix: 16) })
do {
    let memory = try TargetMemory(target)
    var objects: [UInt64: (count: Int, bytes: UInt64)] = [:]
    _ = try GlibcHeap(memory).forEachChunk { chunk in
        guard wanted.contains(chunk.firstWord) else { return }
        objects[chunk.firstWord, default: (0, 0)].count += 1
        objects[chunk.firstWord, default: (0, 0)].bytes += chunk.usableSize
    }
    for (metadata, tally) in objects.sorted(by: { $0.key < $1.key }) {
        print("object\t0x\(String(metadata, radix: 16))\t\(tally.count)\t\(tally.bytes)")
    }
    guard let executable = memory.executable else {
        print("error\tno executable image")
        exit(1)
    }
    for type in try BinaryImage.read(executable, in: memory, runtimeLibrary: nil).document.types {
        print("type\t\(type.name)\t\(type.size.map(String.init) ?? "?")")
    }
} catch {
    print("error\t\(error)")
    exit(1)
}
