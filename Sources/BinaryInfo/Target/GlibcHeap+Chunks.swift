import Algorithms
import TypeLayout

/// One allocation in use in a target's glibc heap.
public struct HeapChunk: Sendable, Hashable {
    /// The address `malloc` returned for it.
    public var address: UInt64
    /// What `malloc_usable_size` returns for it: the chunk's size less its header.
    public var usableSize: UInt64
    /// The first eight bytes at ``address`` (a Swift object's metadata pointer).
    public var firstWord: UInt64
    /// The next eight bytes (a Swift object's reference counts).
    public var secondWord: UInt64
    /// The index in ``GlibcHeap/arenaAddresses`` of the arena it came from; nil for an mmapped chunk.
    public var arena: Int?

    /// A chunk as a walk met it, or as a reading that kept its parts apart (``HeapReachability``'s
    /// arrays) describes it again.
    public init(address: UInt64, usableSize: UInt64, firstWord: UInt64, secondWord: UInt64, arena: Int?) {
        self.address = address
        self.usableSize = usableSize
        self.firstWord = firstWord
        self.secondWord = secondWord
        self.arena = arena
    }
}

/// What a walk of a glibc heap counted.
public struct HeapTotals: Sendable, Hashable {
    /// One arena's part.
    public struct Arena: Sendable, Hashable {
        /// Its `struct malloc_state`'s address.
        public var address: UInt64
        /// The bytes it took from the system (`system_mem`: its `sbrk` area or its heaps).
        public var heapBytes: UInt64
        /// How many heaps it has (1 for the main arena's `sbrk` area).
        public var heaps: Int
        /// Its chunks in use.
        public var chunksInUse: Int
        /// Their usable bytes (the sum of their ``HeapChunk/usableSize``).
        public var bytesInUse: UInt64
    }

    /// The arenas, the main arena first.
    public var arenas: [Arena]
    /// The mmapped chunks in use.
    public var mmappedChunks: Int
    /// Their mappings' bytes, as `mp_.mmapped_mem` counts them.
    public var mmappedBytes: UInt64
    /// The threads' tcaches found.
    public var tcaches: Int
    /// The free chunks on the arenas' fastbins.
    public var fastbinChunks: Int
    /// The free chunks on the threads' tcaches.
    public var tcacheChunks: Int
    /// For a heap read while it changed (``GlibcHeap/changing``): what the walk read again,
    /// stepped over or cut short. Nil for a stable heap, where any of that is an error.
    public var changes: HeapReadChanges? = nil
}

extension GlibcHeap {
    /// Calls `body` with every allocation in use, heap chunks arena by arena in address order,
    /// then the mmapped chunks. The heaps are read in windows of a few MiB;
    /// nothing that grows with the heap is kept beyond the free-list entries.
    ///
    /// A heap opened as ``changing`` is walked without failing on what the running process
    /// changes meanwhile (``HeapTotals/changes`` says what was read again, stepped over or cut
    /// short): every allocation alive throughout the walk is passed to `body` exactly once; one
    /// made or freed meanwhile may or may not be, and a free chunk whose list was cut short is
    /// passed as an allocation (its first word is a list link, never an object's metadata).
    ///
    /// - Throws: for a stable heap, ``BinaryInfoError/malformedHeap(path:what:address:detail:)``
    ///   when a chunk, a free list or the mmapped chunks' count do not fit glibc's invariants
    ///   (chunks already passed to `body` are then not the whole heap); a read error of the target.
    public func forEachChunk(_ body: (HeapChunk) -> Void) throws(BinaryInfoError) -> HeapTotals {
        try forEachChunk(findingTcachesFirst: false, checkingEveryPage: false, body)
    }

