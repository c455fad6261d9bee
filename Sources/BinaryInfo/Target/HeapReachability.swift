import Algorithms

/// Which allocations of a target's glibc heap its roots reach, found conservatively: the
/// memory graph under `typeinfo leaks`.
///
/// Roots are the threads' registers and every writable region of the target outside the heaps
/// and the mmapped chunks (each image's data and bss, the threads' stacks and thread-local
/// storage, other anonymous mappings), less the stale parts of thread stacks
/// (``StaleStackMemory``: below each running thread's stack pointer, and the stacks glibc keeps
/// of ended threads). Every 8-byte-aligned word of a root or of a reached allocation that points
/// into an allocation (its header, its bytes, or just past its end: interior pointers count, as
/// C code holds them), once the bits no pointer of this machine uses are cleared (the tag bits
/// Swift keeps in a `String`'s or a bridge object's high byte and an enum's low bits), reaches
/// that allocation. The one word not followed is a Swift weak reference's side table's pointer
/// back to its object (a weak reference does not keep its object alive): a side table is an
/// allocation whose first word is an object whose reference count word names the side table.
///
/// Every other word counts, so a word that only looks like a pointer keeps its allocation
/// "reachable": the answer errs toward missing a leak, never toward calling a reachable
/// allocation a leak. It is only as true as the moment it was read at: read a core file or a
/// stopped process.
public struct HeapReachability: Sendable {
    /// Each allocation's user address (what `malloc` returned), ascending.
    public let addresses: HeapAddresses
    /// Each allocation's usable size, in the order of ``addresses``.
    public let sizes: HeapSizes
    /// Each allocation's first word, in the order of ``addresses``; empty when the reading was
    /// asked not to keep them (`keepingFirstWords`: ``firstWords(of:)`` reads them again).
    public let firstWords: [UInt64]
    /// The bytes of roots scanned.
    public let rootBytes: UInt64
    /// The bytes of thread stacks left out as stale.
    public let staleStackBytes: UInt64
    /// How many allocations are Swift weak references' side tables.
    public let sideTables: Int
    /// Each allocation's class number (its first word's position in the list `classifying`
    /// gave), for the allocations the marking reached, ``noClass`` for others; empty when the
    /// reading was not asked to classify.
    public let classes: [UInt32]
    /// What ``classes`` holds for an allocation of no listed class, or not reached.
    public static let noClass = UInt32.max
    /// The memory graph, when the reading was asked to record it (`recordingEdges`).
    public let edges: HeapEdges?
    private let marks: [UInt64]
    /// What ``place(of:)`` names roots by.
    let target: TargetMemory
    let regions: [TargetRegion]
    let threads: [ThreadRegisters]
    /// The side tables' positions: their first word (the object) is no edge.
    let sideTablePositions: AllocationBits
    /// The root memory scanned, ascending.
    let rootRanges: [Range<UInt64>]
    /// Where Swift objects' references lie, as the marking was given them.
    public let referenceLayouts: AllocationReferenceLayouts

    /// The bits of a 64-bit word that a user-space pointer can have set: clearing the others
    /// turns a tagged reference into its address.
    static let pointerBits: UInt64 = 0x0000_7FFF_FFFF_FFF8
    /// The high bits of a Swift object's reference count word that hold a side table's address
    /// (`UseSlowRC` and `SideTableMark`); the address is stored shifted right by 3.
    static let sideTableMarks: UInt64 = 0xC000_0000_0000_0000

