import Algorithms
import TypeLayout

extension GlibcHeap {
    /// ``forEachChunk(_:)`` for a heap that changes while it is read: each place that stops
    /// fitting is read again, stepped over or cut short (``TargetWindow/walkWhileChanging(_:arena:changes:visit:)``,
    /// ``GlibcFreeLists/cutsShort``), and the totals say so instead of the walk failing.
    func forEachChunkWhileChanging(_ body: (HeapChunk) -> Void) throws(BinaryInfoError) -> HeapTotals {
        var changes = HeapReadChanges(arenaReadings: arenaReadings, windowsReread: arenasReread)
        let window = TargetWindow(target: target)
        // mp_ counts at another moment than the mappings are read: a difference is noted, and
        // the longer search at every page is made once.
        let counted = currentMappedChunkCount() ?? parameters.mmappedChunks
        var mmapped = window.mmappedChunksWhileChanging(in: mmapRanges, everyPage: false)
        if UInt64(mmapped.count) != counted { mmapped = window.mmappedChunksWhileChanging(in: mmapRanges, everyPage: true) }
        changes.mmappedChunksFound = mmapped.count
        changes.mmappedChunksCounted = Int(counted)
        let mappedBytes = mmapped.reduce(0) { $0 + $1.offset + $1.size }

        var lists = GlibcFreeLists(target: target, layout: layout, parameters: parameters, arenas: arenas)
        lists.cutsShort = true
        for (index, arena) in arenas.enumerated() { try lists.addFastbins(of: arena, index: index) }
        let changingArenas = arenas.map { arena in
            GlibcChangingArena(isMain: arena.isMain) { currentTop(of: arena.address) }
        }
        for arena in arenas {
            let first = arena.heaps[0].firstChunk
            guard arena.heaps[0].end > first, let sizeField = try? target.read(UInt64.self, at: first + 8, what: "a chunk header"),
                sizeField & ~GlibcMallocLayout.flagBits == layout.tcacheChunkSize
            else { continue }
            _ = try? lists.offerTcache(chunk: first)
        }
        if layout.tcacheKey != .shared || lists.tcacheKey == nil {
            for (index, arena) in arenas.enumerated() {
                for heap in arena.heaps {
                    _ = try window.walkWhileChanging(heap, arena: changingArenas[index], changes: &changes) { chunk in
                        if chunk.markedInUse, chunk.size == layout.tcacheChunkSize { _ = try? lists.offerTcache(chunk: chunk.address) }
                    }
                }
            }
        }
        let largestCached = GlibcMallocLayout.tcacheChunkSize(bin: max(parameters.tcacheBins, 1) - 1)
        let key = layout.tcacheKey == .shared ? lists.tcacheKey : nil
        var totals = HeapTotals(
            arenas: [], mmappedChunks: mmapped.count, mmappedBytes: mappedBytes, tcaches: 0, fastbinChunks: 0, tcacheChunks: 0)
        var seenFree: Set<UInt64> = []
        var candidates: [UInt64] = []
        var suspects: [(chunk: GlibcChunkRecord, arena: Int)] = []
        let members = lists.members.sorted()
        for (index, arena) in arenas.enumerated() {
            var arenaTotals = HeapTotals.Arena(
                address: arena.address, heapBytes: arena.systemMemory, heaps: arena.heaps.count, chunksInUse: 0, bytesInUse: 0)
            for heap in arena.heaps {
                var member = members.partitioningIndex { $0 >= heap.firstChunk }
                _ = try window.walkWhileChanging(heap, arena: changingArenas[index], changes: &changes) { chunk in
                    while member < members.count, members[member] < chunk.address { member += 1 }
                    guard chunk.markedInUse else { return }
                    if member < members.count, members[member] == chunk.address {
                        seenFree.insert(chunk.address)
                        return
                    }
                    if chunk.size == layout.tcacheChunkSize, !lists.tcaches.contains(chunk.address) { candidates.append(chunk.address) }
                    if let key, chunk.size <= largestCached, chunk.secondWord == key {
                        suspects.append((chunk, index))
                        return
                    }
                    arenaTotals.chunksInUse += 1
                    arenaTotals.bytesInUse += chunk.size - GlibcMallocLayout.wordSize
                    body(HeapChunk(chunk, arena: index))
                }
            }
            totals.arenas.append(arenaTotals)
        }
        for candidate in candidates { _ = try? lists.offerTcache(chunk: candidate) }
        for (chunk, arena) in suspects {
            // A freed tcache entry, or (its tcache not found, or its list cut) an allocation.
            if lists.members.contains(chunk.address) {
                seenFree.insert(chunk.address)
                continue
            }
            totals.arenas[arena].chunksInUse += 1
            totals.arenas[arena].bytesInUse += chunk.size - GlibcMallocLayout.wordSize
            body(HeapChunk(chunk, arena: arena))
        }
        changes.listEntriesGone = lists.members.subtracting(seenFree).count
        for cut in lists.cuts { changes.cut(cut) }
        for chunk in mmapped {
            let user = chunk.address + 16
            // Unmapped since it was found: freed meanwhile.
            guard let words = try? target.bytes(at: user, count: 16, what: "an mmapped chunk's user bytes") else { continue }
            let (first, second) = words.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            body(HeapChunk(address: user, usableSize: chunk.size - 16, firstWord: first, secondWord: second, arena: nil))
        }
        totals.tcaches = lists.tcaches.count
        totals.fastbinChunks = lists.fastbinCount
        totals.tcacheChunks = lists.members.count - lists.fastbinCount
        totals.changes = changes
        return totals
    }

    /// The arena's top chunk and its size as the target holds them now.
    private func currentTop(of arena: UInt64) -> (address: UInt64, size: UInt64)? {
        guard let top = try? target.read(UInt64.self, at: arena + layout.topOffset, what: "malloc_state.top"),
            let size = try? target.read(UInt64.self, at: top + 8, what: "the top chunk's size")
        else { return nil }
        return (top, size & ~GlibcMallocLayout.flagBits)
    }

    /// `mp_.n_mmaps` as the target holds it now.
    private func currentMappedChunkCount() -> UInt64? {
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
