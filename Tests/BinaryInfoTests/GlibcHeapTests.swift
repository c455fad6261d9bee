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
    /// glibc's tcache_key, which a block in use keeps from an exited thread's tcache.
    let staleKey: UInt64
    /// malloc_info's report: each arena's `system_mem` and heap count, the fastbin chunks, mmapped chunks and bytes.
    let arenaSystemBytes: [UInt64]
    let arenaHeaps: [Int]
    let fastbinChunks: Int
    let mmappedChunks: Int
    let mmappedBytes: UInt64
    /// The threads that allocate and stay; one more exits and one takes over its arena.
    static let threads = 4

    static let built = TargetProcess.build("heap_process", arguments: ["-pthread"])
    /// The same fixture linked statically: glibc's malloc lives in the executable.
    static let builtStatically = TargetProcess.build("heap_process", arguments: ["-pthread", "-static"], output: "heap_process_static")
    let executable: String

    /// Starts the fixture: the host's build, or `executable` run by `launcher` (`chroot ROOT`).
    init(statically: Bool = false, arguments: [String] = [], executable given: String? = nil, launcher: [String] = []) throws {
        let output = Pipe()
        executable = try given ?? (statically ? Self.builtStatically : Self.built).get()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? executable)
        process.arguments = launcher.dropFirst() + (launcher.isEmpty ? [] : [executable]) + arguments
        process.standardOutput = output
        try process.run()
        let text = Self.readUntilEnd(output)
        var processID: Int32?
        var live: [UInt64: (UInt64, UInt64, UInt64)] = [:]
        var freed: Set<UInt64> = []
        var mmappedMade = 0
        var staleKey: UInt64 = 0
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
            case "stale": staleKey = UInt64(fields[1])!
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
        self.staleKey = staleKey
        arenaSystemBytes = system
        arenaHeaps = heaps
        fastbinChunks = fast
        (mmappedChunks, mmappedBytes) = mmap
    }

    /// What a fixture printed up to its closing `end` line (or until it closed its output).
    static func readUntilEnd(_ output: Pipe) -> String {
        var data = Data()
        let end = Data("\nend\n".utf8)
        while !data.suffix(end.count).elementsEqual(end) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self)
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
        // A block in use that still holds tcache_key (from the exited thread's tcache) is among them.
        #expect(live.values.contains { $0.second == staleKey }, "no block in use holds the stale key", sourceLocation: sourceLocation)
        #expect(wrong == 0, "live blocks reported with another usable size or other bytes", sourceLocation: sourceLocation)
        #expect(freed.filter { chunks[$0] != nil }.count == 0, "freed blocks reported", sourceLocation: sourceLocation)
        #expect(totals.arenas.map(\.heapBytes) == arenaSystemBytes, sourceLocation: sourceLocation)
        #expect(totals.arenas.map(\.heaps) == arenaHeaps, sourceLocation: sourceLocation)
        // The main arena, one per thread, and the exited thread's, taken over by another.
        #expect(totals.arenas.count == Self.threads + 2, sourceLocation: sourceLocation)
        #expect(totals.mmappedChunks == mmappedChunks && totals.mmappedBytes == mmappedBytes, sourceLocation: sourceLocation)
        #expect(totals.mmappedChunks >= mmappedMade, sourceLocation: sourceLocation)
        #expect(totals.fastbinChunks == fastbinChunks, sourceLocation: sourceLocation)
        // Every living thread that called malloc has a tcache, and the main thread's holds freed blocks.
        #expect(totals.tcaches == Self.threads + 2, sourceLocation: sourceLocation)
        #expect(totals.tcacheChunks > 0, sourceLocation: sourceLocation)
        #expect(totals.arenas.reduce(0) { $0 + $1.chunksInUse } + totals.mmappedChunks == chunks.count, sourceLocation: sourceLocation)
    }
}

/// This process's glibc release (`gnu_get_libc_version`, looked up: Glibc's module leaves it
/// out), which the fixture processes share.
let hostGlibcRelease: String? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gnu_get_libc_version").map {
    String(cString: unsafeBitCast($0, to: (@convention(c) () -> UnsafePointer<CChar>).self)())
}

