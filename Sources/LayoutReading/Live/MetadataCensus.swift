import BinaryInfo
import TypeLowering

/// Counts heap allocations by their first word, when it is a Swift class's metadata.
///
/// Each distinct first word is judged by reading its would-be metadata record from the target.
/// Most allocations repeat a few words (their classes' metadata), which a small direct-mapped
/// cache and the list of metadata found answer without a read. The rest (a weak reference's
/// side table points at its object, a C allocation holds anything) are judged in batches, many
/// records to a system call, and not kept: the memory this takes does not grow with the heap.
struct MetadataCensus {
    /// One class's objects.
    struct Tally {
        var metadata: UInt64
        var count = 0
        var bytes = 0
        /// The first objects met, up to `addressesPerType`.
        var addresses: [UInt64] = []
    }

    let inspector: TargetInspector
    let addressesPerType: Int
    /// Per class found, by its tally's index: its metadata address, objects, their bytes, the first
    /// addresses (kept apart, so that counting touches two flat arrays).
    private var classes: [UInt64] = []
    /// Per class found, its count and bytes, and whether it is an instantiation of
    /// `_ContiguousArrayStorage`, whose objects are kept: those of `_ContiguousArrayStorage<AnyObject>`
    /// have elements that say which class they hold (``ClassArrayElements``). Which instantiation
    /// each is, is asked of the reflection library after the walk, with every other class's name
    /// in one batch, rather than by a worker round trip in the middle of the walk.
    private let columns = TallyColumns()
    private var addresses: [[UInt64]] = []
    /// Each class's instance size, by metadata address.
    private(set) var instanceSizes: [UInt64: Int] = [:]
    /// The objects of each `_ContiguousArrayStorage` class (address and allocation size), by its
    /// metadata: only these are kept, so what is held grows with array storage objects (16 bytes
    /// each), not with the heap.
    private(set) var arrayStorages: [UInt64: [(address: UInt64, bytes: Int)]] = [:]
    /// The metadata found: its tally's index.
    private var known = WordTable()
    /// Recently judged words: the tally's index, or -1 for a word that is not metadata.
    private var recent = [(word: UInt64, tally: Int)](repeating: (0, -1), count: 4096)
    /// Allocations whose first word awaits judgement, in the order met.
    private var pending: [HeapChunk] = []

    /// Allocations held back before their words are judged together.
    static let batch = 4096

    init(inspector: TargetInspector, addressesPerType: Int) {
        self.inspector = inspector
        self.addressesPerType = addressesPerType
        pending.reserveCapacity(Self.batch)
    }

    /// Counts `chunk` if its first word is class metadata, now or at the next ``settle()``; the
    /// allocations of one class are counted in the order they are met.
    @inline(__always)
    mutating func count(_ chunk: HeapChunk) {
        let word = chunk.firstWord
        guard SwiftClassRecognizer.mayBeMetadata(word) else { return }
        let slot = Int(truncatingIfNeeded: (word >> 3) ^ (word >> 15)) & (recent.count - 1)
        if recent[slot].word == word {
            add(chunk, to: recent[slot].tally)
            return
        }
        if let tally = known[word] {
            recent[slot] = (word, tally)
            add(chunk, to: tally)
            return
        }
        pending.append(chunk)
        if pending.count >= Self.batch { settle() }
    }