    /// Walks `heap` (a stopped process's, or a core's) and marks what its roots reach.
    ///
    /// - Parameters:
    ///   - threads: the target's running threads with their registers, which are roots and say
    ///     where each stack's live part starts.
    ///   - threadStacks: glibc's thread lists, which name the stacks of ended threads; nil when
    ///     they could not be read (those stacks are then scanned as roots).
    ///   - visitingChunks: called with every allocation as the walk meets it (a census of the
    ///     first words, say, that ``referenceLayouts`` then builds on), before any is marked.
    ///   - referenceLayouts: called once the walk is done, before the marking: where the references
    ///     of the Swift objects lie, by class. An object's plan is looked up by its first word
    ///     when it is scanned; its references are followed before its other words, so that first
    ///     reaches (paths) go through references wherever one reaches; its other words still reach
    ///     what they point into, afterwards.
    ///   - classifying: called once the walk is done, before the marking: nil, or a list of first
    ///     words (class metadata addresses, never zero) whose positions number classes; each reached allocation's
    ///     number is kept in ``classes``, its first word looked up when it is scanned, 4 bytes an
    ///     allocation. `heap --retained` groups retained bytes by them without keeping first words.
    ///   - recordingEdges: also record the memory graph (``edges``): per allocation, 8 bytes for
    ///     its row's start in the graph, and 8 more while marking (the scan order, the row's
    ///     length); 4 bytes per pointer between allocations, recorded in blocks that are let go
    ///     as the rows are put in node order. `typeinfo leaks` leaves it off.
    ///   - recordingFirstReaches: with the graph, record how each allocation was first reached
    ///     (``HeapEdges/firstReach(of:)``), 8 bytes per allocation; `heap --retained` needs only
    ///     the graph.
    ///   - keepingFirstWords: keep every allocation's first word (``firstWords``), 8 bytes each;
    ///     `typeinfo leaks` reads the few it needs again instead.
    /// - Throws: what the heap walk throws; ``BinaryInfoError/unmapped(path:what:address:length:)``
    ///   or a read error when a root or a reached allocation cannot be read (an answer that
    ///   skipped memory could call a reachable allocation a leak).
    public init(
        heap: GlibcHeap, threads: [ThreadRegisters], threadStacks: GlibcThreadStacks?, visitingChunks: (HeapChunk) -> Void = { _ in },
        referenceLayouts: () -> AllocationReferenceLayouts = { .none }, classifying: () -> [UInt64]? = { nil },
        recordingEdges: Bool = false, recordingFirstReaches: Bool = true, keepingFirstWords: Bool = true
    ) throws(BinaryInfoError) {
        var mmapped: [Range<UInt64>] = []
        let table = HeapAllocationTableBuilder(keepingFirstWords: keepingFirstWords, path: heap.target.path)
        var failure: BinaryInfoError?
        // Checked per chunk: a flag, not the optional error (whose copy costs more than the chunk).
        var failed = false
        // A side table's first word is an allocation's start: anonymous memory, never a file's.
        var filter = SideTableCandidateFilter(regions: heap.regions)
        _ = try heap.forEachChunk { chunk in
            guard !failed else { return }
            do throws(BinaryInfoError) {
                try table.append(chunk, isCandidate: filter.admits(chunk.firstWord))
                visitingChunks(chunk)
            } catch {
                failure = error
                failed = true
            }
            if chunk.arena == nil { mmapped.append((chunk.address - 16)..<(chunk.address + chunk.usableSize)) }
        }
        if let failure { throw failure }
        let candidates: AllocationBits
        (addresses, sizes, firstWords, candidates) = table.finish()
        target = heap.target
        regions = heap.regions
        self.threads = threads
        let heaps = (heap.arenas.flatMap { $0.heaps.map(\.occupied) } + mmapped).sorted { $0.lowerBound < $1.lowerBound }
        let mainThread = heap.target.processID
        let stale = StaleStackMemory.find(
            regions: heap.regions, heap: heaps, threads: threads, stacks: threadStacks, guardEnds: try heap.target.guardEnds(),
            mainThread: mainThread)
        staleStackBytes = stale.ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        var marker = Marker(addresses: addresses, sizes: sizes, target: heap.target, regions: heap.regions)
        self.referenceLayouts = referenceLayouts()
        let planned = Array(self.referenceLayouts.plans)
        marker.plans = planned.map(\.value)
        marker.planNumbers = WordNumbers(planned.map(\.key))
        if let classes = classifying() {
            marker.classNumbers = WordNumbers(classes)
            marker.classes = [UInt32](repeating: Self.noClass, count: addresses.count)
        }
        if recordingEdges {
            marker.recorder = HeapEdgeRecorder(allocations: addresses.count, recordingFirstReaches: recordingFirstReaches)
        }
        marker.sideTables = try Self.sideTables(addresses: addresses, candidates: candidates, target: heap.target)
        sideTables = marker.sideTables.count
        sideTablePositions = marker.sideTables
        for thread in threads {
            for (index, word) in thread.words.enumerated() {
                marker.rootRegister = .register(thread: thread.id, index: index)
                marker.reach(word, at: 0)
            }
        }
        marker.rootRegister = nil
        let excluded = (heaps + stale.ranges).sorted { $0.lowerBound < $1.lowerBound }
        var scanned: UInt64 = 0
        var rootRanges: [Range<UInt64>] = []
        for region in heap.regions where region.isWritable {
            for range in Self.subtracting(excluded, from: region.start..<region.end) {
                try marker.scan(range, what: "a root (writable memory outside the heap)")
                scanned += range.upperBound - range.lowerBound
                rootRanges.append(range)
            }
        }
        self.rootRanges = rootRanges
        try marker.markTransitively()
        rootBytes = scanned
        marks = marker.marks
        classes = marker.classes
        // Taken out, not copied: the recorder lets its rows go while it puts them in order.
        edges = marker.recorder.take()?.finish()
    }