/// Every chunk a walk reports, by user address (a chunk reported twice is an issue).
func walk(_ heap: GlibcHeap, longWay: Bool = false) throws -> (chunks: [UInt64: HeapChunk], totals: HeapTotals) {
    var chunks: [UInt64: HeapChunk] = [:]
    var repeated = 0
    let totals = try heap.forEachChunk(findingTcachesFirst: longWay, checkingEveryPage: longWay) { chunk in
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
        let heap = try GlibcHeap(TargetMemory(.process(target.processID)))
        #expect(heap.release == hostGlibcRelease)
        #expect(heap.library.hasSuffix("/libc.so.6"))
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
        // Finding every tcache by a first walk, and mmapped chunks at every page, gives the same chunks.
        let (again, againTotals) = try walk(heap, longWay: true)
        #expect(Set(again.keys) == Set(chunks.keys))
        #expect(againTotals == totals)
    }

    @Test func staticallyLinkedHeapIsWhatTheProcessStates() throws {
        let target = try HeapProcess(statically: true)
        defer { target.finish() }
        let heap = try GlibcHeap(TargetMemory(.process(target.processID)))
        #expect(heap.library == target.executable)
        #expect(heap.release == hostGlibcRelease)
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
    }

    @Test func heapThatChangesWhileReadGivesAWalkOrAnError() throws {
        // Every thread allocates and frees without end: each walk ends, with chunks or with one
        // error about the heap (never a crash, a hang, or an error of another kind).
        let target = try HeapProcess(arguments: ["churn"])
        defer { target.finish() }
        let path = "process \(target.processID)"
        var walks = 0
        var errors: [BinaryInfoError] = []
        for _ in 0..<20 {
            do {
                let heap = try GlibcHeap(TargetMemory(.process(target.processID)))
                _ = try heap.forEachChunk { _ in }
                walks += 1
            } catch {
                errors.append(error)
            }
        }
        let unexpected = errors.filter {
            switch $0 {
            case .malformedHeap(let errorPath, _, _, _), .unmapped(let errorPath, _, _, _), .mallocStateNotFound(let errorPath, _, _):
                return errorPath != path
            default:
                return true
            }
        }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3).map(\.description))")
        #expect(walks + errors.count == 20)
    }

    @Test func arenasOfAHeapThatGrowsWithoutPauseAreFoundEveryTime() throws {
        // Every thread's heap grows a page at a time: its arena's top, its heap_info's size and
        // the maps are read at different moments. A Hummingbird server under load failed here on
        // every reading ("the top chunk … does not end its heap", "… not in writable memory").
        let target = try HeapProcess(arguments: ["grow"])
        defer { target.finish() }
        var opened = 0
        var errors: [String] = []
        for _ in 0..<20 {
            do {
                let heap = try GlibcHeap(TargetMemory(.process(target.processID)), changing: true)
                #expect(heap.arenas.count == HeapProcess.threads + 2, "the main arena, one per thread, and the reused exited thread's")
                opened += 1
            } catch {
                errors.append(error.description)
            }
        }
        #expect(opened == 20, "\(errors.prefix(3))")
    }

    /// A running process's maps and arenas are read at different moments: a heap may reach past
    /// the region that held it when the maps were read. (A release run of the churning test
    /// trapped here on `start..<region.end` with start past the end.)
    @Test func heapsReachingPastTheirRegionLeaveNoMmapRange() {
        func region(_ start: UInt64, _ end: UInt64) -> TargetRegion {
            TargetRegion(start: start, end: end, isWritable: true, filePath: nil, fileOffset: 0, isStack: false)
        }
        let regions = [region(0x1000, 0x5000), region(0x8000, 0x9000)]
        // The first heap runs on past the first region's end; a second heap lies after it.
        #expect(GlibcHeap.mmapRanges(in: regions, outside: [0x2000..<0x6000, 0x7000..<0x7800]) == [0x1000..<0x2000, 0x8000..<0x9000])
        #expect(GlibcHeap.mmapRanges(in: regions, outside: [0x0..<0xA000]) == [])
        #expect(GlibcHeap.mmapRanges(in: regions, outside: []) == [0x1000..<0x5000, 0x8000..<0x9000])
        // Not writable, file-backed or the stack: never an mmapped chunk's.
        let others = [
            TargetRegion(start: 0x1000, end: 0x2000, isWritable: false, filePath: nil, fileOffset: 0, isStack: false),
            TargetRegion(start: 0x2000, end: 0x3000, isWritable: true, filePath: "/lib/x.so", fileOffset: 0, isStack: false),
            TargetRegion(start: 0x3000, end: 0x4000, isWritable: true, filePath: nil, fileOffset: 0, isStack: true),
        ]
        #expect(GlibcHeap.mmapRanges(in: others, outside: []) == [])
    }

    @Test func processThatExitsDuringTheReadIsNamed() throws {
        let target = try HeapProcess()
        let heap = try GlibcHeap(TargetMemory(.process(target.processID)))
        target.finish()
        #expect(throws: BinaryInfoError.processExited(path: "process \(target.processID)")) { try heap.forEachChunk { _ in } }
    }

    @Test func libraryReplacedAtItsPathIsReadFromTheLoadedFile() throws {
        // The process's libc named by a copy on disk whose first page differs (one byte of the
        // ELF header's padding): as after an upgrade replaced the file, or in a container whose
        // libc is another than the host's at that path. The heap is read from the file the
        // process loaded (the kernel's handle on the mapping), never from the other file.
        let target = try TargetProcess()
        defer { target.finish() }
        let map = try MemoryMap(processID: target.processID)
        let library = try #require(map.mappings.first { $0.name.hasSuffix("/libc.so.6") }?.name)
        let directory = ScratchDirectory.path(named: "heap-libraries")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/libc.so.6"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        bytes[12] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: copy))
        let renamed = MemoryMap(
            mappings: map.mappings.map {
                var mapping = $0
                if mapping.name == library { mapping.name = copy }
                return mapping
            })
        let memory = try TargetMemory(processID: target.processID, map: renamed)
        let image = try #require(memory.cLibrary)
        #expect(image.mappedPath == copy)
        #expect(image.filePath.hasPrefix("/proc/\(target.processID)/map_files/"))
        let heap = try GlibcHeap(memory)
        #expect(heap.library == copy)
        #expect(heap.arenaAddresses == (try GlibcHeap(TargetMemory(.process(target.processID)))).arenaAddresses)
    }

    @Test func processWithoutMallocStateIsNamed() throws {
        // target_process links glibc dynamically; read as if libc were not there, its executable has no glibc.
        let target = try TargetProcess()
        defer { target.finish() }
        var map = try MemoryMap(processID: target.processID)
        map = MemoryMap(mappings: map.mappings.filter { !$0.name.contains("libc.so") })
        do {
            _ = try GlibcHeap(TargetMemory(processID: target.processID, map: map))
            Issue.record("a heap was found without a C library")
        } catch {
            #expect(
                error.description
                    == "process \(target.processID): cannot find glibc's malloc state in \(target.executable): the file on disk names no glibc release (no 'release version 2.NN' banner, no one '2.NN' version string)"
            )
        }
    }
}

