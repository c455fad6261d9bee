/// What changed under a reading of a running process's heap, as the reader met it.
///
/// A process that runs while its heap is read allocates and frees meanwhile: a chunk header read
/// a moment ago may be another chunk's bytes now, a free list may lead into a chunk that was
/// handed out since. The reader of a running process does not give up on such a place: it reads
/// the memory again, or steps over it to the next verified run of chunks, and says so here. An
/// allocation that stayed alive throughout the reading is never stepped over: its header does not
/// change while it lives and no other chunk overlaps it. Free lists only decide which chunks
/// marked in use are free, which changes the totals of allocations, not the count of Swift
/// objects (a freed chunk holds a list link where an object holds its metadata).
public struct HeapReadChanges: Sendable, Hashable, Codable {
    /// A run of heap bytes the walk stepped over: no verified chunk started there in any reading.
    public struct Skipped: Sendable, Hashable {
        /// Where the run starts (a chunk boundary the walk reached).
        public var address: UInt64
        /// How many bytes it spans, up to the verified chunk the walk went on from.
        public var bytes: UInt64

        public init(address: UInt64, bytes: UInt64) {
            self.address = address
            self.bytes = bytes
        }
    }

    /// Which free list a reading cut short.
    public enum ListKind: String, Sendable, Hashable, CaseIterable, Codable {
        /// An arena's fastbin.
        case fastbin
        /// A bin of a thread's tcache.
        case tcache
    }

    /// A free list read up to its first entry that no longer fit, and no further.
    public struct CutList: Sendable, Hashable {
        public var kind: ListKind
        /// The arena's `struct malloc_state`, or the tcache's chunk.
        public var owner: UInt64
        /// The bin's index.
        public var bin: Int
        /// How many entries were taken before the cut.
        public var entriesTaken: Int

        public init(kind: ListKind, owner: UInt64, bin: Int, entriesTaken: Int) {
            self.kind = kind
            self.owner = owner
            self.bin = bin
            self.entriesTaken = entriesTaken
        }
    }

    /// How many times the arenas were looked for before they verified (1: at once).
    public var arenaReadings: Int
    /// How many stretches of heap memory were read again because what they held stopped fitting.
    public var windowsReread: Int
    /// The runs of bytes stepped over (at most ``maximumListed`` listed; ``skippedRuns`` and
    /// ``skippedBytes`` count them all).
    public var skipped: [Skipped]
    /// How many runs were stepped over.
    public var skippedRuns: Int
    /// Their bytes.
    public var skippedBytes: UInt64
    /// The free lists cut short (at most ``maximumListed`` listed; ``listsCutShort`` counts them all).
    public var cutLists: [CutList]
    /// How many free lists were cut short.
    public var listsCutShort: Int
    /// Free-list entries the heap walk then found no chunk marked in use for (it was taken off
    /// the list, or merged, meanwhile).
    public var listEntriesGone: Int
    /// How many heaps ended before the end read when the heap was opened: the arena's top moved
    /// down to the walk (frees merged into it), or the memory was returned to the system.
    public var heapsEndedEarly: Int
    /// The mmapped chunks found, and how many `mp_.n_mmaps` counted (the two are read at
    /// different moments of a running process).
    public var mmappedChunksFound: Int
    public var mmappedChunksCounted: Int

    /// The most runs and lists listed by address; the counts go on.
    public static let maximumListed = 16

    public init(
        arenaReadings: Int = 1, windowsReread: Int = 0, skipped: [Skipped] = [], skippedRuns: Int = 0, skippedBytes: UInt64 = 0,
        cutLists: [CutList] = [], listsCutShort: Int = 0, listEntriesGone: Int = 0, heapsEndedEarly: Int = 0,
        mmappedChunksFound: Int = 0, mmappedChunksCounted: Int = 0
    ) {
        self.arenaReadings = arenaReadings
        self.windowsReread = windowsReread
        self.skipped = skipped
        self.skippedRuns = skippedRuns
        self.skippedBytes = skippedBytes
        self.cutLists = cutLists
        self.listsCutShort = listsCutShort
        self.listEntriesGone = listEntriesGone
        self.heapsEndedEarly = heapsEndedEarly
        self.mmappedChunksFound = mmappedChunksFound
        self.mmappedChunksCounted = mmappedChunksCounted
    }

    /// Whether nothing changed under the reading that the reader had to work around.
    public var isEmpty: Bool {
        arenaReadings <= 1 && windowsReread == 0 && skippedRuns == 0 && listsCutShort == 0 && listEntriesGone == 0
            && heapsEndedEarly == 0 && mmappedChunksFound == mmappedChunksCounted
    }

    /// Records a run stepped over.
    public mutating func skip(_ run: Skipped) {
        skippedRuns += 1
        skippedBytes += run.bytes
        if skipped.count < Self.maximumListed { skipped.append(run) }
    }

    /// Records a free list cut short.
    public mutating func cut(_ list: CutList) {
        listsCutShort += 1
        if cutLists.count < Self.maximumListed { cutLists.append(list) }
    }
}

// A run's and a list's addresses are written as `0x` text, as every address in the JSON.
extension HeapReadChanges.Skipped: Codable {
    private enum CodingKeys: String, CodingKey { case address, bytes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .address)
        guard text.hasPrefix("0x"), let address = UInt64(text.dropFirst(2), radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .address, in: container, debugDescription: "not a 0x address: \(text)")
        }
        self.init(address: address, bytes: try container.decode(UInt64.self, forKey: .bytes))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("0x" + String(address, radix: 16), forKey: .address)
        try container.encode(bytes, forKey: .bytes)
    }
}

extension HeapReadChanges.CutList: Codable {
    private enum CodingKeys: String, CodingKey { case kind, owner, bin, entriesTaken }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .owner)
        guard text.hasPrefix("0x"), let owner = UInt64(text.dropFirst(2), radix: 16) else {
            throw DecodingError.dataCorruptedError(forKey: .owner, in: container, debugDescription: "not a 0x address: \(text)")
        }
        self.init(
            kind: try container.decode(HeapReadChanges.ListKind.self, forKey: .kind), owner: owner,
            bin: try container.decode(Int.self, forKey: .bin), entriesTaken: try container.decode(Int.self, forKey: .entriesTaken))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode("0x" + String(owner, radix: 16), forKey: .owner)
        try container.encode(bin, forKey: .bin)
        try container.encode(entriesTaken, forKey: .entriesTaken)
    }
}
