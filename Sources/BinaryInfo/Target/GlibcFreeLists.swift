import Algorithms
import TypeLayout

/// The free chunks whose next chunk still has `PREV_INUSE` set: those in each arena's fastbins
/// and in each thread's tcache. Every other free chunk clears that bit, so these lists are what
/// tells a free chunk from one in use.
///
/// Fastbins come from each arena's `fastbinsY`. Tcaches (`tcache_perthread_struct`, one per
/// thread, made by the thread's first `malloc`) have no list of their own: the heap reader offers
/// each in-use chunk of a tcache's size as a candidate. A candidate is taken as a tcache only when
/// every bin agrees: a zero count with an empty bin, no count above `mp_.tcache_count`, and each
/// bin's first entry a chunk of that bin's size in one of the heaps. A candidate that passes is
/// then verified in full: each chain has exactly its count of entries, each a chunk of the bin's
/// size in a heap, each with the key glibc stores in freed entries (from 2.34 one value shared
/// by every entry of every tcache), ending in a null link. A candidate whose bins pass but whose
/// chains do not verify is an error, never skipped; a candidate whose bins fail but whose counts
/// are all small is remembered, and the walk stops with an error when one of its bins starts
/// with a chunk holding `tcache_key` (a freed tcache entry of a tcache that does not verify).
///
/// A running process's lists change while they are read (``cutsShort``): a list is then taken up
/// to its first entry that does not verify and no further, and the cut is recorded (``cuts``).
/// Only which chunks count as allocations depends on the lists, never which are Swift objects.
struct GlibcFreeLists {
    let target: TargetMemory
    let layout: GlibcMallocLayout
    let parameters: GlibcMallocParameters
    /// Every heap segment with its arena's index, sorted by address.
    let segments: [(segment: GlibcHeapSegment, arena: Int)]
    /// Free chunks (headers' addresses) on a fastbin or tcache list.
    private(set) var members: Set<UInt64> = []
    /// `tcache_key` (2.34 on), once a non-empty tcache has shown it.
    private(set) var tcacheKey: UInt64?
    /// The tcaches verified so far (their chunks' addresses).
    private(set) var tcaches: Set<UInt64> = []
    /// The chunks that start a bin of a tcache-sized chunk that failed the tcache checks, each
    /// with that chunk's address.
    private(set) var rejectedBinHeads: [UInt64: UInt64] = [:]
    /// How many of the members are on fastbins.
    private(set) var fastbinCount = 0
    /// Whether a list that does not verify is cut short (a running process) instead of an error.
    var cutsShort = false
    /// The lists cut short.
    private(set) var cuts: [HeapReadChanges.CutList] = []

    init(target: TargetMemory, layout: GlibcMallocLayout, parameters: GlibcMallocParameters, arenas: [GlibcArenaState]) {
        self.target = target
        self.layout = layout
        self.parameters = parameters
        segments = arenas.enumerated().flatMap { index, arena in arena.heaps.map { (segment: $0, arena: index) } }
            .sorted { $0.segment.firstChunk < $1.segment.firstChunk }
    }

    private func malformed(_ what: String, _ address: UInt64, _ detail: String) -> BinaryInfoError {
        .malformedHeap(path: target.path, what: what, address: address, detail: detail)
    }

    /// The index of the arena whose heap holds `chunk` before its end (top or fencepost), if any.
    func arena(holding chunk: UInt64) -> Int? {
        let index = segments.partitioningIndex { $0.segment.end > chunk }
        guard index < segments.count, segments[index].segment.firstChunk <= chunk, chunk % GlibcMallocLayout.alignment == 0 else {
            return nil
        }
        return segments[index].arena
    }

    private mutating func insert(_ chunk: UInt64, list: String) throws(BinaryInfoError) {
        guard members.insert(chunk).inserted else {
            throw malformed(
                "the chunk", chunk, "it appears twice on the free lists (the second time on \(list)): a loop, or a chunk on two lists")
        }
    }

    /// Adds the chunks of every fastbin of `arena` (index `index`).
    mutating func addFastbins(of arena: GlibcArenaState, index: Int) throws(BinaryInfoError) {
        let heapBytes = arena.heaps.reduce(0) { $0 + ($1.end - $1.firstChunk) }
        let limit = heapBytes / GlibcMallocLayout.minimumChunkSize + 1
        for (bin, head) in arena.fastbins.enumerated() {
            var count: UInt64 = 0
            do throws(BinaryInfoError) {
                try addFastbin(bin, head: head, of: arena, index: index, limit: limit, count: &count)
            } catch {
                guard cutsShort else { throw error }
                cuts.append(.init(kind: .fastbin, owner: arena.address, bin: bin, entriesTaken: Int(count)))
            }
        }
    }

