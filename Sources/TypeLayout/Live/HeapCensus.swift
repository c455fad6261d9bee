/// What a target's heap holds, by dynamic type: the answer of `typeinfo heap`.
///
/// Every number comes from the target's own memory: the allocator's chunks give the
/// allocations and their sizes, each object's metadata pointer its type. A census compared with
/// an earlier one (``compared(with:)``) carries each type's growth as well.
public struct HeapCensus: Sendable, Hashable {
    /// The version of the JSON document this build writes; readers accept documents up to it.
    public static let currentSchemaVersion = 1

    /// The largest count or size a census read back holds: 2^57, the bytes of the largest address
    /// space (x86-64 with 5-level paging), so that any difference of two fits an `Int`.
    public static let largestAmount = 1 << 57

    /// Which process was read, and how.
    public struct Target: Sendable, Hashable {
        /// The process's id: the target's, or the one a core file records.
        public var processID: Int32?
        /// The program's name, when known (`/proc/PID/comm`, a core's `NT_PRPSINFO`).
        public var command: String?
        /// The core file read, or nil for a live process.
        public var corePath: String?
        /// Whether the process ran while its heap was read: counts may then be off by the
        /// allocations it made or freed meanwhile. False for a core and for a paused process.
        public var readWhileRunning: Bool
        /// How `--pause` held the process (nil when it ran, and for a core).
        public var stop: ReadingStop?
        /// For a core: where its memory differs from its images' files where the two must be
        /// equal (``CoreMismatch``); empty when nothing compared differs, and for a process.
        public var coreMismatches: [CoreMismatch] = []

        public init(processID: Int32?, command: String?, corePath: String?, readWhileRunning: Bool) {
            self.processID = processID
            self.command = command
            self.corePath = corePath
            self.readWhileRunning = readWhileRunning
        }
    }

    /// One dynamic type's live objects.
    public struct Entry: Sendable, Hashable {
        /// The type's name, generic arguments spelled out (`MyApp.Box<Swift.String>`).
        public var type: String
        /// For array storage whose class names no element type (`_ContiguousArrayStorage<AnyObject>`,
        /// which holds every `[C]` of a class `C`): the class its elements state, every one of them
        /// that class or a subclass of it (their nearest common superclass). Nil for other types,
        /// and for storage whose elements state none (empty, or of unrelated classes).
        public var elementType: String?
        /// How many live objects have this type.
        public var count: Int
        /// The sum of their allocations' sizes (what `malloc_usable_size` says of each).
        public var bytes: Int
        /// The size of one instance as its metadata states it, or nil when unknown; a tail-allocated
        /// object (`ManagedBuffer`, array storage) is larger than this.
        public var instanceSize: Int?
        /// Compared with a baseline: how many more objects than then (negative: fewer).
        public var countDelta: Int?
        /// Compared with a baseline: how many more bytes than then.
        public var bytesDelta: Int?
        /// The addresses of the first objects of this type the walk met (`--addresses N`), in
        /// address order within each arena; empty when none were asked for.
        public var addresses: [UInt64] = []
        /// With `--retained`: the bytes this type's objects keep reachable alone (``Retained``
        /// says exactly what is added up); nil when retained sizes were not computed.
        public var retainedBytes: Int?

        /// How the entry is told from another: its type, and its element type where it has one.
        public var key: String { elementType.map { "\(type) (of \($0))" } ?? type }

        public init(
            type: String, count: Int, bytes: Int, instanceSize: Int?, countDelta: Int? = nil, bytesDelta: Int? = nil,
            elementType: String? = nil
        ) {
            self.type = type
            self.elementType = elementType
            self.count = count
            self.bytes = bytes
            self.instanceSize = instanceSize
            self.countDelta = countDelta
            self.bytesDelta = bytesDelta
        }
    }

    /// The whole heap, whatever ``types`` a selection keeps.
    public struct Totals: Sendable, Hashable {
        /// Live allocations, in every arena and mapping.
        public var allocations: Int
        /// Their sizes' sum.
        public var heapBytes: Int
        /// The live allocations that are Swift objects.
        public var swiftObjects: Int
        /// Their sizes' sum.
        public var swiftObjectBytes: Int
        /// Bytes in live allocations that are not Swift objects of a known type (C allocations,
        /// buffers, the runtime's own tables).
        public var unattributedBytes: Int { heapBytes - swiftObjectBytes }

        public init(allocations: Int, heapBytes: Int, swiftObjects: Int, swiftObjectBytes: Int) {
            self.allocations = allocations
            self.heapBytes = heapBytes
            self.swiftObjects = swiftObjects
            self.swiftObjectBytes = swiftObjectBytes
        }
    }

    /// How ``types`` is ordered.
    public enum Order: String, Sendable, Hashable, CaseIterable {
        /// Most objects first.
        case count
        /// Most bytes first.
        case bytes
        /// Most retained bytes first (a census with ``retained``), then most bytes.
        case retained
    }

    /// What a census with retained sizes (`heap --retained`) read of the heap's graph, and what
    /// its ``Entry/retainedBytes`` mean.
    ///
    /// The graph's nodes are the allocations plus one virtual root, whose edges lead to every
    /// allocation a root (a register, writable memory outside the heap) points into; an edge is
    /// a word of one allocation that points into another, taken conservatively as `leaks` takes
    /// it (every word that looks like a pointer is one). An object's retained bytes are what
    /// would become unreachable if every reference to it went away: its own allocation and every
    /// allocation it dominates (each path from the roots to it passes through the object). A
    /// type's retained bytes add up the retained bytes of its objects that no other object of
    /// the same type dominates, so each allocation counts at most once per type; an allocation
    /// two objects share is in neither's retained bytes (it is in their common dominator's).
    /// Different types' retained bytes overlap, and do not add up to the heap.
    public struct Retained: Sendable, Hashable {
        /// The allocations the roots reach.
        public var reachableAllocations: Int
        /// Their sizes' sum: the root's retained bytes.
        public var reachableBytes: Int
        /// The allocations a root points into directly (the virtual root's edges).
        public var rootReachedAllocations: Int
        /// The pointers from one allocation into another the graph holds (a run of words pointing
        /// into one allocation counts once).
        public var edges: Int

