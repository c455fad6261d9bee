/// The user addresses of a heap's allocations, ascending, in 4 bytes each: every address is a
/// multiple of 8 (glibc aligns chunks to 16), so an address is its 32 bits above the lowest 3
/// within a 32 GiB window, and the few windows the heap spans are listed apart (``segments``).
///
/// A heap of tens of millions of allocations is held by tools whose memory should stay a small
/// part of the heap's: this is half of a `[UInt64]`.
public struct HeapAddresses: RandomAccessCollection, Sendable, Equatable {
    /// Each address's bits 3...34.
    let lows: [UInt32]
    /// The windows, ascending: the addresses from `segments[k].start` up to the next segment's
    /// start have `segments[k].high` as their bits 35...63.
    let segments: [Segment]

    struct Segment: Sendable, Equatable {
        var high: UInt64
        var start: Int
    }

    static let windowShift: UInt64 = 35

    public var startIndex: Int { 0 }
    public var endIndex: Int { lows.count }

    /// The address at `position`.
    @inline(__always)
    public subscript(position: Int) -> UInt64 {
        precondition(position >= 0 && position < lows.count, "an allocation position")
        return (segments[segment(holding: position)].high << Self.windowShift) | (UInt64(lows[position]) << 3)
    }

    /// The segment the position lies in.
    @inline(__always)
    func segment(holding position: Int) -> Int {
        var segment = segments.count - 1
        while segments[segment].start > position { segment -= 1 }
        return segment
    }

    /// The end of the positions of segment `segment`.
    @inline(__always)
    func end(of segment: Int) -> Int { segment + 1 < segments.count ? segments[segment + 1].start : lows.count }

    /// The position of `address` (an allocation's start), if it is one.
    public func position(of address: UInt64) -> Int? {
        guard address > 0 else { return lows.isEmpty || self[0] != 0 ? nil : 0 }
        let next = firstPosition(above: address - 1)
        return next < count && self[next] == address ? next : nil
    }

    /// The first position whose address is above `address` (``endIndex`` when none is).
    func firstPosition(above address: UInt64) -> Int {
        let high = address >> Self.windowShift
        // Few segments: a linear walk.
        var segment = 0
        while segment < segments.count, segments[segment].high < high { segment += 1 }
        guard segment < segments.count else { return lows.count }
        guard segments[segment].high == high else { return segments[segment].start }
        let key = UInt32(truncatingIfNeeded: address >> 3)
        // Addresses that are not multiples of 8 fall after the multiple below them.
        var low = segments[segment].start
        var high_ = end(of: segment)
        lows.withUnsafeBufferPointer { lows in
            while low < high_ {
                let middle = (low + high_) / 2
                if lows[middle] <= key { low = middle + 1 } else { high_ = middle }
            }
        }
        return low
    }
}

/// The usable sizes of a heap's allocations, by position, in 4 bytes each; the rare size of 4 GiB
/// or more (a huge mmapped chunk) is kept apart.
public struct HeapSizes: RandomAccessCollection, Sendable, Equatable {
    /// Each size, or `UInt32.max` for one kept in ``large``.
    let small: [UInt32]
    /// The sizes of `UInt32.max` bytes or more, by position.
    let large: [Int: UInt64]

    public var startIndex: Int { 0 }
    public var endIndex: Int { small.count }

    /// The usable size of the allocation at `position`.
    @inline(__always)
    public subscript(position: Int) -> UInt64 {
        let size = small[position]
        return size == UInt32.max ? large[position]! : UInt64(size)
    }
}

/// Collects a heap walk's chunks (in the walk's order) in blocks, then puts them in address order
/// with each block let go as soon as its chunks are placed: at most the table and a few blocks
/// more, and no array that doubles while it grows. A class: the walk's closure holds it, and a
/// copy of a struct there would keep every block alive.
final class HeapAllocationTableBuilder {
    /// A class, so that adding to the block being filled copies nothing (a struct taken out of
    /// the array of blocks would be copied, its blocks retained, once per chunk).
    private final class Block {
        let lows = MappedBlock<UInt32>(capacity: HeapAllocationTableBuilder.blockSize)
        /// Where the addresses' bits 35...63 change in the block: (slot, high), ascending slots.
        @exclusivity(unchecked) var highs: [(slot: Int, high: UInt64)] = []
        let sizes = MappedBlock<UInt32>(capacity: HeapAllocationTableBuilder.blockSize)
        let firstWords: MappedBlock<UInt64>?
        /// One bit a slot: the chunk is a side table candidate.
        let candidates = MappedBlock<UInt64>(zeroed: HeapAllocationTableBuilder.blockSize / 64)