    private mutating func addFastbin(
        _ bin: Int, head: UInt64, of arena: GlibcArenaState, index: Int, limit: UInt64, count: inout UInt64
    ) throws(BinaryInfoError) {
        let size = UInt64(bin + 2) * GlibcMallocLayout.alignment
        let list = "fastbin \(bin) of the arena at 0x\(String(arena.address, radix: 16))"
        var chunk = head
        while chunk != 0 {
            guard self.arena(holding: chunk) == index else {
                throw malformed(
                    "fastbin \(bin) of the arena", arena.address, "its chunk 0x\(String(chunk, radix: 16)) is not in the arena's heaps")
            }
            let header = try target.bytes(at: chunk + 8, count: 16, what: "a fastbin chunk")
            let (sizeField, link) = header.withUnsafeBytes {
                ($0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            guard sizeField & ~GlibcMallocLayout.flagBits == size else {
                throw malformed(
                    list, chunk, "the chunk's size 0x\(String(sizeField, radix: 16)) is not the bin's 0x\(String(size, radix: 16))")
            }
            try insert(chunk, list: list)
            fastbinCount += 1
            count += 1
            guard count <= limit else {
                throw malformed("fastbin \(bin) of the arena", arena.address, "it is longer than the arena has chunks (a loop)")
            }
            chunk = layout.reveal(link, storedAt: chunk + 16)
        }
    }

    /// Offers the in-use chunk at `chunk` (of a tcache's size) as a tcache: returns whether it is
    /// one (its entries are then members), false when its bins are not a tcache's.
    ///
    /// - Throws: ``BinaryInfoError/malformedHeap(path:what:address:detail:)`` when its bins have a
    ///   tcache's shape but a chain does not verify.
    @discardableResult
    mutating func offerTcache(chunk: UInt64) throws(BinaryInfoError) -> Bool {
        if tcaches.contains(chunk) { return true }
        let user = chunk + 16
        let entriesOffset = Int(layout.tcacheEntriesOffset)
        let bytes = try target.bytes(at: user, count: entriesOffset + GlibcMallocLayout.tcacheBinCount * 8, what: "a tcache")
        let bins = (0..<GlibcMallocLayout.tcacheBinCount).map { bin in
            bytes.withUnsafeBytes {
                (
                    count: layout.tcacheCountWidth == 2
                        ? UInt64($0.loadUnaligned(fromByteOffset: bin * 2, as: UInt16.self))
                        : UInt64($0.load(fromByteOffset: bin, as: UInt8.self)),
                    first: $0.loadUnaligned(fromByteOffset: entriesOffset + bin * 8, as: UInt64.self)
                )
            }
        }
        // A candidate that fails but whose counts are small is remembered as a damaged tcache;
        // other data (an array of pointers, a buffer) reads as counts in the thousands.
        defer {
            if !tcaches.contains(chunk), bins.allSatisfy({ $0.count <= UInt64(UInt8.max) }) {
                for bin in bins where bin.first >= 16 { rejectedBinHeads[bin.first - 16] = chunk }
            }
        }
        for (bin, (count, first)) in bins.enumerated() {
            // Shape: a count within the tunable, empty exactly when the count is zero, used bins only.
            guard count <= parameters.tcacheCount, (count == 0) == (first == 0), count == 0 || bin < parameters.tcacheBins else {
                return false
            }
            if first != 0 {
                guard first >= 16, arena(holding: first - 16) != nil,
                    try target.read(UInt64.self, at: first - 8, what: "a tcache entry's size") & ~GlibcMallocLayout.flagBits
                        == GlibcMallocLayout.tcacheChunkSize(bin: bin)
                else { return false }
            }
        }
        var chainMembers: [UInt64] = []
        for (bin, (count, first)) in bins.enumerated() where count > 0 {
            let before = chainMembers.count
            do throws(BinaryInfoError) {
                try followChain(bin: bin, count: count, first: first, tcache: chunk, into: &chainMembers)
            } catch {
                guard cutsShort else { throw error }
                cuts.append(.init(kind: .tcache, owner: chunk, bin: bin, entriesTaken: chainMembers.count - before))
            }
        }
        for member in chainMembers {
            do throws(BinaryInfoError) {
                try insert(member, list: "the tcache at 0x\(String(chunk, radix: 16))")
            } catch {
                guard cutsShort else { throw error }
            }
        }
        tcaches.insert(chunk)
        return true
    }

    /// Appends the entries of bin `bin` of the tcache at `tcache` (`count` of them from `first`)
    /// to `members`, each verified as it is met.
    private mutating func followChain(bin: Int, count: UInt64, first: UInt64, tcache chunk: UInt64, into members: inout [UInt64])
        throws(BinaryInfoError)
    {
        let user = chunk + 16
        let size = GlibcMallocLayout.tcacheChunkSize(bin: bin)
        let list = "bin \(bin) of the tcache"
        var entry = first
        for position in 0..<count {
            guard entry >= 16, arena(holding: entry - 16) != nil else {
                throw malformed(list, chunk, "entry \(position) of \(count), 0x\(String(entry, radix: 16)), is not in a heap")
            }
            let words = try target.bytes(at: entry - 8, count: 24, what: "a tcache entry")
            let (sizeField, link, key) = words.withUnsafeBytes {
                (
                    $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                )
            }
            guard sizeField & ~GlibcMallocLayout.flagBits == size else {
                throw malformed(
                    list, chunk,
                    "entry \(position), 0x\(String(entry, radix: 16)), is not a chunk of 0x\(String(size, radix: 16)) bytes")
            }
            switch layout.tcacheKey {
            case .none:
                break
            case .tcacheAddress:
                guard key == user else { throw malformed(list, chunk, "entry \(position)'s key is not the tcache's address") }
            case .shared:
                if tcacheKey == nil { tcacheKey = key }
                guard key == tcacheKey else { throw malformed(list, chunk, "entry \(position)'s key differs from the other entries'") }
            }
            members.append(entry - 16)
            entry = layout.reveal(link, storedAt: entry)
        }
        guard entry == 0 else { throw malformed(list, chunk, "its chain is longer than its count, \(count)") }
    }
}
