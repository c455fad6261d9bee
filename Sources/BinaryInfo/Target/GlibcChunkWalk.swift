/// Reads a target's memory through one reused window of a few MiB, so that a walk over a heap
/// of any size makes one read per window, not one per chunk, and holds no more than the window.
final class TargetWindow {
    static let defaultSize = 4 << 20
    let target: TargetMemory
    /// The window's bytes (swapped with the read-ahead's buffer when that holds the next window).
    var buffer: UnsafeMutableRawBufferPointer
    var start: UInt64 = 0
    var count = 0
    /// Called before each fresh read of a changing heap (``wordIfReadable(at:limit:)``) with its
    /// address: tests change the memory there, as a running process does between two reads.
    var beforeReading: ((UInt64) -> Void)?
    /// Whether each window read starts the read of the one after it on another thread
    /// (``WindowReadAhead``): on while a heap is walked from start to end, never with
    /// ``beforeReading`` (whose reads must happen in the order the walk makes them).
    var readsAhead = false
    var readAhead: WindowReadAhead?
    var readAheadFailed = false
    /// The limit the window read ahead was read to.
    var aheadLimit: UInt64 = 0
    /// How many windows the walk took from the read-ahead (tests check that it reads ahead).
    var windowsTakenAhead = 0

    init(target: TargetMemory, size: Int = TargetWindow.defaultSize) {
        self.target = target
        buffer = .allocate(byteCount: max(size, 64), alignment: 16)
    }

    deinit {
        readAhead?.stop()
        buffer.deallocate()
    }

    /// The little-endian word at `address`, reading a new window from there (up to `limit`)
    /// when the current one does not hold it.
    func word(at address: UInt64, limit: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> UInt64 {
        if count < 8 || address < start || address - start > UInt64(count - 8) {
            guard address < limit, limit - address >= 8 else {
                throw BinaryInfoError.malformedHeap(
                    path: target.path, what: what(), address: address, detail: "it lies past the end of its memory")
            }
            if !takeReadAhead(at: address, limit: limit) {
                let length = Int(min(UInt64(buffer.count), limit - address))
                try target.fetch(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]), from: address, what: what())
                target.releasePages(address: address, count: length)
                start = address
                count = length
                readAheadAfterWindow(limit: limit)
            }
        }
        return buffer.loadUnaligned(fromByteOffset: Int(address - start), as: UInt64.self)
    }
}

/// One chunk a heap walk found, with what its header and its next chunk's header say.
struct GlibcChunkRecord {
    /// The chunk header's address (the user's pointer is 16 bytes further).
    var address: UInt64
    /// The chunk's size without the flag bits.
    var size: UInt64
    /// The flag bits of its own size field (`PREV_INUSE`, `IS_MMAPPED`, `NON_MAIN_ARENA`).
    var flags: UInt64
    /// Whether the next chunk's `PREV_INUSE` says this one is in use (free chunks on a fastbin
    /// or tcache list keep it set, too).
    var markedInUse: Bool
    /// The first two words of the chunk's user bytes.
    var firstWord: UInt64
    var secondWord: UInt64
}

extension TargetWindow {
    /// Walks `segment` chunk by chunk from its first chunk to exactly its end: the top chunk, or
    /// the zero-size fencepost glibc writes at the end of a heap its arena grew out of (the chunk
    /// before that fencepost is glibc's, never an allocation, and is not visited).
    ///
    /// - Throws: ``BinaryInfoError/malformedHeap(path:what:address:detail:)`` naming the chunk
    ///   whose size is not a chunk size, or that runs past the end.
    func walk(
        _ segment: GlibcHeapSegment, visit: (GlibcChunkRecord) throws(BinaryInfoError) -> Void
    ) throws(BinaryInfoError) -> Int {
        let alignment = GlibcMallocLayout.alignment
        // The last header read: the top chunk's, or the fencepost's, 16 bytes before the heap's end.
        let limit = segment.end + (segment.endsAtTop ? 16 : 0)
        guard segment.firstChunk <= segment.end else {
            throw BinaryInfoError.malformedHeap(
                path: target.path, what: "the heap", address: segment.occupied.lowerBound, detail: "its first chunk lies past its end")
        }
        let maximumChunks = (segment.end - segment.firstChunk) / 16 + 1
        var cursor = segment.firstChunk
        var pending: GlibcChunkRecord?
        var visited = 0
        func malformed(_ address: UInt64, _ detail: String) -> BinaryInfoError {
            .malformedHeap(path: target.path, what: "the chunk", address: address, detail: detail)
        }
        // The stable walk has its own bound (below); the window's step needs none.
        var unbounded = UnboundedWindowBudget()
        while true {
            try walkInWindow(segment, arena: nil, cursor: &cursor, pending: &pending, visited: &visited, budget: &unbounded, visit: visit)
            let sizeField = try word(at: cursor + 8, limit: limit, what: "a chunk header")
            let size = sizeField & ~GlibcMallocLayout.flagBits
            if segment.endsAtTop, cursor == segment.end {
                if var last = pending {
                    last.markedInUse = sizeField & GlibcMallocLayout.previousInUse != 0
                    try visit(last)
                }
                return visited
            }
            if !segment.endsAtTop, size == 0 {
                // glibc's end-of-heap fencepost: the chunk before it (a 16-byte fencepost, or a
                // remnant of the old top too small to free) is not an allocation.
                guard pending != nil, segment.end - cursor >= 16 else {
                    throw malformed(cursor, "a zero size where the heap at 0x\(String(segment.occupied.lowerBound, radix: 16)) has chunks")
                }
                return visited
            }
            if var previous = pending {
                guard previous.size >= GlibcMallocLayout.minimumChunkSize else {
                    throw malformed(previous.address, "a 16-byte chunk that is not the fencepost at the end of its heap")
                }
                previous.markedInUse = sizeField & GlibcMallocLayout.previousInUse != 0
                try visit(previous)
                visited += 1
            }
            let (next, overflow) = cursor.addingReportingOverflow(size)
            guard !overflow, size % alignment == 0, size >= (segment.endsAtTop ? GlibcMallocLayout.minimumChunkSize : 16),
                sizeField & GlibcMallocLayout.isMmapped == 0
            else {
                throw malformed(cursor, "its size field 0x\(String(sizeField, radix: 16)) is not a heap chunk's")
            }
            guard next <= segment.end, segment.endsAtTop || segment.end - next >= 16 else {
                let end = segment.endsAtTop ? "the top chunk at 0x\(String(segment.end, radix: 16))" : "the end of its heap"
                throw malformed(cursor, "its size 0x\(String(size, radix: 16)) runs past \(end)")
            }
            var record = GlibcChunkRecord(
                address: cursor, size: size, flags: sizeField & GlibcMallocLayout.flagBits, markedInUse: false, firstWord: 0, secondWord: 0)
            if size >= GlibcMallocLayout.minimumChunkSize {
                record.firstWord = try word(at: cursor + 16, limit: limit, what: "a chunk's user bytes")
                record.secondWord = try word(at: cursor + 24, limit: limit, what: "a chunk's user bytes")
            }
            pending = record
            cursor = next
            guard UInt64(visited) < maximumChunks else { throw malformed(cursor, "the heap has more chunks than bytes for them") }
        }
    }
}

