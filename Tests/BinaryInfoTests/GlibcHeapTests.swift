import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// A running fixture process that states its own heap (`Fixtures/heap_process.c`): every live
/// block with `malloc_usable_size` and its first two words, every freed block, and glibc's own
/// `malloc_info(3)` report.
final class HeapProcess {
    let process = Process()
    let processID: Int32
    /// Live blocks: address -> (usable size, first word, second word).
    let live: [UInt64: (usable: UInt64, first: UInt64, second: UInt64)]
    let freed: Set<UInt64>
    /// The live blocks the fixture made above the mmap threshold.
    let mmappedMade: Int
    /// malloc_info's report: each arena's `system_mem` and heap count, the fastbin chunks, mmapped chunks and bytes.
    let arenaSystemBytes: [UInt64]
    let arenaHeaps: [Int]
    let fastbinChunks: Int
    let mmappedChunks: Int
    let mmappedBytes: UInt64
    static let threads = 4

    static let built = TargetProcess.build("heap_process", arguments: ["-pthread"])

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: try Self.built.get())
        process.standardOutput = output
        try process.run()
        var data = Data()
        let end = Data("\nend\n".utf8)
        while !data.suffix(end.count).elementsEqual(end) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            data.append(chunk)
        }
        let text = String(decoding: data, as: UTF8.self)
        var processID: Int32?
        var live: [UInt64: (UInt64, UInt64, UInt64)] = [:]
        var freed: Set<UInt64> = []
        var mmappedMade = 0
        var system: [UInt64] = []
        var heaps: [Int] = []
        var fast = 0
        var mmap: (Int, UInt64) = (-1, 0)
        func hex(_ field: Substring) -> UInt64? { UInt64(field.dropFirst(2), radix: 16) }
        func attribute(_ line: Substring, _ name: String) -> Substring? {
            guard let range = line.range(of: name + "=\"") else { return nil }
            return line[range.upperBound...].prefix { $0 != "\"" }
        }
        var inArena = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "pid": processID = Int32(fields[1])
            case "live":
                live[hex(fields[1])!] = (UInt64(fields[2])!, UInt64(fields[3])!, UInt64(fields[4])!)
            case "freed": freed.insert(hex(fields[1])!)
            case "mmapped": mmappedMade = Int(fields[1])!
            default:
                if line.hasPrefix("<heap nr=") {
                    inArena = true
                    heaps.append(1)
                } else if line.hasPrefix("</heap>") {
                    inArena = false
                } else if inArena, line.hasPrefix("<system type=\"current\""), let size = attribute(line, "size") {
                    system.append(UInt64(size)!)
                } else if inArena, line.hasPrefix("<aspace type=\"subheaps\""), let size = attribute(line, "size") {
                    heaps[heaps.count - 1] = Int(size)!
                } else if inArena, line.hasPrefix("<total type=\"fast\""), let count = attribute(line, "count") {
                    fast += Int(count)!
                } else if !inArena, line.hasPrefix("<total type=\"mmap\""), let count = attribute(line, "count"),
                    let size = attribute(line, "size")
                {
                    mmap = (Int(count)!, UInt64(size)!)
                }
            }
        }
        guard let processID, text.hasSuffix("\nend\n"), !live.isEmpty, !freed.isEmpty, mmap.0 >= 0 else {
            throw FixtureError(message: "heap_process printed \(text.prefix(300))")
        }
        self.processID = processID
        self.live = live
        self.freed = freed
        self.mmappedMade = mmappedMade
        arenaSystemBytes = system
        arenaHeaps = heaps
        fastbinChunks = fast
        (mmappedChunks, mmappedBytes) = mmap
    }

    /// Ends it with SIGKILL (see ``TargetProcess/finish()``) and waits for it to exit.
    func finish() {
        if process.isRunning { kill(processID, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { finish() } }

    /// Checks a heap walk's chunks and totals against what the process printed.
    func check(_ chunks: [UInt64: HeapChunk], _ totals: HeapTotals, sourceLocation: SourceLocation = #_sourceLocation) {
        var missing = 0
        var wrong = 0
        for (address, block) in live {
            guard let chunk = chunks[address] else {
                missing += 1
                continue
            }
            if chunk.usableSize != block.usable || chunk.firstWord != block.first || chunk.secondWord != block.second { wrong += 1 }
        }
        #expect(missing == 0, "live blocks not reported", sourceLocation: sourceLocation)
        #expect(wrong == 0, "live blocks reported with another usable size or other bytes", sourceLocation: sourceLocation)
        #expect(freed.filter { chunks[$0] != nil }.count == 0, "freed blocks reported", sourceLocation: sourceLocation)
        #expect(totals.arenas.map(\.heapBytes) == arenaSystemBytes, sourceLocation: sourceLocation)
        #expect(totals.arenas.map(\.heaps) == arenaHeaps, sourceLocation: sourceLocation)
        #expect(totals.arenas.count == Self.threads + 1, sourceLocation: sourceLocation)
        #expect(totals.mmappedChunks == mmappedChunks && totals.mmappedBytes == mmappedBytes, sourceLocation: sourceLocation)
        #expect(totals.mmappedChunks >= mmappedMade, sourceLocation: sourceLocation)
        #expect(totals.fastbinChunks == fastbinChunks, sourceLocation: sourceLocation)
        // Every thread that called malloc has a tcache, and the main thread's holds freed blocks.
        #expect(totals.tcaches == Self.threads + 1, sourceLocation: sourceLocation)
        #expect(totals.tcacheChunks > 0, sourceLocation: sourceLocation)
        #expect(totals.arenas.reduce(0) { $0 + $1.chunksInUse } + totals.mmappedChunks == chunks.count, sourceLocation: sourceLocation)
    }
}

/// Every chunk a walk reports, by user address (a chunk reported twice is an issue).
func walk(_ heap: GlibcHeap, findingTcachesFirst: Bool = false) throws -> (chunks: [UInt64: HeapChunk], totals: HeapTotals) {
    var chunks: [UInt64: HeapChunk] = [:]
    var repeated = 0
    let totals = try heap.forEachChunk(findingTcachesFirst: findingTcachesFirst) { chunk in
        if chunks.updateValue(chunk, forKey: chunk.address) != nil { repeated += 1 }
    }
    #expect(repeated == 0)
    return (chunks, totals)
}

@Suite("glibc heap walk: every allocation in use, by PID and from a core file")
struct GlibcHeapTests {
    @Test func processHeapIsWhatTheProcessStates() throws {
        let target = try HeapProcess()
        defer { target.finish() }
        let heap = try GlibcHeap(processID: target.processID)
        #expect(heap.release == "2.36" || !heap.release.isEmpty)
        #expect(heap.library.contains("libc"))
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
        // Finding every tcache by a first walk gives the same chunks.
        let (again, againTotals) = try walk(heap, findingTcachesFirst: true)
        #expect(Set(again.keys) == Set(chunks.keys))
        #expect(againTotals == totals)
    }
}