    /// The positions of the allocations that are Swift side tables: the first word is the start
    /// of another allocation (the object), whose reference count word (its second) holds this
    /// allocation's address with the side table marks.
    ///
    /// A heap can hold millions of weak references' side tables, so the candidates' first words
    /// and then the objects' counts are read in batches (``TargetMemory/fetchRecords(at:size:into:)``:
    /// many per system call) and the first words looked up in the sorted addresses, with no table
    /// that grows with the heap.
    static func sideTables(addresses: HeapAddresses, candidates: AllocationBits, target: TargetMemory) throws(BinaryInfoError)
        -> AllocationBits
    {
        var found = AllocationBits(allocations: addresses.count)
        guard let lowest = addresses.first, let highest = addresses.last else { return found }
        let batchSize = 1 << 16
        var positions: [Int] = []
        var candidateAddresses: [UInt64] = []
        var objects: [UInt64] = []
        positions.reserveCapacity(batchSize)
        candidateAddresses.reserveCapacity(batchSize)
        objects.reserveCapacity(batchSize)
        let words = UnsafeMutableRawBufferPointer.allocate(byteCount: batchSize * 8, alignment: 8)
        defer { words.deallocate() }
        func judge() throws(BinaryInfoError) {
            let firstRead = try target.fetchRecords(at: candidateAddresses, size: 8, into: words)
            var judged: [Int] = []
            for (slot, index) in positions.enumerated() where firstRead[slot] {
                let word = words.load(fromByteOffset: slot * 8, as: UInt64.self)
                guard word >= lowest, word <= highest, word & 15 == 0 else { continue }
                let position = addresses.firstPosition(above: word - 1)
                guard position < addresses.count, addresses[position] == word else { continue }
                judged.append(index)
                objects.append(word + 8)
            }
            let read = try target.fetchRecords(at: objects, size: 8, into: words)
            for (slot, index) in judged.enumerated() where read[slot] {
                if words.load(fromByteOffset: slot * 8, as: UInt64.self) == (addresses[index] >> 3) | sideTableMarks {
                    found.insert(index)
                }
            }
            positions.removeAll(keepingCapacity: true)
            candidateAddresses.removeAll(keepingCapacity: true)
            objects.removeAll(keepingCapacity: true)
        }
        for index in candidates.positions {
            positions.append(index)
            candidateAddresses.append(addresses[index])
            if positions.count == batchSize { try judge() }
        }
        if !positions.isEmpty { try judge() }
        return found
    }

    /// The first words of the allocations at `positions`, read again in batches, in the order
    /// of `positions`.
    ///
    /// - Throws: a read error, or ``BinaryInfoError/unmapped(path:what:address:length:)`` when an
    ///   allocation the walk read cannot be read now.
    public func firstWords(of positions: [Int]) throws(BinaryInfoError) -> [UInt64] {
        let batchSize = 1 << 16
        var words: [UInt64] = []
        words.reserveCapacity(positions.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: batchSize * 8, alignment: 8)
        defer { buffer.deallocate() }
        var start = 0
        while start < positions.count {
            let batch = positions[start..<min(start + batchSize, positions.count)].map { addresses[$0] }
            let read = try target.fetchRecords(at: batch, size: 8, into: buffer)
            for (slot, address) in batch.enumerated() {
                guard read[slot] else {
                    throw .unmapped(path: target.path, what: "an allocation's first word", address: address, length: 8)
                }
                words.append(buffer.load(fromByteOffset: slot * 8, as: UInt64.self))
            }
            start += batchSize
        }
        return words
    }

    /// Whether the allocation at position `index` of ``addresses`` is reached from a root.
    public func isReachable(_ index: Int) -> Bool { marks[index >> 6] & (1 << UInt64(index & 63)) != 0 }

    /// The positions of the allocations no root reaches.
    public var unreachable: [Int] { addresses.indices.filter { !isReachable($0) } }

    /// The position of the allocation `word` points into (its header, its bytes, or just past
    /// its end), if any.
    public func allocation(containing word: UInt64) -> Int? {
        Marker.allocation(containing: word & Self.pointerBits, addresses: addresses, sizes: sizes)
    }

