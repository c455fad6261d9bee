#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TypeLayout

/// The glibc malloc heap of a running process or a core file: every allocation in use, found by
/// walking glibc's own structures through the target's memory (never written, never stopped).
///
/// Opening it finds the C library the target loaded (`libc.so.6` among its mapped files, or the
/// executable when glibc is linked statically), reads that file's section headers and glibc
/// release from disk, and finds glibc's arenas in the target's memory. The main arena is
/// `main_arena` when the file's symbol table names it (an executable linking glibc statically,
/// not stripped); a shared libc has no such symbol, and the main arena is the one place in its
/// `.data` with an initialised arena's bins (each empty bin points to itself) and a `next` field
/// holding an arena. Either way it must have a top chunk in writable memory that ends the `sbrk`
/// heap `system_mem` bytes after its start, and a `next` chain of arenas that returns to it. Every
/// other arena must follow the `heap_info` of a 64 MiB-aligned heap that names it, and its heaps
/// must add up to its `system_mem`. `mp_` (`struct malloc_par`) is found by the main heap's
/// start, which it holds as `sbrk_base` (within `mp_`'s symbol, when the file names it).
///
/// ``forEachChunk(_:)`` then walks every heap of every arena chunk by chunk, from its first chunk
/// to exactly its top chunk, and finds the mmapped chunks. A chunk is in use when the next
/// chunk's `PREV_INUSE` bit says so and it is on no fastbin and no thread's tcache; chunks on the
/// other free lists clear that bit. Tcaches are found among the chunks of their size and taken
/// only when every bin verifies (counts, sizes, `tcache_key`, chain lengths). mmapped chunks are
/// counted against `mp_`'s `n_mmaps` and `mmapped_mem`, so a chunk missed or made up is an error.
///
/// glibc 2.26 through 2.41 on 64-bit Linux; other releases are refused with
/// ``BinaryInfoError/mallocStateNotFound(path:library:detail:)``. Only glibc's allocator is
/// read: the blocks of an allocator that replaces `malloc` (jemalloc, tcmalloc) are not seen.
/// A process's mappings are read when the heap is opened: open it again for a later walk.
///
/// ```swift
/// let heap = try GlibcHeap(TargetMemory(.process(pid)))
/// let totals = try heap.forEachChunk { chunk in
///     histogram[chunk.firstWord, default: 0] += 1
/// }
/// ```
///
/// A core file or a stopped process reads stably: what does not fit glibc's invariants there is
/// ``BinaryInfoError/malformedHeap(path:what:address:detail:)``, never a partial walk presented
/// as complete. A process that runs while it is read (``init(_:changing:)`` with `changing`)
/// changes its heap under the reader: its arenas are looked for again when they do not verify,
/// and the walk reads again, steps over, or cuts short what changed, stating each in
/// ``HeapTotals/changes``. An allocation that stays alive throughout the walk is always met.
public struct GlibcHeap {
    /// The C library's path (the executable's, when glibc is linked statically).
    public let library: String
    /// The glibc release, as its banner states it (`2.36`).
    public let release: String
    /// Each arena's `struct malloc_state` address, the main arena first.
    public var arenaAddresses: [UInt64] { arenas.map(\.address) }

    let target: TargetMemory
    let layout: GlibcMallocLayout
    let arenas: [GlibcArenaState]
    let parameters: GlibcMallocParameters
    let regions: [TargetRegion]

    /// Whether the target runs while it is read (its walk then works around what changes).
    public let changing: Bool
    /// How many times the arenas were looked for before they verified (1: at once).
    let arenaReadings: Int
    /// How many times one arena was read again because its parts disagreed (a running heap grew).
    let arenasReread: Int

    /// How many times a running process's arenas are looked for, each time in fresh memory,
    /// before the last reason they did not verify is the error.
    static let arenaReadingsOfARunningProcess = 5