extension TargetWindow {
    /// Walks on from `cursor` while the window holds each chunk's header and first two words and
    /// the chunk is one the walk would take, reading straight from the window's bytes: what
    /// every chunk of a heap at rest takes. It stops at the first chunk that needs more (a fresh
    /// window, the segment's end, a size that does not fit, the `budget` spent), leaving `cursor`
    /// and `pending` for the general step of ``walk(_:visit:)`` or
    /// ``walkWhileChanging(_:arena:changes:visit:)`` to go on from and, when the chunk does not
    /// fit, to throw the same error (or read again) from the same bytes.
    ///
    /// - Parameter arena: for a changing heap, what the chunk before must show too:
    ///   `NON_MAIN_ARENA` as the arena's when it is in use (`nonMainArena` of a main arena, 0;
    ///   of another, the flag), else its size as this chunk's `prev_size`. nil for a stable heap,
    ///   whose walk checks the arena of what it visits.
    @inline(__always)
    func walkInWindow<Budget: WindowWalkBudget>(
        _ segment: GlibcHeapSegment, arena previousFlag: UInt64?, cursor: inout UInt64, pending: inout GlibcChunkRecord?,
        visited: inout Int, budget: inout Budget, visit: (GlibcChunkRecord) throws(BinaryInfoError) -> Void
    ) throws(BinaryInfoError) {
        guard count >= 32, cursor >= start, let base = UnsafeRawPointer(buffer.baseAddress) else { return }
        let windowStart = start
        // The window never reaches past the walk's limit, so neither does anything read here.
        let windowEnd = start + UInt64(count)
        let end = segment.end
        let endsAtTop = segment.endsAtTop
        let smallest = endsAtTop ? GlibcMallocLayout.minimumChunkSize : 16
        while budget.remains, cursor < end, cursor < windowEnd, windowEnd - cursor >= 32 {
            let offset = Int(cursor - windowStart)
            let sizeField = base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
            let size = sizeField & ~GlibcMallocLayout.flagBits
            let (next, overflow) = cursor.addingReportingOverflow(size)
            guard !overflow, size & (GlibcMallocLayout.alignment - 1) == 0, size >= smallest, sizeField & GlibcMallocLayout.isMmapped == 0,
                next <= end, endsAtTop || end - next >= 16
            else { return }
            let previousInUse = sizeField & GlibcMallocLayout.previousInUse != 0
            if var previous = pending {
                guard previous.size >= GlibcMallocLayout.minimumChunkSize else { return }
                if let previousFlag {
                    if previousInUse {
                        guard previous.flags & GlibcMallocLayout.nonMainArena == previousFlag else { return }
                    } else {
                        guard base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == previous.size else { return }
                    }
                }
                previous.markedInUse = previousInUse
                try visit(previous)
                visited += 1
            }
            budget.spend()
            var record = GlibcChunkRecord(
                address: cursor, size: size, flags: sizeField & GlibcMallocLayout.flagBits, markedInUse: false, firstWord: 0, secondWord: 0)
            if size >= GlibcMallocLayout.minimumChunkSize {
                record.firstWord = base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
                record.secondWord = base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
            }
            pending = record
            cursor = next
        }
    }
}

/// How many more chunks ``TargetWindow/walkInWindow(_:arena:cursor:pending:visited:budget:visit:)``
/// may take: the changing walk's count (a `UInt64`), or none for the stable walk, whose step then
/// compiles with no count at all.
protocol WindowWalkBudget {
    var remains: Bool { get }
    mutating func spend()
}

/// The stable walk's: it has a bound of its own.
struct UnboundedWindowBudget: WindowWalkBudget {
    var remains: Bool { true }
    func spend() {}
}

extension UInt64: WindowWalkBudget {
    var remains: Bool { self > 0 }
    mutating func spend() { self -= 1 }
}