    /// The parts of `range` outside every range of `excluded` (sorted by their start).
    static func subtracting(_ excluded: [Range<UInt64>], from range: Range<UInt64>) -> [Range<UInt64>] {
        var parts: [Range<UInt64>] = []
        var start = range.lowerBound
        var index = excluded.partitioningIndex { $0.upperBound > start }
        while index < excluded.count, excluded[index].lowerBound < range.upperBound, start < range.upperBound {
            if excluded[index].lowerBound > start { parts.append(start..<excluded[index].lowerBound) }
            start = max(start, excluded[index].upperBound)
            index += 1
        }
        if start < range.upperBound { parts.append(start..<range.upperBound) }
        return parts
    }
}

/// The marking: a bit per allocation, the allocations reached but not yet scanned, and one
/// window of the target's memory reused for every read.
struct Marker {
    let addresses: HeapAddresses
    let sizes: HeapSizes
    let target: TargetMemory
    let regions: [TargetRegion]
    private(set) var marks: [UInt64]
    /// The allocations whose first word is not followed (side tables' object pointers).
    var sideTables: AllocationBits
    /// The graph being recorded, if asked for.
    var recorder: HeapEdgeRecorder?
    /// The register being reached from, while the registers are.
    var rootRegister: HeapRootWord?
    /// The allocation being scanned; nil while roots are.
    private var source: Int?
    /// The address of the allocation being scanned.
    private var sourceAddress: UInt64 = 0
    /// Swift objects' plans, numbered by their class metadata in ``planNumbers``: an allocation's
    /// is looked up by its first word, read with the rest of its words when it is scanned.
    var plans: [AllocationReferencePlan] = []
    var planNumbers = WordNumbers([])
    /// The number of the plan the masks below are of.
    private var currentPlan = WordNumbers.none
    /// Class numbers by first word, when the reading classifies allocations; each scanned
    /// allocation's number (``HeapReachability/classes``).
    var classNumbers: WordNumbers?
    var classes: [UInt32] = []
    /// The plan of the allocation being scanned (its masks and element layout, held apart so
    /// that a word's check copies nothing), and its element count once read.
    private var planned = false
    private var fixedMask: [UInt64] = []
    private var firstMaskWord: UInt64 = 0
    private var elementMask: [UInt64] = []
    private var elementStart = UInt64.max
    private var elementStride: UInt64 = 0
    private var countOffset = UInt64.max
    private var elementCount: UInt64 = 0
    /// Allocations an object's words that are no references point into, not yet marked: each
    /// is marked from there only once nothing more is reached through references.
    private var deferred: [DeferredReach] = []
    /// The allocations reached and not yet scanned (scanned in address order).
    private var reached: MarkFrontier
    private let lowest: UInt64
    private let highest: UInt64
    private let pages: AllocationPageIndex
    private var window: [UInt8] = Array(repeating: 0, count: Marker.windowSize)
    private var windowStart: UInt64 = 0
    private var windowCount = 0
    static let windowSize = 4 << 20

    init(addresses: HeapAddresses, sizes: HeapSizes, target: TargetMemory, regions: [TargetRegion]) {
        self.addresses = addresses
        self.sizes = sizes
        self.target = target
        self.regions = regions
        marks = Array(repeating: 0, count: (addresses.count + 63) / 64)
        lowest = (addresses.first ?? 16) - 16
        self.highest = addresses.highestEnd(sizes: sizes)
        sideTables = AllocationBits(allocations: addresses.count)
        reached = MarkFrontier(allocations: addresses.count)
        pages = AllocationPageIndex(addresses)
    }

    /// As ``allocation(containing:addresses:sizes:)``, found through the page index.
    @inline(__always)
    private func allocation(containing address: UInt64) -> Int? {
        pages.allocation(containing: address, addresses: addresses, sizes: sizes)
    }

    /// The allocation whose header, bytes or end `address` is at.
    static func allocation(containing address: UInt64, addresses: HeapAddresses, sizes: HeapSizes) -> Int? {
        // The next allocation when the address is in its header, else the last one starting at
        // or before the address.
        let next = addresses.firstPosition(above: address)
        if next < addresses.count, addresses[next] - 16 <= address { return next }
        guard next > 0 else { return nil }
        let index = next - 1
        return address - addresses[index] <= sizes[index] ? index : nil
    }

