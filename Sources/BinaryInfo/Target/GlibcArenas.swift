/// One glibc arena of a target (a `struct malloc_state`) and the heaps it allocates from.
struct GlibcArenaState: Sendable, Hashable {
    /// The `struct malloc_state`'s address.
    var address: UInt64
    var isMain: Bool
    /// The top chunk: the arena's unallocated end, never an allocation.
    var top: UInt64
    var topSize: UInt64
    /// `system_mem`: the bytes the arena took from the system (`sbrk` or its heaps).
    var systemMemory: UInt64
    /// `fastbinsY`: the first chunk of each fastbin (links are not protected in the arena).
    var fastbins: [UInt64]
    /// The arena's heaps, lowest first for the main heap, newest last for the others.
    var heaps: [GlibcHeapSegment]
}

/// A contiguous run of chunks: the main heap, or one `heap_info` region of another arena.
struct GlibcHeapSegment: Sendable, Hashable {
    /// The first chunk.
    var firstChunk: UInt64
    /// Where the walk ends: the arena's top chunk, or (a heap the arena has left for a newer one)
    /// the end of the heap's usable bytes, before which glibc wrote a zero-size fencepost.
    var end: UInt64
    var endsAtTop: Bool
    /// The memory the segment occupies in the target (the `heap_info` header and all of the
    /// heap's read-write bytes, or the `sbrk` area), which holds no mmapped chunk.
    var occupied: Range<UInt64>
}

/// Finds and verifies the arenas of a target's glibc allocator.
///
/// The main arena (`main_arena`, a static `struct malloc_state` in the C library's `.data`,
/// without a symbol) is found by its shape: each empty bin of an initialised arena points at
/// itself (`bin_at (m, i)`, 16 bytes before `bins[2 (i - 1)]`), a bin is either empty or has two
/// links elsewhere, `next` holds the arena itself or another arena (which tells it from the same
/// bytes read one bin off, whose bins have the same shape), `top` is an aligned chunk in
/// writable memory whose size ends the heap at exactly `system_mem` bytes past its start, and
/// the `next` chain of arenas returns to it. Each
/// other arena must sit right after the `heap_info` at the start of a `HEAP_MAX_SIZE`-aligned
/// heap whose `ar_ptr` names it, have the same bin shape, and its heaps (the `prev` chain from
/// the heap holding `top`) must add up to its `system_mem`. Exactly one candidate must pass;
/// anything else is ``BinaryInfoError/mallocStateNotFound(path:library:detail:)``.
struct GlibcArenaLocator {
    let target: TargetMemory
    /// The regions, read again where a running process's heap grew since (``TargetRegionView``).
    let view: TargetRegionView
    let layout: GlibcMallocLayout
    let library: String

    /// More arenas than any process has (glibc's limit is eight per core) and more heaps than a
    /// 47-bit address space holds: a longer chain is a loop.
    static let maximumArenas = 1 << 16
    static let maximumHeaps = 1 << 21

    func notFound(_ detail: String) -> BinaryInfoError {
        .mallocStateNotFound(path: target.path, library: library, detail: detail)
    }

    func malformed(_ what: String, _ address: UInt64, _ detail: String) -> BinaryInfoError {
        .malformedHeap(path: target.path, what: what, address: address, detail: detail)
    }