    /// Judges the words of the allocations held back, and counts them.
    mutating func settle() {
        guard !pending.isEmpty else { return }
        var words = pending.map(\.firstWord)
        words.sort()
        var distinct = 0
        for index in words.indices where distinct == 0 || words[index] != words[distinct - 1] {
            words[distinct] = words[index]
            distinct += 1
        }
        words.removeLast(words.count - distinct)
        for (word, metadata) in zip(words, inspector.classes.classMetadata(each: words)) {
            guard let metadata, known[word] == nil else { continue }
            known.insert(word, classes.count)
            classes.append(word)
            addresses.append([])
            instanceSizes[word] = Int(metadata.instanceSize)
            // Array storage of another element type (bytes, strings) is left out by its name
            // after the walk (``ClassArrayElements/attribute``), as is one the library cannot name.
            columns.append(keepingObjects: ClassArrayElements.isArrayStorage(metadata, inspector))
        }
        for chunk in pending {
            let word = chunk.firstWord
            let tally = known[word] ?? -1
            let slot = Int(truncatingIfNeeded: (word >> 3) ^ (word >> 15)) & (recent.count - 1)
            recent[slot] = (word, tally)
            add(chunk, to: tally)
        }
        pending.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    private mutating func add(_ chunk: HeapChunk, to tally: Int) {
        guard tally >= 0 else { return }
        let count = columns.add(Int(chunk.usableSize), to: tally)
        guard count <= addressesPerType || columns.keepsObjects[tally] else { return }
        if count <= addressesPerType { addresses[tally].append(chunk.address) }
        if columns.keepsObjects[tally] { arrayStorages[classes[tally], default: []].append((chunk.address, Int(chunk.usableSize))) }
    }

    /// Each class's objects, in the order their metadata was found.
    var tallies: [Tally] {
        classes.indices.map {
            Tally(metadata: classes[$0], count: columns.counts[$0], bytes: columns.bytes[$0], addresses: addresses[$0])
        }
    }
}

/// Each class's object count and bytes, and whether its objects are kept, in memory the census
/// owns: a walk adds to them once per object, with no array's bounds or uniqueness check (every
/// index it is given is one ``append()`` made).
final class TallyColumns {
    private(set) var count = 0
    private var capacity = 0
    private(set) var counts = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    private(set) var bytes = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    private(set) var keepsObjects = UnsafeMutablePointer<Bool>.allocate(capacity: 0)

    deinit {
        counts.deallocate()
        bytes.deallocate()
        keepsObjects.deallocate()
    }

    /// A new class's columns, zero.
    func append(keepingObjects: Bool = false) {
        if count == capacity {
            let larger = max(64, capacity * 2)
            func grown<T>(_ old: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<T> {
                let new = UnsafeMutablePointer<T>.allocate(capacity: larger)
                new.moveInitialize(from: old, count: count)
                old.deallocate()
                return new
            }
            (counts, bytes, keepsObjects) = (grown(counts), grown(bytes), grown(keepsObjects))
            capacity = larger
        }
        (counts + count).initialize(to: 0)
        (bytes + count).initialize(to: 0)
        (keepsObjects + count).initialize(to: keepingObjects)
        count += 1
    }

    /// Adds an object of `size` bytes to class `tally`; its count after that.
    @inline(__always)
    func add(_ size: Int, to tally: Int) -> Int {
        counts[tally] += 1
        bytes[tally] += size
        return counts[tally]
    }
}

/// A small map from nonzero words to indices (open addressing, a multiplicative hash): what
/// the census asks of it once per allocation, cheaper than a general dictionary's hashing.
struct WordTable {
    private var keys = [UInt64](repeating: 0, count: 64)
    private var values = [Int](repeating: 0, count: 64)
    private var count = 0

    private func slot(of key: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (keys.count - 1)
        while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & (keys.count - 1) }
        return slot
    }

    /// The index kept for `key`, if any.
    subscript(key: UInt64) -> Int? {
        let slot = slot(of: key)
        return key != 0 && keys[slot] == key ? values[slot] : nil
    }

    /// Keeps `value` for `key` (not zero: zero marks an empty slot).
    mutating func insert(_ key: UInt64, _ value: Int) {
        guard key != 0 else { return }
        if count * 2 >= keys.count { grow() }
        let slot = slot(of: key)
        if keys[slot] == 0 { count += 1 }
        (keys[slot], values[slot]) = (key, value)
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Int](repeating: 0, count: oldKeys.count * 2)
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key != 0 { insert(key, value) }
    }
}