    /// As ``forEachChunk(_:)``, taking the longer way on purpose: `findingTcachesFirst` walks the
    /// heaps once more beforehand to find every tcache (as the walk does when no tcache with
    /// entries starts an arena), `checkingEveryPage` looks for mmapped chunks at every page (as it
    /// does when the mappings' starts do not hold what `mp_` counts).
    ///
    /// One walk for both kinds of heap: where a stable heap's walk fails on what does not fit, a
    /// changing heap's reads again, steps over or cuts short (``GlibcChangingWalk``), and says so.
    func forEachChunk(findingTcachesFirst: Bool, checkingEveryPage: Bool, _ body: (HeapChunk) -> Void) throws(BinaryInfoError)
        -> HeapTotals
    {
        var walk = GlibcChangingWalk(heap: self)
        let (mmapped, mappedBytes) = try walk.mmappedChunks(everyPage: checkingEveryPage)
        var lists = GlibcFreeLists(target: target, layout: layout, parameters: parameters, arenas: arenas)
        lists.cutsShort = changing
        for (index, arena) in arenas.enumerated() { try lists.addFastbins(of: arena, index: index) }
        // A thread's tcache is its first allocation, so it usually starts its arena.
        for arena in arenas {
            let first = arena.heaps[0].firstChunk
            guard arena.heaps[0].end > first,
                let sizeField = try tolerating({ () throws(BinaryInfoError) in
                    try target.read(UInt64.self, at: first + 8, what: "a chunk header")
                }), sizeField & ~GlibcMallocLayout.flagBits == layout.tcacheChunkSize
            else { continue }
            try tolerating { () throws(BinaryInfoError) in try lists.offerTcache(chunk: first) }
        }
        // Without a known key, entries cannot be told apart during the walk: find every tcache first.
        if findingTcachesFirst || layout.tcacheKey != .shared || lists.tcacheKey == nil {
            for (index, arena) in arenas.enumerated() {
                for heap in arena.heaps {
                    try walk.walk(heap, arena: index) { chunk throws(BinaryInfoError) in
                        guard chunk.markedInUse, chunk.size == layout.tcacheChunkSize else { return }
                        try tolerating { () throws(BinaryInfoError) in try lists.offerTcache(chunk: chunk.address) }
                    }
                }
            }
        }
        let largestCached = GlibcMallocLayout.tcacheChunkSize(bin: max(parameters.tcacheBins, 1) - 1)
        // Asked of every chunk: a computed property, read once.
        let tcacheChunkSize = layout.tcacheChunkSize
        // A chunk marked in use that holds tcache_key where a tcache entry keeps it is most likely
        // a freed entry (tcache_get clears the word when it hands a chunk out), so it is decided
        // once every tcache is known. It is an allocation when no tcache lists it (a thread that
        // exits frees its entries to the arena without clearing the word), unless (a stable heap)
        // a tcache-sized chunk that failed the tcache checks starts a bin with it: that is an error.
        let key = layout.tcacheKey == .shared ? lists.tcacheKey : nil
        var totals = HeapTotals(
            arenas: [], mmappedChunks: mmapped.count, mmappedBytes: mappedBytes, tcaches: 0, fastbinChunks: 0, tcacheChunks: 0)
        var seenFree: Set<UInt64> = []
        var candidates: [UInt64] = []
        var suspects: [(chunk: GlibcChunkRecord, arena: Int)] = []
        // The walk meets chunks in address order: a cursor over the sorted free-list entries
        // answers "is it on a list" with a comparison, not a hash lookup per chunk.
        let members = lists.members.sorted()
        for (index, arena) in arenas.enumerated() {
            var arenaTotals = HeapTotals.Arena(
                address: arena.address, heapBytes: arena.systemMemory, heaps: arena.heaps.count, chunksInUse: 0, bytesInUse: 0)
            for heap in arena.heaps {
                var member = members.partitioningIndex { $0 >= heap.firstChunk }
                try walk.walk(heap, arena: index) { chunk throws(BinaryInfoError) in
                    while member < members.count, members[member] < chunk.address { member += 1 }
                    guard chunk.markedInUse else { return }
                    if member < members.count, members[member] == chunk.address {
                        seenFree.insert(chunk.address)
                        return
                    }
                    // A changing heap's walk checks this where it can (the chunk after says in use).
                    guard changing || (chunk.flags & GlibcMallocLayout.nonMainArena != 0) == !arena.isMain else {
                        throw BinaryInfoError.malformedHeap(
                            path: target.path, what: "the chunk", address: chunk.address,
                            detail:
                                "in use in the \(arena.isMain ? "main" : "other") arena at 0x\(String(arena.address, radix: 16)) with NON_MAIN_ARENA \(arena.isMain ? "set" : "clear")"
                        )
                    }
                    if chunk.size == tcacheChunkSize, !lists.tcaches.contains(chunk.address) { candidates.append(chunk.address) }
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
        for candidate in candidates { try tolerating { () throws(BinaryInfoError) in try lists.offerTcache(chunk: candidate) } }
        for (chunk, arena) in suspects {
            // A freed tcache entry, or (its tcache not found, or, while changing, its list cut) an allocation.
            if lists.members.contains(chunk.address) {
                seenFree.insert(chunk.address)
                continue
            }
            if !changing, let tcache = lists.rejectedBinHeads[chunk.address] {
                throw BinaryInfoError.malformedHeap(
                    path: target.path, what: "the tcache", address: tcache,
                    detail:
                        "its bins fail the tcache checks (a count above mp_.tcache_count, a count without entries, an entry of another size or outside the heaps), yet a bin starts with the freed tcache entry 0x\(String(chunk.address + 16, radix: 16))"
                )
            }
            totals.arenas[arena].chunksInUse += 1
            totals.arenas[arena].bytesInUse += chunk.size - GlibcMallocLayout.wordSize
            body(HeapChunk(chunk, arena: arena))
        }
        let gone = lists.members.subtracting(seenFree)
        if changing {
            walk.changes.listEntriesGone = gone.count
            for cut in lists.cuts { walk.changes.cut(cut) }
        } else if let missing = gone.min() {
            throw BinaryInfoError.malformedHeap(
                path: target.path, what: "the free chunk", address: missing,
                detail: "a fastbin or tcache holds it, but the heap walk found no chunk marked in use there")
        }
        for chunk in mmapped {
            let user = chunk.address + 16
            // A changing heap's chunk unmapped since it was found was freed meanwhile.
            guard
                let words = try tolerating({ () throws(BinaryInfoError) in
                    try target.bytes(at: user, count: 16, what: "an mmapped chunk's user bytes")
                })
            else { continue }
            let (first, second) = words.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            body(HeapChunk(address: user, usableSize: chunk.size - 16, firstWord: first, secondWord: second, arena: nil))
        }
        totals.tcaches = lists.tcaches.count
        totals.fastbinChunks = lists.fastbinCount
        totals.tcacheChunks = lists.members.count - lists.fastbinCount
        totals.changes = changing ? walk.changes : nil
        return totals
    }
}

extension HeapChunk {
    init(_ chunk: GlibcChunkRecord, arena: Int) {
        self.init(
            address: chunk.address + 16, usableSize: chunk.size - GlibcMallocLayout.wordSize, firstWord: chunk.firstWord,
            secondWord: chunk.secondWord, arena: arena)
    }
}