    /// The main arena in `data` (the C library's `.data` as the target holds it, at `dataAddress`).
    func mainArena(in data: [UInt8], at dataAddress: UInt64) throws(BinaryInfoError) -> [GlibcArenaState] {
        var found: [[GlibcArenaState]] = []
        var rejections: [BinaryInfoError] = []
        let size = Int(layout.arenaSize)
        guard data.count >= size else { throw notFound("its .data (\(data.count) bytes) is smaller than a struct malloc_state") }
        for offset in stride(from: 0, through: data.count - size, by: 8) {
            let candidate = dataAddress + UInt64(offset)
            let hasShape = data.withUnsafeBytes { bytes in
                binsHaveShape(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]), at: candidate)
                    && nextIsAnArena(bytes.loadUnaligned(fromByteOffset: offset + Int(layout.nextOffset), as: UInt64.self), of: candidate)
            }
            guard hasShape else { continue }
            do {
                found.append(try arenas(startingAt: candidate))
            } catch {
                rejections.append(error)
            }
        }
        guard found.count == 1, let arenas = found.first else {
            if found.isEmpty {
                // One place with an arena's bins whose heap does not verify: that arena's heap is the problem.
                if rejections.count == 1, let only = rejections.first { throw only }
                let reasons = rejections.map(\.problem).joined(separator: "; ")
                throw notFound(
                    rejections.isEmpty
                        ? "no struct malloc_state in its .data has empty bins pointing to themselves (has the program called malloc yet?)"
                        : "\(rejections.count) places in its .data have an arena's bins, none a heap that verifies: \(reasons)")
            }
            throw notFound(
                "\(found.count) places in its .data look like the main arena (\(found.map { "0x\(String($0[0].address, radix: 16))" }.joined(separator: ", ")))"
            )
        }
        return arenas
    }

    /// Whether `next`, read as the `next` field of a main arena at `main`, can be one: the main
    /// arena itself (the only arena) or another arena, which follows its heap's `heap_info` at
    /// the start of a `HEAP_MAX_SIZE`-aligned heap.
    ///
    /// The bins alone do not tell the main arena from the same bytes read 16 bytes off: each bin
    /// is 16 bytes, so shifted by one bin the empty bins still point to themselves. Shifted that
    /// way, `next` falls on `attached_threads` (a count) or on `binmap` (bits), neither an arena.
    func nextIsAnArena(_ next: UInt64, of main: UInt64) -> Bool {
        next == main || next & (GlibcMallocLayout.heapMaximumSize - 1) == layout.heapInfoSize
    }

    /// Whether the bins of a `struct malloc_state` held in `bytes` (at `address`) have the shape
    /// of an initialised arena: each bin empty (both links to itself) or with two other links,
    /// and at least one empty.
    func binsHaveShape(_ bytes: UnsafeRawBufferPointer, at address: UInt64) -> Bool {
        var empty = 0
        for bin in 1..<GlibcMallocLayout.binCount {
            let offset = Int(layout.binsOffset) + (bin - 1) * 16
            let forward = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let backward = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            let own = address &+ UInt64(offset) &- 16
            if forward == own && backward == own {
                empty += 1
            } else if forward == own || backward == own || forward == 0 || backward == 0 || forward & 15 != 0 || backward & 15 != 0 {
                return false
            }
        }
        return empty > 0
    }

    /// The main arena at `main` and every arena its `next` chain reaches, verified.
    func arenas(startingAt main: UInt64) throws(BinaryInfoError) -> [GlibcArenaState] {
        var arenas = [try whileChangingReadAgain { () throws(BinaryInfoError) in try mainArenaState(at: main) }]
        var visited: Set<UInt64> = [main]
        var next = try target.read(UInt64.self, at: main + layout.nextOffset, what: "malloc_state.next")
        while next != main {
            guard visited.insert(next).inserted, visited.count <= Self.maximumArenas else {
                throw malformed("the arena list", main, "it loops without returning to the main arena")
            }
            let arena = next
            arenas.append(try whileChangingReadAgain { () throws(BinaryInfoError) in try arenaState(at: arena) })
            next = try target.read(UInt64.self, at: next + layout.nextOffset, what: "malloc_state.next")
        }
        return arenas
    }

    /// How many times one arena of a running process is read before what does not fit is the
    /// error: its `malloc_state`, its `heap_info`s and the maps are read at different moments,
    /// and a heap that grows between them (each `grow_heap` moves `top` and `heap_info.size`)
    /// reads as parts that disagree. A fresh reading of the one arena is short enough to fall
    /// between two growths.
    static let readingsOfAChangingArena = 16

    /// `read()`, read again while it finds the heap malformed and the target runs.
    private func whileChangingReadAgain<Value>(_ read: () throws(BinaryInfoError) -> Value) throws(BinaryInfoError) -> Value {
        var attempt = 1
        while true {
            do {
                return try read()
            } catch {
                guard view.isChanging, case .malformedHeap = error, attempt < Self.readingsOfAChangingArena else { throw error }
                attempt += 1
                view.arenasReread += 1
            }
        }
    }

    private struct ArenaFields {
        var top: UInt64
        var topSize: UInt64
        var systemMemory: UInt64
        var fastbins: [UInt64]
        var flags: UInt32
    }

    private func fields(of arena: UInt64) throws(BinaryInfoError) -> ArenaFields {
        let bytes = try target.bytes(at: arena, count: Int(layout.arenaSize), what: "struct malloc_state")
        let hasShape = bytes.withUnsafeBytes { binsHaveShape($0, at: arena) }
        guard hasShape else { throw malformed("the arena", arena, "its bins are not a malloc_state's") }
        func word(_ offset: UInt64) -> UInt64 { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Int(offset), as: UInt64.self) } }
        let top = word(layout.topOffset)
        guard top != 0, top % GlibcMallocLayout.alignment == 0, try view.check({ $0.region(containing: top)?.isWritable == true }) else {
            throw malformed("the arena", arena, "its top chunk 0x\(String(top, radix: 16)) is not an aligned chunk in writable memory")
        }
        let topSize = try target.read(UInt64.self, at: top + 8, what: "the top chunk's size") & ~GlibcMallocLayout.flagBits
        let (topEnd, overflow) = top.addingReportingOverflow(topSize)
        guard !overflow, topSize % GlibcMallocLayout.alignment == 0,
            try view.check({ $0.contiguousEnd(from: top).map { topEnd <= $0 } == true })
        else {
            throw malformed("the top chunk", top, "its size 0x\(String(topSize, radix: 16)) runs past its memory")
        }
        let fastbins = (0..<GlibcMallocLayout.fastbinCount).map { word(layout.fastbinsOffset + UInt64($0) * 8) }
        return ArenaFields(
            top: top, topSize: topSize, systemMemory: word(layout.systemMemoryOffset), fastbins: fastbins,
            flags: UInt32(truncatingIfNeeded: word(4)))
    }

    /// The main arena: one `sbrk` heap that ends where `top` ends and starts `system_mem` bytes before.
    private func mainArenaState(at address: UInt64) throws(BinaryInfoError) -> GlibcArenaState {
        let fields = try fields(of: address)
        // NONCONTIGUOUS_BIT: sbrk failed once and the arena went on in mmapped memory.
        guard fields.flags & 2 == 0 else {
            throw notFound(
                "the main arena at 0x\(String(address, radix: 16)) is not contiguous (sbrk failed), which this reader does not walk")
        }
        let end = fields.top + fields.topSize
        let (start, overflow) = end.subtractingReportingOverflow(fields.systemMemory)
        guard !overflow, start <= fields.top, try view.check({ $0.contiguousStart(to: fields.top).map { start >= $0 } == true }) else {
            throw malformed(
                "the main arena", address,
                "its system_mem 0x\(String(fields.systemMemory, radix: 16)) does not fit the memory before its top chunk 0x\(String(fields.top, radix: 16))"
            )
        }
        let first = (start + GlibcMallocLayout.alignment - 1) & ~(GlibcMallocLayout.alignment - 1)
        let heap = GlibcHeapSegment(firstChunk: first, end: fields.top, endsAtTop: true, occupied: start..<end)
        return GlibcArenaState(
            address: address, isMain: true, top: fields.top, topSize: fields.topSize, systemMemory: fields.systemMemory,
            fastbins: fields.fastbins, heaps: [heap])
    }

    /// Another arena: right after the `heap_info` of its first heap; its heaps from the `prev` chain.
    private func arenaState(at address: UInt64) throws(BinaryInfoError) -> GlibcArenaState {
        let heapMask = GlibcMallocLayout.heapMaximumSize - 1
        guard address & heapMask == layout.heapInfoSize else {
            throw malformed("the arena list", address, "an arena that does not follow the heap_info at the start of its heap")
        }
        let fields = try fields(of: address)
        var heaps: [GlibcHeapSegment] = []
        var heap = fields.top & ~heapMask
        var visited: Set<UInt64> = []
        var total: UInt64 = 0
        while true {
            guard visited.insert(heap).inserted, visited.count <= Self.maximumHeaps else {
                throw malformed("the heap list", heap, "its prev chain loops")
            }
            let info = try target.bytes(at: heap, count: 32, what: "heap_info")
            func word(_ index: Int) -> UInt64 { info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) } }
            let (owner, previous, size, protected) = (word(0), word(1), word(2), word(3))
            guard owner == address else {
                throw malformed(
                    "heap_info", heap, "its ar_ptr 0x\(String(owner, radix: 16)) is not its arena 0x\(String(address, radix: 16))")
            }
            guard size <= GlibcMallocLayout.heapMaximumSize, protected >= size, protected <= GlibcMallocLayout.heapMaximumSize,
                try view.check({ $0.contiguousEnd(from: heap).map { heap + size <= $0 } == true })
            else {
                throw malformed("heap_info", heap, "its size 0x\(String(size, radix: 16)) does not fit its readable memory")
            }
            let isFirst = previous == 0
            var first = heap + layout.heapInfoSize
            if isFirst {
                first = address + layout.arenaSize
                first += (GlibcMallocLayout.alignment - (first + 16) % GlibcMallocLayout.alignment) % GlibcMallocLayout.alignment
            }
            let holdsTop = heaps.isEmpty
            guard first + 16 <= heap + size else {
                throw malformed("heap_info", heap, "its size 0x\(String(size, radix: 16)) leaves no room for chunks")
            }
            if holdsTop {
                guard fields.top >= first, fields.top + fields.topSize == heap + size else {
                    throw malformed("the top chunk", fields.top, "it does not end its heap at 0x\(String(heap + size, radix: 16))")
                }
            }
            heaps.append(
                GlibcHeapSegment(
                    firstChunk: first, end: holdsTop ? fields.top : heap + size, endsAtTop: holdsTop,
                    occupied: heap..<(heap + max(size, protected))))
            total += size
            if isFirst {
                guard heap + layout.heapInfoSize == address else {
                    throw malformed("heap_info", heap, "the arena's first heap does not hold the arena")
                }
                break
            }
            guard previous & heapMask == 0 else {
                throw malformed("heap_info", heap, "its prev 0x\(String(previous, radix: 16)) is not a heap")
            }
            heap = previous
        }
        guard total == fields.systemMemory else {
            throw malformed(
                "the arena", address,
                "its heaps hold 0x\(String(total, radix: 16)) bytes, its system_mem says 0x\(String(fields.systemMemory, radix: 16))"
            )
        }
        return GlibcArenaState(
            address: address, isMain: false, top: fields.top, topSize: fields.topSize, systemMemory: fields.systemMemory,
            fastbins: fields.fastbins, heaps: heaps.reversed())
    }
}
