import Algorithms
import TypeLayout

/// What differs between walking a stable heap and one that changes while it is read: a stable
/// heap's walk fails on what does not fit glibc's invariants; a changing heap's reads again,
/// steps over or cuts short (``TargetWindow/walkWhileChanging(_:arena:changes:visit:)``), and
/// records each in ``changes``. ``GlibcHeap/forEachChunk(findingTcachesFirst:checkingEveryPage:_:)``
/// is the one walk both take.
struct GlibcChangingWalk {
    let heap: GlibcHeap
    let window: TargetWindow
    /// How each arena's walk learns its current top (a changing heap's only).
    private let changingArenas: [GlibcChangingArena]
    /// What changed under the walk (a changing heap's only).
    var changes: HeapReadChanges

    init(heap: GlibcHeap) {
        self.heap = heap
        window = TargetWindow(target: heap.target)
        changingArenas =
            heap.changing
            ? heap.arenas.map { arena in GlibcChangingArena(isMain: arena.isMain) { heap.currentTop(of: arena.address) } } : []
        changes = HeapReadChanges(arenaReadings: heap.arenaReadings, windowsReread: heap.arenasReread)
    }

    /// Walks one heap segment of arena `arena` (``TargetWindow/walk(_:visit:)`` or, changing,
    /// ``TargetWindow/walkWhileChanging(_:arena:changes:visit:)``).
    mutating func walk(
        _ segment: GlibcHeapSegment, arena: Int, visit: (GlibcChunkRecord) throws(BinaryInfoError) -> Void
    ) throws(BinaryInfoError) {
        // A walk reads its heap from start to end: the next window is read while this one is walked.
        window.readsAhead = true
        defer {
            window.readsAhead = false
            window.dropReadAhead()
        }
        if heap.changing {
            _ = try window.walkWhileChanging(segment, arena: changingArenas[arena], changes: &changes, visit: visit)
        } else {
            _ = try window.walk(segment, visit: visit)
        }
    }

    /// The mmapped chunks and their mappings' bytes. A stable heap's must be what `mp_` counts
    /// (the mappings' starts first, every page when they do not hold it); a changing heap's `mp_`
    /// counts at another moment than the mappings are read, so a difference is noted, and the
    /// longer search at every page is made once.
    mutating func mmappedChunks(everyPage: Bool) throws(BinaryInfoError) -> (chunks: [GlibcMmappedChunk], bytes: UInt64) {
        let ranges = heap.mmapRanges
        let parameters = heap.parameters
        func bytes(_ chunks: [GlibcMmappedChunk]) -> UInt64 { chunks.reduce(0) { $0 + $1.offset + $1.size } }
        if heap.changing {
            let counted = heap.currentMappedChunkCount() ?? parameters.mmappedChunks
            var mmapped = window.mmappedChunksWhileChanging(in: ranges, everyPage: everyPage)
            if UInt64(mmapped.count) != counted, !everyPage { mmapped = window.mmappedChunksWhileChanging(in: ranges, everyPage: true) }
            changes.mmappedChunksFound = mmapped.count
            changes.mmappedChunksCounted = Int(counted)
            return (mmapped, bytes(mmapped))
        }
        var mmapped = try window.mmappedChunks(in: ranges, everyPage: everyPage)
        if UInt64(mmapped.count) != parameters.mmappedChunks || bytes(mmapped) != parameters.mmappedBytes {
            mmapped = try window.mmappedChunks(in: ranges, everyPage: true)
        }
        guard UInt64(mmapped.count) == parameters.mmappedChunks, bytes(mmapped) == parameters.mmappedBytes else {
            throw BinaryInfoError.malformedHeap(
                path: heap.target.path, what: "mp_", address: parameters.sbrkBaseField,
                detail:
                    "it counts \(parameters.mmappedChunks) mmapped chunks of \(parameters.mmappedBytes) bytes, the target's anonymous memory holds \(mmapped.count) of \(bytes(mmapped))"
            )
        }
        return (mmapped, bytes(mmapped))
    }
}

extension GlibcHeap {
    /// `step`'s result; for a changing heap, nil instead of a malformed heap or an unreadable
    /// place (what changed under the reading), while the process's exit or a refusal still throws.
    @discardableResult
    func tolerating<T>(_ step: () throws(BinaryInfoError) -> T) throws(BinaryInfoError) -> T? {
        guard changing else { return try step() }
        do throws(BinaryInfoError) {
            return try step()
        } catch {
            switch error {
            case .processExited, .processAccessDenied, .noSuchProcess: throw error
            default: return nil
            }
        }
    }

    /// The arena's top chunk and its size as the target holds them now.
    func currentTop(of arena: UInt64) -> (address: UInt64, size: UInt64)? {
        guard let top = try? target.read(UInt64.self, at: arena + layout.topOffset, what: "malloc_state.top"),
            let size = try? target.read(UInt64.self, at: top + 8, what: "the top chunk's size")
        else { return nil }
        return (top, size & ~GlibcMallocLayout.flagBits)
    }

    /// `mp_.n_mmaps` as the target holds it now.
    func currentMappedChunkCount() -> UInt64? {
        let offset = Int64(layout.mmapCountsOffsetFromSbrkBase)
        let address = UInt64(bitPattern: Int64(bitPattern: parameters.sbrkBaseField) &+ offset)
        guard let count = try? target.read(Int32.self, at: address, what: "mp_.n_mmaps"), count >= 0 else { return nil }
        return UInt64(count)
    }
}

extension TargetWindow {
    /// ``mmappedChunks(in:everyPage:pageSize:)`` over memory that may be unmapped meanwhile: a
    /// range that can no longer be read is left out (its chunks were freed).
    func mmappedChunksWhileChanging(in ranges: [Range<UInt64>], everyPage: Bool) -> [GlibcMmappedChunk] {
        var chunks: [GlibcMmappedChunk] = []
        for range in ranges {
            invalidate()
            if let found = try? mmappedChunks(in: [range], everyPage: everyPage) { chunks += found }
        }
        return chunks
    }
}