@Suite("glibc heap walk of core files", .enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
struct GlibcHeapCoreTests {
    /// A fixture process, a gcore core of it and the core's path.
    static func dump() throws -> (target: HeapProcess, core: CoreFile, path: String) {
        let target = try HeapProcess()
        let path = try CoreDump.make(of: target.processID)
        return (target, try CoreFile(path: path), path)
    }

    /// A copy of the core at `path` (named `name` in its directory) with the little-endian word
    /// at `address` of the dumped memory set to `value`: cores are hundreds of MiB (each arena's
    /// 64 MiB reservation), so the copy is the system's and the change a write of 8 bytes.
    static func patched(_ path: String, _ core: CoreFile, at address: UInt64, to value: UInt64, name: String) throws -> CoreFile {
        let segment = try #require(core.segments.first { $0.address <= address && address - $0.address + 8 <= $0.fileSize })
        let copy = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        try handle.seek(toOffset: segment.offset + address - segment.address)
        try handle.write(contentsOf: withUnsafeBytes(of: value.littleEndian) { Data($0) })
        try handle.close()
        return try CoreFile(path: copy)
    }

    @Test func coreHeapIsWhatTheProcessStated() throws {
        let (target, core, path) = try Self.dump()
        defer { target.finish() }
        let heap = try GlibcHeap(TargetMemory(core: core))
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
        // The same walk of the live process (unchanged: it is paused forever) finds the same chunks.
        let (live, liveTotals) = try walk(try GlibcHeap(TargetMemory(.process(target.processID))))
        #expect(live == chunks)
        #expect(liveTotals == totals)
        #expect(heap.arenaAddresses == (try GlibcHeap(TargetMemory(.process(target.processID)))).arenaAddresses)

        // A damaged chunk size: one error naming the chunk, nothing presented as complete.
        let name = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("damaged-core").path
        let victim = try #require(chunks.values.filter { $0.arena == 0 }.map(\.address).sorted().dropFirst(100).first)
        let damaged = try GlibcHeap(TargetMemory(core: Self.patched(path, core, at: victim - 8, to: 0x39, name: "damaged-core")))
        do {
            _ = try damaged.forEachChunk { _ in }
            Issue.record("a damaged heap was walked")
        } catch {
            #expect(
                error
                    == .malformedHeap(
                        path: name, what: "the chunk", address: victim - 16, detail: "its size field 0x39 is not a heap chunk's"))
            #expect(
                error.description
                    == "\(name): malformed malloc heap: the chunk at 0x\(String(victim - 16, radix: 16)): its size field 0x39 is not a heap chunk's (the heap was corrupt when the process was dumped, or the core file was damaged since)"
            )
        }
        // A size that runs past the top chunk.
        let main = heap.arenas[0]
        let long = try GlibcHeap(TargetMemory(core: Self.patched(path, core, at: victim - 8, to: 0x1000_0001, name: "damaged-core")))
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: name, what: "the chunk", address: victim - 16,
                detail: "its size 0x10000000 runs past the top chunk at 0x\(String(main.top, radix: 16))")
        ) { try long.forEachChunk { _ in } }

        // The main thread's tcache (its first chunk) with one count lowered: the chain is longer.
        let tcache = main.heaps[0].firstChunk
        let counts = try core.bytes(at: tcache + 16, count: 128)
        let bin = try #require((0..<64).first { counts[$0 * 2] >= 2 })
        let count = UInt64(counts[bin * 2])
        let countWord = tcache + 16 + UInt64(bin * 2 / 8 * 8)
        let word = try core.bytes(at: countWord, count: 8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let shift = UInt64(bin * 2 % 8 * 8)
        let lowered = try GlibcHeap(
            TargetMemory(core: Self.patched(path, core, at: countWord, to: word - (1 << shift), name: "damaged-core")))
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: name, what: "bin \(bin) of the tcache", address: tcache, detail: "its chain is longer than its count, \(count - 1)")
        ) { try lowered.forEachChunk { _ in } }
        // Raised above mp_.tcache_count (7), the tcache fails its checks, and its entries are not taken for allocations.
        let tooMany = try GlibcHeap(
            TargetMemory(core: Self.patched(path, core, at: countWord, to: word + ((8 - count) << shift), name: "damaged-core")))
        for findingTcachesFirst in [false, true] {
            do {
                _ = try tooMany.forEachChunk(findingTcachesFirst: findingTcachesFirst, checkingEveryPage: false) { _ in }
                Issue.record("a tcache that fails its checks was ignored")
            } catch {
                #expect(
                    error.description.hasPrefix(
                        "\(name): malformed malloc heap: the tcache at 0x\(String(tcache, radix: 16)): its bins fail the tcache checks"))
            }
        }
    }

    @Test func damagedArenaIsNotGuessed() throws {
        let (target, core, path) = try Self.dump()
        target.finish()
        let heap = try GlibcHeap(TargetMemory(core: core))
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        // mp_.n_mmaps one higher than the mmapped chunks in memory: the count is checked, not trusted.
        let parameters = heap.parameters
        let countField = UInt64(Int64(parameters.sbrkBaseField) + Int64(heap.layout.mmapCountsOffsetFromSbrkBase))
        let countWord = try core.bytes(at: countField, count: 8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let counted = try GlibcHeap(TargetMemory(core: Self.patched(path, core, at: countField, to: countWord + 1, name: "mmaps-core")))
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: directory.appendingPathComponent("mmaps-core").path, what: "mp_", address: parameters.sbrkBaseField,
                detail:
                    "it counts \(parameters.mmappedChunks + 1) mmapped chunks of \(parameters.mmappedBytes) bytes, the target's anonymous memory holds \(parameters.mmappedChunks) of \(parameters.mmappedBytes)"
            )
        ) { try counted.forEachChunk { _ in } }
        // A fastbin chunk whose (protected) link leads back to itself: a loop, found, not followed.
        let (arena, bin, chunk) = try #require(
            heap.arenas.enumerated().lazy.compactMap { index, arena in
                arena.fastbins.firstIndex { $0 != 0 }.map { (index, $0, arena.fastbins[$0]) }
            }.first)
        let looped = try GlibcHeap(
            TargetMemory(core: Self.patched(path, core, at: chunk + 16, to: ((chunk + 16) >> 12) ^ chunk, name: "fastbin-core")))
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: directory.appendingPathComponent("fastbin-core").path, what: "the chunk", address: chunk,
                detail:
                    "it appears twice on the free lists (the second time on fastbin \(bin) of the arena at 0x\(String(heap.arenas[arena].address, radix: 16))): a loop, or a chunk on two lists"
            )
        ) { try looped.forEachChunk { _ in } }
        // The main arena's top pointer cleared: the one place with an arena's bins is named with what is wrong.
        let main = heap.arenas[0].address
        let cleared = try Self.patched(path, core, at: main + heap.layout.topOffset, to: 0, name: "no-arena-core")
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: directory.appendingPathComponent("no-arena-core").path, what: "the arena", address: main,
                detail: "its top chunk 0x0 is not an aligned chunk in writable memory")
        ) { try GlibcHeap(TargetMemory(core: cleared)) }
        // Its bins cleared too: no place in libc's .data has an arena's shape, and none is guessed.
        let patched = try Self.patched(cleared.path, cleared, at: main + heap.layout.binsOffset, to: 0, name: "no-bins-core")
        do {
            _ = try GlibcHeap(TargetMemory(core: patched))
            Issue.record("a main arena was found without its bins")
        } catch {
            #expect(
                error.description
                    == "\(patched.path): cannot find glibc's malloc state in \(heap.library): no struct malloc_state in its .data has empty bins pointing to themselves (has the program called malloc yet?)"
            )
        }
    }
}

