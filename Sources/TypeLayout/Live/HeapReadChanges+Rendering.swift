#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HeapReadChanges {
    /// One line for people: `changed while read: nothing the reader had to go around`, or what
    /// it read again, stepped over and cut short.
    public var text: String {
        guard !isEmpty else { return "changed while read: nothing the reader had to go around" }
        var parts: [String] = []
        if arenaReadings > 1 { parts.append("arenas found on reading \(arenaReadings)") }
        if windowsReread > 0 { parts.append("\(windowsReread) places read again") }
        if skippedRuns > 0 {
            let listed = skipped.map { "0x\(String($0.address, radix: 16)) (\($0.bytes) bytes)" }.joined(separator: ", ")
            let more = skippedRuns > skipped.count ? ", …" : ""
            parts.append("\(skippedRuns) runs of \(skippedBytes) bytes stepped over, no chunk verified there: \(listed)\(more)")
        }
        if listsCutShort > 0 { parts.append("\(listsCutShort) free lists cut short (allocation totals may include free chunks)") }
        if listEntriesGone > 0 { parts.append("\(listEntriesGone) free-list entries gone by the walk") }
        if heapsEndedEarly > 0 { parts.append("\(heapsEndedEarly) heaps ended early (the top moved down, or memory was returned)") }
        if mmappedChunksFound != mmappedChunksCounted {
            parts.append("\(mmappedChunksFound) mmapped chunks found, mp_ counted \(mmappedChunksCounted)")
        }
        return "changed while read: " + parts.joined(separator: "; ")
    }
}

extension HeapReadChanges: Codable {
    private enum CodingKeys: String, CodingKey {
        case arenaReadings, windowsReread, skipped, skippedRuns, skippedBytes, cutLists, listsCutShort, listEntriesGone
        case heapsEndedEarly, mmappedChunksFound, mmappedChunksCounted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            arenaReadings: try container.decode(Int.self, forKey: .arenaReadings),
            windowsReread: try container.decode(Int.self, forKey: .windowsReread),
            skipped: try container.decode([Skipped].self, forKey: .skipped),
            skippedRuns: try container.decode(Int.self, forKey: .skippedRuns),
            skippedBytes: try container.decode(UInt64.self, forKey: .skippedBytes),
            cutLists: try container.decode([CutList].self, forKey: .cutLists),
            listsCutShort: try container.decode(Int.self, forKey: .listsCutShort),
            listEntriesGone: try container.decode(Int.self, forKey: .listEntriesGone),
            heapsEndedEarly: try container.decode(Int.self, forKey: .heapsEndedEarly),
            mmappedChunksFound: try container.decode(Int.self, forKey: .mmappedChunksFound),
            mmappedChunksCounted: try container.decode(Int.self, forKey: .mmappedChunksCounted))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(arenaReadings, forKey: .arenaReadings)
        try container.encode(windowsReread, forKey: .windowsReread)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(skippedRuns, forKey: .skippedRuns)
        try container.encode(skippedBytes, forKey: .skippedBytes)
        try container.encode(cutLists, forKey: .cutLists)
        try container.encode(listsCutShort, forKey: .listsCutShort)
        try container.encode(listEntriesGone, forKey: .listEntriesGone)
        try container.encode(heapsEndedEarly, forKey: .heapsEndedEarly)
        try container.encode(mmappedChunksFound, forKey: .mmappedChunksFound)
        try container.encode(mmappedChunksCounted, forKey: .mmappedChunksCounted)
    }
}

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

extension HeapReadChanges.ListKind: Codable {}

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