        init(keepingFirstWords: Bool) {
            firstWords = keepingFirstWords ? MappedBlock(capacity: HeapAllocationTableBuilder.blockSize) : nil
        }

        func high(at slot: Int) -> UInt64 {
            var change = highs.count - 1
            while highs[change].slot > slot { change -= 1 }
            return highs[change].high
        }
    }

    static let blockSize = 1 << 16
    // Every chunk of the walk is added here: the exclusivity checks would cost more than the
    // adding (one caller at a time, the walk's).
    @exclusivity(unchecked) private var blocks: [Block?] = []
    /// The block being filled (the last of ``blocks``).
    @exclusivity(unchecked) private var current: Block?
    @exclusivity(unchecked) private var large: [Int: UInt64] = [:]
    @exclusivity(unchecked) private(set) var count = 0
    let keepingFirstWords: Bool
    let path: String

    init(keepingFirstWords: Bool, path: String) {
        self.keepingFirstWords = keepingFirstWords
        self.path = path
    }

    /// Adds the next chunk of the walk; `isCandidate` marks it for ``finish()``'s candidates.
    func append(_ chunk: HeapChunk, isCandidate: Bool = false) throws(BinaryInfoError) {
        guard chunk.address & 7 == 0 else {
            throw .malformedHeap(path: path, what: "an allocation", address: chunk.address, detail: "its address is not a multiple of 8")
        }
        let slot = count % Self.blockSize
        if slot == 0 {
            let block = Block(keepingFirstWords: keepingFirstWords)
            blocks.append(block)
            current = block
        }
        let block = current.unsafelyUnwrapped
        let high = chunk.address >> HeapAddresses.windowShift
        if block.highs.last?.high != high { block.highs.append((slot, high)) }
        block.lows.append(UInt32(truncatingIfNeeded: chunk.address >> 3))
        if chunk.usableSize >= UInt64(UInt32.max) {
            large[count] = chunk.usableSize
            block.sizes.append(UInt32.max)
        } else {
            block.sizes.append(UInt32(chunk.usableSize))
        }
        block.firstWords?.append(chunk.firstWord)
        if isCandidate { block.candidates[slot >> 6] |= 1 << UInt64(slot & 63) }
        count += 1
    }

    private func address(_ index: Int) -> UInt64 {
        let block = blocks[index / Self.blockSize]!
        let slot = index % Self.blockSize
        return (block.high(at: slot) << HeapAddresses.windowShift) | (UInt64(block.lows[slot]) << 3)
    }

    /// Runs that overlap as pieces in address order: two heaps the walk gives one after the
    /// other in ascending order make one run, which a third heap between them can overlap. Each
    /// piece is the least run's addresses below every other run's next one, so heaps that only
    /// interleave as wholes make a few pieces. More runs than a heap has heaps (a walk of no
    /// real heap) fall back to a piece per position.
    private func merged(_ runs: [Range<Int>]) -> [Range<Int>] {
        guard runs.count <= 4096 else {
            return (0..<count).sorted { (address($0), $0) < (address($1), $1) }.map { $0..<($0 + 1) }
        }
        var heads = runs
        var pieces: [Range<Int>] = []
        while true {
            var least: Int?
            var second: UInt64?
            for (run, head) in heads.enumerated() where !head.isEmpty {
                let value = address(head.lowerBound)
                if let current = least {
                    let currentValue = address(heads[current].lowerBound)
                    if value < currentValue {
                        second = currentValue
                        least = run
                    } else if second.map({ value < $0 }) ?? true {
                        second = value
                    }
                } else {
                    least = run
                }
            }
            guard let least else { break }
            var end = heads[least].lowerBound + 1
            while end < heads[least].upperBound, second.map({ address(end) <= $0 }) ?? true { end += 1 }
            pieces.append(heads[least].lowerBound..<end)
            heads[least] = end..<heads[least].upperBound
        }
        return pieces
    }