@Suite("glibc heap walk of a Swift process: objects by their metadata pointer")
struct SwiftHeapObjectTests {
    static let built: Result<String, FixtureError> = Result {
        let directory = ScratchDirectory.path(named: "heap-objects")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = directory + "/heap_objects"
        try FixtureToolchain.run(
            FixtureToolchain.swiftc, ["-O", FixtureToolchain.fixturesDirectory + "/HeapObjects/main.swift", "-o", output], in: directory)
        return output
    }.mapError { $0 as? FixtureError ?? FixtureError(message: "\($0)") }

    @Test(.enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func objectsAreCountedByTheirMetadata() throws {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: try Self.built.get())
        process.standardOutput = output
        try process.run()
        let text = HeapProcess.readUntilEnd(output)
        var processID: Int32 = 0
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var expected: [UInt64: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "pid" { processID = Int32(fields[1]) ?? 0 }
            if fields.first == "type" { expected[UInt64(fields[1])!] = Int(fields[2])! }
        }
        try #require(processID > 0 && expected.count == 2, "heap_objects printed \(text.prefix(200))")
        // Every live object counted once by the metadata pointer it starts with, the freed ones not at all.
        func counts(_ heap: GlibcHeap) throws -> [UInt64: Int] {
            var counts: [UInt64: Int] = [:]
            _ = try heap.forEachChunk { chunk in
                if expected[chunk.firstWord] != nil { counts[chunk.firstWord, default: 0] += 1 }
            }
            return counts
        }
        #expect(try counts(GlibcHeap(TargetMemory(.process(processID)))) == expected)
        let core = try CoreDump.make(of: processID)
        #expect(try counts(GlibcHeap(TargetMemory(.core(path: core)))) == expected)
    }
}