    /// Opens the heap of a target: a running process, or the process a core file holds.
    ///
    /// - Parameter changing: the target runs while it is read (a process not stopped): the
    ///   arenas are looked for again in fresh memory when they do not verify, and
    ///   ``forEachChunk(_:)`` works around what changes instead of failing. False for a core
    ///   file or a stopped process, whose heap does not change: what does not fit is an error.
    /// - Throws: ``BinaryInfoError/mallocStateNotFound(path:library:detail:)`` when its glibc's
    ///   arenas cannot be found and verified, ``BinaryInfoError/malformedHeap(path:what:address:detail:)``,
    ///   ``BinaryInfoError/unmapped(path:what:address:length:)`` when a core left out memory the
    ///   heap needs, and for a process ``BinaryInfoError/processExited(path:)`` or
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)``.
    public init(_ target: TargetMemory, changing: Bool = false) throws(BinaryInfoError) {
        self.target = target
        self.changing = changing
        var attempt = 1
        var symbols: GlibcStaticSymbols?
        while true {
            do throws(BinaryInfoError) {
                let found = try Self.find(in: target, changing: changing, symbols: &symbols)
                (regions, library, layout, arenas, parameters, arenasReread) = (
                    found.regions, found.library, found.layout, found.arenas, found.parameters, found.arenasReread
                )
                break
            } catch {
                switch error {
                case .malformedHeap, .mallocStateNotFound, .unmapped: break
                default: throw error
                }
                guard changing, attempt < Self.arenaReadingsOfARunningProcess else { throw error }
                attempt += 1
            }
        }
        arenaReadings = attempt
        release = "\(layout.major).\(layout.minor)"
    }

    /// Finds the C library, its arenas and `mp_`: by their symbols when the file names them
    /// (`symbols`, read once), verified as the shape search verifies what it finds, else by shape.
    private static func find(in target: TargetMemory, changing: Bool, symbols: inout GlibcStaticSymbols?) throws(BinaryInfoError) -> (
        regions: [TargetRegion], library: String, layout: GlibcMallocLayout, arenas: [GlibcArenaState], parameters: GlibcMallocParameters,
        arenasReread: Int
    ) {
        let regions = try target.regions()
        let library = try GlibcLibrary(in: target, regions: regions)
        let layout = library.layout
        let named = symbols ?? GlibcStaticSymbols(path: library.filePath, bias: library.bias)
        symbols = named
        let dataCount = Int(library.data.upperBound - library.data.lowerBound)
        let data = try target.bytes(at: library.data.lowerBound, count: dataCount, what: "the C library's .data")
        // A running process's maps are read again where its heap grew after they were read.
        let view = TargetRegionView(regions, reread: changing ? { () throws(BinaryInfoError) in try target.regions() } : nil)
        let locator = GlibcArenaLocator(target: target, view: view, layout: layout, library: library.path)
        var arenas: [GlibcArenaState]
        if let main = named.mainArena {
            do {
                arenas = try locator.arenas(startingAt: main)
            } catch {
                // The symbol's arena does not verify: the shape search may still find one; if not, this error says more.
                guard let found = try? locator.mainArena(in: data, at: library.data.lowerBound) else { throw error }
                arenas = found
            }
        } else {
            arenas = try locator.mainArena(in: data, at: library.data.lowerBound)
        }
        let sbrkBase = arenas[0].heaps[0].occupied.lowerBound
        let parameters = try GlibcMallocParameters.find(
            in: data, at: library.data.lowerBound, sbrkBase: sbrkBase, layout: layout, target: target, library: library.path,
            within: named.mainArena == arenas[0].address ? named.mallocParametersRange : nil)
        return (view.regions, library.path, layout, arenas, parameters, view.arenasReread)
    }

    /// The anonymous writable memory outside the heaps, where mmapped chunks live.
    var mmapRanges: [Range<UInt64>] {
        Self.mmapRanges(in: regions, outside: arenas.flatMap { $0.heaps.map(\.occupied) })
    }

    /// The parts of `regions` (writable, anonymous, not the stack) that no range of `heaps`
    /// covers. A heap may reach past its region's end: a running process's maps and arenas are
    /// read at different moments.
    static func mmapRanges(in regions: [TargetRegion], outside heaps: [Range<UInt64>]) -> [Range<UInt64>] {
        let occupied = heaps.sorted { $0.lowerBound < $1.lowerBound }
        var ranges: [Range<UInt64>] = []
        for region in regions where region.isWritable && region.filePath == nil && !region.isStack && region.start < region.end {
            var start = region.start
            for heap in occupied {
                guard start < region.end else { break }
                guard heap.overlaps(start..<region.end) else { continue }
                if heap.lowerBound > start { ranges.append(start..<heap.lowerBound) }
                start = max(start, heap.upperBound)
            }
            if start < region.end { ranges.append(start..<region.end) }
        }
        return ranges
    }
}
