import TypeLayout

extension TargetWindow {
    /// Forgets the window, so that the next word is read fresh from the target.
    func invalidate() {
        count = 0
        dropReadAhead()
    }

    /// The word at `address` (below `limit`), or nil when the target no longer maps it (memory a
    /// running process returned to the system). A window that reaches into unmapped memory is
    /// read again shorter, down to the word itself.
    func wordIfReadable(at address: UInt64, limit: UInt64) -> UInt64? {
        if count >= 8, address >= start, address - start <= UInt64(count - 8) {
            return buffer.loadUnaligned(fromByteOffset: Int(address - start), as: UInt64.self)
        }
        guard address < limit, limit - address >= 8 else { return nil }
        if beforeReading == nil, takeReadAhead(at: address, limit: limit) {
            return buffer.loadUnaligned(fromByteOffset: Int(address - start), as: UInt64.self)
        }
        var length = Int(min(UInt64(buffer.count), limit - address))
        beforeReading?(address)
        while length >= 8 {
            do {
                try target.fetch(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]), from: address, what: "heap memory")
                target.releasePages(address: address, count: length)
                start = address
                count = length
                if beforeReading == nil { readAheadAfterWindow(limit: limit) }
                return buffer.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            } catch {
                count = 0
                // Up to the next page boundary first, then only the word.
                let toPage = Int(4096 - address % 4096)
                length = length > toPage ? toPage : (length > 8 ? 8 : 0)
            }
        }
        return nil
    }
}

/// How a walk of a running process's heap segment learns where its arena's top chunk is now.
struct GlibcChangingArena {
    /// Whether the arena is the main one (its chunks in use have `NON_MAIN_ARENA` clear).
    var isMain: Bool
    /// The arena's top chunk and its size as the target holds them now, nil when unreadable.
    var currentTop: () -> (address: UInt64, size: UInt64)?
}

extension TargetWindow {
    /// Readings of one place before the walk steps over it.
    static let readingsBeforeSkipping = 4
    /// Chunks that must follow one another, each fitting, for the walk to go on from a place
    /// after stepping over memory that did not fit (fewer when the segment's end comes first).
    static let chunksToResynchronise = 4

    /// Walks `segment` of a running process as ``walk(_:visit:)`` does a stable one, but never
    /// fails on what a running allocator changes under it:
    ///
    /// - A chunk that does not fit (a size that is not a chunk size, `IS_MMAPPED` in a heap, a
    ///   size past the end, an in-use chunk of the wrong arena) is read again fresh from the last
    ///   chunk boundary, a few times. A live chunk's header does not change while it lives, so a
    ///   chunk that stayed alive is met again where it is.
    /// - A place that keeps not fitting is stepped over to the next place where a chain of
    ///   chunks verifies (sizes, flags, and `prev_size` where a chunk says the one before is
    ///   free), and the run stepped over is recorded in `changes`.
    /// - A chunk that runs past the end read when the heap was opened ends the walk when the
    ///   arena's current top chunk starts there or covers it (frees merged into the top, or the
    ///   heap grew past it); memory that is no longer mapped ends the walk too. Both are noted.
    ///
    /// Chunks are visited in increasing address order, each at most once.
    func walkWhileChanging(
        _ segment: GlibcHeapSegment, arena: GlibcChangingArena, changes: inout HeapReadChanges,
        visit: (GlibcChunkRecord) throws(BinaryInfoError) -> Void
    ) throws(BinaryInfoError) -> Int {
        let limit = segment.end + (segment.endsAtTop ? 16 : 0)
        guard segment.firstChunk <= segment.end else { return 0 }
        var cursor = segment.firstChunk
        var pending: GlibcChunkRecord?
        var visited = 0
        var failingAt: UInt64 = .max
        var readings = 0
        // Each chunk is passed at most a few times (a reading again goes back one chunk).
        var budget = ((segment.end - segment.firstChunk) / 16 + 1) * 4 + 64
        while budget > 0 {
            try walkInWindow(
                segment, arena: arena.isMain ? 0 : GlibcMallocLayout.nonMainArena, cursor: &cursor, pending: &pending, visited: &visited,
                budget: &budget, visit: visit)
            guard budget > 0 else { break }
            budget -= 1
            guard let sizeField = wordIfReadable(at: cursor + 8, limit: limit) else {
                // The memory was returned to the system since the heap was opened.
                changes.heapsEndedEarly += 1
                return visited
            }
            let previousInUse = sizeField & GlibcMallocLayout.previousInUse != 0
            if segment.endsAtTop, cursor == segment.end {
                if var last = pending {
                    last.markedInUse = previousInUse
                    try visit(last)
                    visited += 1
                }
                return visited
            }
            let size = sizeField & ~GlibcMallocLayout.flagBits
            if !segment.endsAtTop, size == 0, pending != nil, segment.end - cursor >= 16 { return visited }
            let verdict = fits(
                at: cursor, sizeField: sizeField, after: pending, segment: segment, isMain: arena.isMain, limit: limit)
            if verdict == .fits {
                if var previous = pending {
                    previous.markedInUse = previousInUse
                    try visit(previous)
                    visited += 1
                }
                var record = GlibcChunkRecord(
                    address: cursor, size: size, flags: sizeField & GlibcMallocLayout.flagBits, markedInUse: false, firstWord: 0,
                    secondWord: 0)
                if size >= GlibcMallocLayout.minimumChunkSize {
                    guard let first = wordIfReadable(at: cursor + 16, limit: limit),
                        let second = wordIfReadable(at: cursor + 24, limit: limit)
                    else {
                        changes.heapsEndedEarly += 1
                        return visited
                    }
                    (record.firstWord, record.secondWord) = (first, second)
                }
                pending = record
                cursor += size
                continue
            }
            // The arena's top moved down to here or below (frees merged into it), or the heap
            // grew past this chunk: what follows is not a chunk the walk can still meet.
            if let top = arena.currentTop(),
                ended(at: cursor, size: size, top: top, runsPast: verdict == .runsPastEnd, segment: segment)
            {
                // Unless the walk is inside the top chunk now (the chunk before merged into it),
                // the header here still says whether the chunk before is in use.
                let insideTop = top.address < cursor && cursor - top.address < top.size
                if !insideTop, var previous = pending {
                    previous.markedInUse = previousInUse
                    try visit(previous)
                    visited += 1
                }
                changes.heapsEndedEarly += 1
                return visited
            }
            if failingAt != cursor { (failingAt, readings) = (cursor, 0) }
            readings += 1
            invalidate()
            if readings < Self.readingsBeforeSkipping {
                // Read again from the last boundary: the chunk before may have changed too.
                changes.windowsReread += 1
                if let previous = pending {
                    cursor = previous.address
                    pending = nil
                }
                continue
            }
            // Still not fitting: the chunk before (never visited) does not lead to a chunk, so it
            // is not one that stayed alive. Go on from the next verified chain.
            pending = nil
            let resumed = resynchronise(after: cursor, segment: segment, isMain: arena.isMain, limit: limit)
            changes.skip(.init(address: cursor, bytes: (resumed ?? segment.end) - cursor))
            guard let resumed else { return visited }
            cursor = resumed
            (failingAt, readings) = (.max, 0)
        }
        return visited
    }