        public init(reachableAllocations: Int, reachableBytes: Int, rootReachedAllocations: Int, edges: Int) {
            self.reachableAllocations = reachableAllocations
            self.reachableBytes = reachableBytes
            self.rootReachedAllocations = rootReachedAllocations
            self.edges = edges
        }

        /// What the retained column means, as the text and JSON reports state it.
        public static let meaning =
            "retained: an object's retained bytes are what would become unreachable if every reference to it went away "
            + "(its allocation and every allocation each path from the roots to which passes through it: the heap graph's dominator tree); "
            + "a type's retained bytes add these up over its objects that no other object of the type keeps reachable alone, "
            + "so each allocation counts once per type, and an allocation two objects share counts for neither; "
            + "pointers are found conservatively (any word that looks like one counts), so an allocation a stray word also reaches is not counted as retained; "
            + "types' retained bytes overlap and do not add up to the heap"
    }

    public var schemaVersion: Int
    public var target: Target
    public var totals: Totals
    /// One entry per type, in ``order``.
    public var types: [Entry]
    /// The order of ``types``.
    public var order: Order
    /// Whether ``types`` carries deltas against an earlier census (then ordered by growth).
    public var isComparison: Bool
    /// For a process read while it ran: what changed under the reading and how the reader went
    /// around it (memory read again, runs stepped over, free lists cut short). Nil for a core
    /// or a stopped process, whose heap did not change.
    public var readChanges: HeapReadChanges?
    /// With `--retained`: the heap graph the retained sizes come from; nil otherwise.
    public var retained: Retained?

    /// A census; `types` are put in `order` (ties by name).
    public init(target: Target, totals: Totals, types: [Entry], order: Order = .bytes, readChanges: HeapReadChanges? = nil) {
        schemaVersion = Self.currentSchemaVersion
        self.readChanges = readChanges
        self.target = target
        self.totals = totals
        self.order = order
        isComparison = false
        self.types = types
        self.types.sort(by: Self.precedes(order: order, comparing: false))
    }

    /// The same census holding only the types `keep` accepts (by name, or by element type), ordered
    /// by `order`, at most `limit` of them. The totals stay those of the whole heap.
    public func selecting(where keep: (String) -> Bool = { _ in true }, order: Order, limit: Int? = nil) -> HeapCensus {
        var result = self
        result.order = order
        result.types = types.filter { keep($0.type) || $0.elementType.map(keep) == true }.sorted(
            by: Self.precedes(order: order, comparing: isComparison))
        if let limit { result.types = Array(result.types.prefix(max(limit, 0))) }
        return result
    }

    /// This census against `baseline` (an earlier one of the same program): every type of either,
    /// with its growth, biggest growth first (in bytes, or in objects when ordered by count). A
    /// type gone since the baseline is listed with count 0.
    public func compared(with baseline: HeapCensus) -> HeapCensus {
        var before: [String: Entry] = [:]
        for entry in baseline.types { before[entry.key] = entry }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for var entry in types {
            seen.insert(entry.key)
            entry.countDelta = Self.difference(entry.count, before[entry.key]?.count ?? 0)
            entry.bytesDelta = Self.difference(entry.bytes, before[entry.key]?.bytes ?? 0)
            entries.append(entry)
        }
        for old in baseline.types where !seen.contains(old.key) {
            entries.append(
                Entry(
                    type: old.type, count: 0, bytes: 0, instanceSize: old.instanceSize, countDelta: Self.difference(0, old.count),
                    bytesDelta: Self.difference(0, old.bytes), elementType: old.elementType))
        }
        var result = self
        result.isComparison = true
        result.types = entries.sorted(by: Self.precedes(order: order, comparing: true))
        return result
    }

    /// `now - then`, or nil where it does not fit an `Int` (never, for censuses read back, whose
    /// amounts are at most ``largestAmount``).
    private static func difference(_ now: Int, _ then: Int) -> Int? {
        let (result, overflow) = now.subtractingReportingOverflow(then)
        return overflow ? nil : result
    }

    private static func precedes(order: Order, comparing: Bool) -> (Entry, Entry) -> Bool {
        { left, right in
            let keys: (Int, Int, Int, Int)
            switch (order, comparing) {
            case (.count, false): keys = (left.count, right.count, left.bytes, right.bytes)
            case (.bytes, false): keys = (left.bytes, right.bytes, left.count, right.count)
            case (.retained, false): keys = (left.retainedBytes ?? -1, right.retainedBytes ?? -1, left.bytes, right.bytes)
            case (.count, true): keys = (left.countDelta ?? 0, right.countDelta ?? 0, left.bytesDelta ?? 0, right.bytesDelta ?? 0)
            case (.bytes, true), (.retained, true):
                keys = (left.bytesDelta ?? 0, right.bytesDelta ?? 0, left.countDelta ?? 0, right.countDelta ?? 0)
            }
            if keys.0 != keys.1 { return keys.0 > keys.1 }
            if keys.2 != keys.3 { return keys.2 > keys.3 }
            return left.key < right.key
        }
    }
}