    /// The walk's runs of ascending addresses.
    private func ascendingRuns() -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        var previous: UInt64 = 0
        for (blockIndex, block) in blocks.enumerated() {
            guard let block else { continue }
            var change = 0
            for slot in 0..<block.lows.count {
                if change < block.highs.count, block.highs[change].slot == slot { change += 1 }
                let current = (block.highs[change - 1].high << HeapAddresses.windowShift) | (UInt64(block.lows[slot]) << 3)
                let index = blockIndex * Self.blockSize + slot
                if index > 0, current <= previous {
                    runs.append(start..<index)
                    start = index
                }
                previous = current
            }
        }
        if count > 0 { runs.append(start..<count) }
        return runs
    }

    /// The table in address order. The walk gives each heap's chunks in address order, and heaps
    /// and mmapped chunks never overlap, so the runs are put in order as wholes; a full sort is
    /// the fallback should a run overlap another.
    func finish() -> (addresses: HeapAddresses, sizes: HeapSizes, firstWords: [UInt64], candidates: AllocationBits) {
        var runs = ascendingRuns()
        runs.sort { address($0.lowerBound) < address($1.lowerBound) }
        let disjoint = zip(runs, runs.dropFirst()).allSatisfy { address($0.upperBound - 1) < address($1.lowerBound) }
        if !disjoint { runs = merged(runs) }
        var left = blocks.map { $0?.lows.count ?? 0 }
        var lows = [UInt32]()
        var sizes = [UInt32]()
        var firstWords = [UInt64]()
        lows.reserveCapacity(count)
        sizes.reserveCapacity(count)
        if keepingFirstWords { firstWords.reserveCapacity(count) }
        var segments: [HeapAddresses.Segment] = []
        var large: [Int: UInt64] = [:]
        var candidates = AllocationBits(allocations: count)
        for run in runs {
            var index = run.lowerBound
            while index < run.upperBound {
                let blockIndex = index / Self.blockSize
                let slot = index % Self.blockSize
                let take = min(run.upperBound - index, Self.blockSize - slot)
                let block = blocks[blockIndex]!
                for offset in 0..<take {
                    let high = block.high(at: slot + offset)
                    if segments.last?.high != high { segments.append(.init(high: high, start: lows.count)) }
                    if block.sizes[slot + offset] == UInt32.max { large[lows.count] = self.large[index + offset] }
                    lows.append(block.lows[slot + offset])
                    sizes.append(block.sizes[slot + offset])
                    if let blockFirstWords = block.firstWords { firstWords.append(blockFirstWords[slot + offset]) }
                    let bit = slot + offset
                    if block.candidates[bit >> 6] & (1 << UInt64(bit & 63)) != 0 { candidates.insert(lows.count - 1) }
                }
                left[blockIndex] -= take
                if left[blockIndex] == 0 {
                    blocks[blockIndex] = nil
                    if blockIndex == blocks.count - 1 { current = nil }
                }
                index += take
            }
        }
        if segments.isEmpty { segments.append(.init(high: 0, start: 0)) }
        return (HeapAddresses(lows: lows, segments: segments), HeapSizes(small: sizes, large: large), firstWords, candidates)
    }
}

/// Which first words could be a side table's object pointer, judged while the heap is walked: a
/// 16-byte-aligned address in anonymous memory (an allocation's start never lies in a mapped
/// file, where class metadata does).
struct SideTableCandidateFilter {
    let regions: [TargetRegion]
    /// The last region met, as bounds and whether it is anonymous (no region copied per word).
    private var lastStart: UInt64 = 0
    private var lastEnd: UInt64 = 0
    private var lastIsAnonymous = false

    init(regions: [TargetRegion]) { self.regions = regions }

    mutating func admits(_ word: UInt64) -> Bool {
        guard word & 15 == 0, word != 0 else { return false }
        if word >= lastStart, word < lastEnd { return lastIsAnonymous }
        guard let region = regions.region(containing: word) else { return false }
        (lastStart, lastEnd, lastIsAnonymous) = (region.start, region.end, region.filePath == nil)
        return lastIsAnonymous
    }
}
