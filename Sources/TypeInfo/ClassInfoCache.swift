import Synchronization

/// The process-wide ClassInfo cache.
///
/// Readers never take a lock: the cache is an open-addressing hash table of atomic words
/// (metadata address -> retained ClassInfo) that readers probe with acquiring loads.
/// Writers (a miss, or a rebuild after invalidation) build the ClassInfo outside any lock,
/// then publish it under a mutex that only writers take.
///
/// Memory that a reader might still be looking at is never freed: a table outgrown by
/// a larger one, and a ClassInfo replaced after invalidation, are kept (in `retired`)
/// for the life of the process. Tables grow geometrically, so the first costs at most as
/// much again as the live one; replaced ClassInfos cost one object per invalidation.
///
/// Because a published ClassInfo lives forever, it is also made immortal (with the
/// runtime's `_swift_stdlib_immortalize`), together with its PropertyInfos: retaining and
/// releasing an immortal object only reads its reference count, so threads that look up
/// the same type at once do not fight over one cache line.
final class ClassInfoCache: Sendable {
    static let shared = ClassInfoCache()

    /// The current table's address.
    private let currentTable: Atomic<UInt>
    private let writer: PthreadMutex<WriterState>
    private let generationCounter = Atomic<UInt64>(0)

    private struct WriterState {
        var table: CacheTable
        var count = 0
        /// Outgrown tables and replaced ClassInfos: kept alive because a reader may hold them unretained.
        var retiredTables: [CacheTable] = []
        var retiredInfos: [ClassInfo] = []
    }

    init() {
        let table = CacheTable(log2Capacity: 8)
        currentTable = Atomic(table.address)
        writer = PthreadMutex(WriterState(table: table))
    }

    /// The cached, up-to-date ClassInfo for `type`, built now if there is none.
    func info(for type: Any.Type) -> ClassInfo {
        let key = Self.key(type)
        if let cached = CacheTable(address: currentTable.load(ordering: .acquiring)).lookup(key), !cached.needsUpdate {
            return cached
        }
        return rebuild(type, key: key)
    }

    /// Marks every cached ClassInfo as needing an update.
    func invalidateAll() {
        writer.withLock { state in
            state.table.forEachInfo { $0.setNeedsUpdate() }
        }
    }

    private func rebuild(_ type: Any.Type, key: UInt) -> ClassInfo {
        // Reading metadata may recurse into `info(for:)` (a superclass), so it happens outside the lock.
        let generation = generationCounter.add(1, ordering: .relaxed).newValue
        let fresh = ClassInfo(reading: type, generation: generation)
        return writer.withLock { state in
            if let existing = state.table.lookup(key), !existing.needsUpdate {
                return existing  // another thread published first: keep one instance per type
            }
            if let replaced = state.table.replace(key, with: fresh) {
                state.retiredInfos.append(replaced)
                Self.immortalize(fresh)
                return fresh
            }
            if (state.count + 1) * 2 > state.table.capacity {
                let larger = state.table.grown()
                state.retiredTables.append(state.table)
                state.table = larger
                currentTable.store(larger.address, ordering: .releasing)
            }
            state.table.insert(key, fresh)
            state.count += 1
            Self.immortalize(fresh)
            return fresh
        }
    }

    private static func immortalize(_ info: ClassInfo) {
        guard let immortalize = ReferenceStorageRuntime.shared.immortalize else { return }
        immortalize(Unmanaged.passUnretained(info).toOpaque())
        for property in info.propertyInfos {
            immortalize(Unmanaged.passUnretained(property).toOpaque())
        }
    }

    private static func key(_ type: Any.Type) -> UInt {
        UInt(bitPattern: unsafeBitCast(type, to: Int.self))
    }
}