    /// Reaches the allocation `word` points into; `wordAddress` is where the word lies (unused
    /// for a register).
    mutating func reach(_ word: UInt64, at wordAddress: UInt64) {
        let address = word & HeapReachability.pointerBits
        guard address >= lowest, address <= highest,
            let index = allocation(containing: address)
        else { return }
        if recorder != nil, let source { recordEdge(from: source, to: index) }
        let (slot, bit) = (index >> 6, UInt64(1) << UInt64(index & 63))
        guard marks[slot] & bit == 0 else { return }
        marks[slot] |= bit
        reached.insert(index)
        if recorder != nil { recordFirstReach(of: index, at: wordAddress) }
    }

    private mutating func recordEdge(from source: Int, to index: Int) {
        // A run of words pointing into one allocation (an array of one value, a buffer's ends) is one edge.
        if recorder!.rowCounts[source] > 0, recorder!.lastTarget == UInt32(index) { return }
        recorder!.appendTarget(UInt32(index))
        recorder!.rowCounts[source] += 1
    }

    private mutating func recordFirstReach(of index: Int, at wordAddress: UInt64) {
        if source == nil { recorder!.rootReached.append(UInt32(index)) }
        guard recorder!.recordingFirstReaches else { return }
        if let source {
            let offset = wordAddress &- addresses[source]
            recorder!.parents[index] = UInt32(source)
            recorder!.offsets[index] = offset < UInt64(HeapEdges.offsetTooLarge) ? UInt32(offset) : HeapEdges.offsetTooLarge
        } else {
            recorder!.parents[index] = HeapEdges.rootParent
            recorder!.offsets[index] = UInt32(recorder!.rootWords.count)
            recorder!.rootWords.append(rootRegister ?? .memory(address: wordAddress))
        }
    }

    /// A word of a Swift object that is not one of its references, pointing into an allocation.
    struct DeferredReach {
        var source: UInt32
        var target: UInt32
        var offset: UInt32
    }

    /// Deals with the word at `wordAddress` of the object being scanned under ``plan``: a
    /// reference reaches now; another word pointing into an allocation is an edge now (the graph
    /// holds every pointer) and reaches later, unless a reference has reached it by then.
    @inline(__always)
    private mutating func reachPlanned(_ word: UInt64, at wordAddress: UInt64, source: Int) {
        let offset = wordAddress &- sourceAddress
        if offset == countOffset { elementCount = word }
        if isStrongWord(at: offset) { return reach(word, at: wordAddress) }
        let address = word & HeapReachability.pointerBits
        guard address >= lowest, address <= highest,
            let index = allocation(containing: address)
        else { return }
        if recorder != nil { recordEdge(from: source, to: index) }
        guard marks[index >> 6] & (UInt64(1) << UInt64(index & 63)) == 0 else { return }
        deferred.append(DeferredReach(source: UInt32(source), target: UInt32(index), offset: UInt32(min(offset, UInt64(UInt32.max)))))
    }

    /// Whether the word at `offset` of the object being scanned is a strong reference by its
    /// plan (as ``AllocationReferencePlan/isStrong(wordOffset:elementCount:)`` says).
    @inline(__always) private func isStrongWord(at offset: UInt64) -> Bool {
        if offset >= elementStart {
            guard !elementMask.isEmpty, elementStride > 0 else { return false }
            let relative = offset - elementStart
            guard relative / elementStride < elementCount else { return false }
            let inner = relative % elementStride
            return inner & 7 == 0 && AllocationReferencePlan.contains(elementMask, word: inner >> 3)
        }
        guard offset & 7 == 0 else { return false }
        // Most objects are under 64 words: their mask is one word, held apart.
        let word = offset >> 3
        return word < 64 ? firstMaskWord >> word & 1 != 0 : AllocationReferencePlan.contains(fixedMask, word: word)
    }

    /// Makes plan `number` the one words are judged by (``WordNumbers/none``: every word reaches).
    private mutating func use(_ number: UInt32) {
        elementCount = 0
        guard number != WordNumbers.none else {
            planned = false
            return
        }
        planned = true
        // Objects of one class often come one after another: their masks are already in place.
        guard number != currentPlan else { return }
        currentPlan = number
        let plan = plans[Int(number)]
        fixedMask = plan.fixedMask
        firstMaskWord = plan.fixedMask.first ?? 0
        elementMask = plan.elementMask
        elementStart = plan.elements.map { UInt64($0.start) } ?? .max
        elementStride = UInt64(plan.elements?.stride ?? 0)
        countOffset = plan.elements.map { UInt64($0.countOffset) } ?? .max
    }