    enum ChunkVerdict { case fits, malformed, runsPastEnd }

    /// Whether the chunk at `cursor` with `sizeField` fits `segment` after `previous`.
    private func fits(
        at cursor: UInt64, sizeField: UInt64, after previous: GlibcChunkRecord?, segment: GlibcHeapSegment, isMain: Bool,
        limit: UInt64
    ) -> ChunkVerdict {
        let size = sizeField & ~GlibcMallocLayout.flagBits
        let (next, overflow) = cursor.addingReportingOverflow(size)
        // A heap the arena left ends in a 16-byte chunk before a zero-size fencepost (the walk
        // stops at the fencepost); any other chunk has at least MINSIZE bytes.
        guard !overflow, size % GlibcMallocLayout.alignment == 0, size >= (segment.endsAtTop ? GlibcMallocLayout.minimumChunkSize : 16),
            sizeField & GlibcMallocLayout.isMmapped == 0
        else { return .malformed }
        if let previous {
            guard previous.size >= GlibcMallocLayout.minimumChunkSize else { return .malformed }
            // An in-use chunk carries its arena's NON_MAIN_ARENA bit; a free one's successor,
            // unless on a fastbin or tcache, records its size as prev_size.
            if sizeField & GlibcMallocLayout.previousInUse != 0 {
                guard (previous.flags & GlibcMallocLayout.nonMainArena != 0) == !isMain else { return .malformed }
            } else {
                guard wordIfReadable(at: cursor, limit: limit) == previous.size else { return .malformed }
            }
        }
        guard next <= segment.end, segment.endsAtTop || segment.end - next >= 16 else { return .runsPastEnd }
        return .fits
    }

    /// Whether the walk at `cursor` has met the arena's current top (or gone past it: the top
    /// shrank, returning the memory after it), or a chunk the heap's growth made reach past the
    /// end read at the start.
    private func ended(
        at cursor: UInt64, size: UInt64, top: (address: UInt64, size: UInt64), runsPast: Bool, segment: GlibcHeapSegment
    ) -> Bool {
        if top.address == cursor { return true }
        if top.address < cursor, segment.occupied.contains(top.address) || cursor - top.address < top.size { return true }
        return runsPast && top.address > cursor && top.address - cursor >= size
    }

    /// The first place after `start` (16-byte aligned, before the segment's end) where
    /// ``chunksToResynchronise`` chunks follow one another, each fitting, or fewer up to exactly
    /// the end; nil when there is none.
    private func resynchronise(after start: UInt64, segment: GlibcHeapSegment, isMain: Bool, limit: UInt64) -> UInt64? {
        var candidate = start + GlibcMallocLayout.alignment
        while candidate < segment.end {
            if chainVerifies(from: candidate, segment: segment, isMain: isMain, limit: limit) { return candidate }
            candidate += GlibcMallocLayout.alignment
        }
        return nil
    }

    private func chainVerifies(from start: UInt64, segment: GlibcHeapSegment, isMain: Bool, limit: UInt64) -> Bool {
        var cursor = start
        var previous: GlibcChunkRecord?
        for _ in 0..<Self.chunksToResynchronise {
            if segment.endsAtTop, cursor == segment.end { return previous != nil }
            guard let sizeField = wordIfReadable(at: cursor + 8, limit: limit) else { return false }
            guard fits(at: cursor, sizeField: sizeField, after: previous, segment: segment, isMain: isMain, limit: limit) == .fits
            else { return false }
            let size = sizeField & ~GlibcMallocLayout.flagBits
            previous = GlibcChunkRecord(
                address: cursor, size: size, flags: sizeField & GlibcMallocLayout.flagBits, markedInUse: false, firstWord: 0,
                secondWord: 0)
            cursor += size
        }
        return true
    }
}
