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