    /// Marks what the deferred words point into that is still unmarked, first reached from them.
    private mutating func reachDeferred() {
        let pending = deferred
        deferred = []
        for entry in pending {
            let index = Int(entry.target)
            let (slot, bit) = (index >> 6, UInt64(1) << UInt64(index & 63))
            guard marks[slot] & bit == 0 else { continue }
            marks[slot] |= bit
            reached.insert(index)
            if recorder != nil, recorder!.recordingFirstReaches {
                recorder!.parents[index] = entry.source
                recorder!.offsets[index] = entry.offset < HeapEdges.offsetTooLarge ? entry.offset : HeapEdges.offsetTooLarge
            }
        }
    }

    /// Reaches what every aligned word of `range` points to, reading it in windows.
    mutating func scan(_ range: Range<UInt64>, what: @autoclosure () -> String) throws(BinaryInfoError) {
        var start = (range.lowerBound + 7) & ~7
        while start < range.upperBound, range.upperBound - start >= 8 {
            let count = Int(min(UInt64(Self.windowSize), (range.upperBound - start) & ~7))
            try fill(from: start, count: count, what: what())
            scanWindow(from: start, count: count)
            start += UInt64(count)
        }
    }

    private mutating func fill(from start: UInt64, count: Int, what: @autoclosure () -> String) throws(BinaryInfoError) {
        var failure: BinaryInfoError?
        window.withUnsafeMutableBytes { buffer in
            do throws(BinaryInfoError) {
                try target.fetch(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), from: start, what: what())
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        target.releasePages(address: start, count: count)
        windowStart = start
        windowCount = count
    }

    /// The word at `address`, which the window holds.
    private func firstWordInWindow(at address: UInt64) -> UInt64 {
        window.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Int(address - windowStart), as: UInt64.self) }
    }

    private mutating func scanWindow(from start: UInt64, count: Int) {
        let offset = Int(start - windowStart)
        let words = count / 8
        window.withUnsafeBytes { buffer in
            if planned, let source {
                for word in 0..<words {
                    reachPlanned(
                        buffer.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self), at: start + UInt64(word * 8),
                        source: source)
                }
                return
            }
            for word in 0..<words {
                reach(buffer.loadUnaligned(fromByteOffset: offset + word * 8, as: UInt64.self), at: start + UInt64(word * 8))
            }
        }
    }

    /// Scans every reached allocation until no new one is reached: each round takes what the
    /// last one reached in address order, so that neighbours come from one window. Objects' words
    /// that are no references reach only once references reach nothing more.
    mutating func markTransitively() throws(BinaryInfoError) {
        try markThroughReferences()
        while !deferred.isEmpty {
            reachDeferred()
            try markThroughReferences()
        }
    }

    private mutating func markThroughReferences() throws(BinaryInfoError) {
        while let round = reached.takeRound() {
            for index in round {
                source = index
                sourceAddress = addresses[index]
                if recorder != nil { recorder!.scanOrder.append(UInt32(index)) }
                let isSideTable = sideTables.contains(index)
                let start = (addresses[index] & ~7) + (isSideTable ? 8 : 0)
                let end = addresses[index] + sizes[index]
                let count = end > start ? Int((end - start) & ~7) : 0
                guard count > 0 else { continue }
                if start < windowStart || end > windowStart + UInt64(windowCount) {
                    if count <= Self.windowSize / 4, let limit = regions.contiguousEnd(from: start), limit >= end {
                        // A small allocation: read a whole window from it, which its neighbours share.
                        try fill(from: start, count: Int(min(UInt64(Self.windowSize), limit - start)), what: "a reached allocation")
                    } else {
                        try fill(from: start, count: min(Self.windowSize, count), what: "a reached allocation")
                    }
                }
                // The window holds the allocation's start now: its first word names its plan.
                let firstWord = isSideTable ? 0 : firstWordInWindow(at: start)
                use(plans.isEmpty ? WordNumbers.none : planNumbers.number(of: firstWord))
                if classNumbers != nil { classes[index] = classNumbers!.number(of: firstWord) }
                let inWindow = min(count, Int(windowStart + UInt64(windowCount) - start))
                scanWindow(from: start, count: inWindow)
                if inWindow < count { try scan((start + UInt64(inWindow))..<end, what: "a reached allocation") }
            }
        }
        use(WordNumbers.none)
        source = nil
    }
}