/// A fixed-capacity open-addressing table of atomic words: `[key, value]` pairs, where the
/// key is a metadata address and the value a retained `ClassInfo`. Keys are never removed,
/// so a probe stops at the first empty key.
///
/// The table is a view of memory it does not free: the cache keeps every table alive for
/// the life of the process, because readers hold no reference while they probe.
struct CacheTable: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    let log2Capacity: Int
    var capacity: Int { 1 << log2Capacity }

    /// The table's memory: one header word (log2 capacity), then `2 * capacity` words.
    var address: UInt { UInt(bitPattern: slots - 1) }

    init(log2Capacity: Int) {
        let count = 1 + 2 * (1 << log2Capacity)
        let memory = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: count)
        memory.initialize(to: Atomic(UInt(log2Capacity)))
        for index in 1..<count {
            (memory + index).initialize(to: Atomic(0))
        }
        slots = memory + 1
        self.log2Capacity = log2Capacity
    }

    init(address: UInt) {
        // The address was published by `init(log2Capacity:)`; it is never zero and never freed.
        let header = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: address).unsafelyUnwrapped
        slots = header + 1
        log2Capacity = Int(header.pointee.load(ordering: .relaxed))
    }

    private func home(_ key: UInt) -> Int {
        // Fibonacci hashing: metadata addresses differ mostly in their middle bits.
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> UInt(64 &- log2Capacity))
    }

    /// The ClassInfo stored for `key`, without taking a lock.
    func lookup(_ key: UInt) -> ClassInfo? {
        // Wrapping arithmetic: indices stay below 2 * capacity by the mask.
        let mask = capacity &- 1
        var index = home(key)
        while true {
            let found = slots[index &<< 1].load(ordering: .acquiring)
            if found == key {
                let value = slots[(index &<< 1) | 1].load(ordering: .acquiring)
                guard let pointer = UnsafeRawPointer(bitPattern: value) else { return nil }
                return Unmanaged<ClassInfo>.fromOpaque(pointer).takeUnretainedValue()
            }
            if found == 0 { return nil }
            index = (index &+ 1) & mask
        }
    }

    /// Replaces the value of an existing key; returns the replaced ClassInfo, or nil when the key is absent.
    func replace(_ key: UInt, with info: ClassInfo) -> ClassInfo? {
        let mask = capacity - 1
        var index = home(key)
        while true {
            let found = slots[2 * index].load(ordering: .relaxed)
            if found == 0 { return nil }
            if found == key {
                let old = slots[2 * index + 1].exchange(
                    UInt(bitPattern: Unmanaged.passRetained(info).toOpaque()), ordering: .acquiringAndReleasing)
                guard let pointer = UnsafeRawPointer(bitPattern: old) else { return nil }
                return Unmanaged<ClassInfo>.fromOpaque(pointer).takeRetainedValue()
            }
            index = (index + 1) & mask
        }
    }

    /// Inserts a new key; the caller guarantees the key is absent and the table has room.
    func insert(_ key: UInt, _ info: ClassInfo) {
        insert(key, value: UInt(bitPattern: Unmanaged.passRetained(info).toOpaque()))
    }

    private func insert(_ key: UInt, value: UInt) {
        let mask = capacity - 1
        var index = home(key)
        while slots[2 * index].load(ordering: .relaxed) != 0 {
            index = (index + 1) & mask
        }
        // Value first, then key: a reader that sees the key sees the value.
        slots[2 * index + 1].store(value, ordering: .releasing)
        slots[2 * index].store(key, ordering: .releasing)
    }

    /// A table of twice the capacity holding the same entries (it takes over their retains).
    func grown() -> CacheTable {
        let larger = CacheTable(log2Capacity: log2Capacity + 1)
        for index in 0..<capacity {
            let key = slots[2 * index].load(ordering: .relaxed)
            guard key != 0 else { continue }
            let value = slots[2 * index + 1].load(ordering: .relaxed)
            _ = Unmanaged<ClassInfo>.fromOpaque(UnsafeRawPointer(bitPattern: value).unsafelyUnwrapped).retain()
            larger.insert(key, value: value)
        }
        return larger
    }

    /// Calls `body` with every stored ClassInfo.
    func forEachInfo(_ body: (ClassInfo) -> Void) {
        for index in 0..<capacity {
            let value = slots[2 * index + 1].load(ordering: .acquiring)
            guard let pointer = UnsafeRawPointer(bitPattern: value) else { continue }
            body(Unmanaged<ClassInfo>.fromOpaque(pointer).takeUnretainedValue())
        }
    }
}
