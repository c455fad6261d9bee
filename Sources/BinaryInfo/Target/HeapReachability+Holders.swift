extension HeapReachability {
    /// Every root word that points into the allocation at `index` (registers first, then root
    /// memory in address order), at most `limit` of them: the roots are read again.
    ///
    /// - Throws: a read error when root memory that was read for the marking cannot be now.
    public func rootWords(pointingInto index: Int, limit: Int = 64) throws(BinaryInfoError) -> [HeapRootWord] {
        var found: [HeapRootWord] = []
        for thread in threads {
            for (register, word) in thread.words.enumerated() where allocation(containing: word) == index {
                found.append(.register(thread: thread.id, index: register))
            }
        }
        for range in rootRanges {
            try forEachWord(in: range, what: "a root (writable memory outside the heap)") { address, word in
                if found.count < limit, allocation(containing: word) == index { found.append(.memory(address: address)) }
            }
        }
        return Array(found.prefix(limit))
    }

    /// The pointers among the allocations no root reaches, over their positions in `unreached`
    /// (``unreachable``): node `n` is allocation `unreached[n]`. Each is read again (a side
    /// table's object pointer left out, as in the marking).
    public func unreachedGraph(_ unreached: [Int]) throws(BinaryInfoError) -> AdjacencyGraph {
        var sources: [UInt32] = []
        var targets: [UInt32] = []
        var node: [Int: UInt32] = [:]
        for (position, index) in unreached.enumerated() { node[index] = UInt32(position) }
        for (position, index) in unreached.enumerated() {
            let start = addresses[index] + (sideTablePositions.contains(index) ? 8 : 0)
            var last: UInt32?
            try forEachWord(in: start..<(addresses[index] + sizes[index]), what: "an unreached allocation") { _, word in
                guard let held = allocation(containing: word), let target = node[held], target != last else { return }
                sources.append(UInt32(position))
                targets.append(target)
                last = target
            }
        }
        return AdjacencyGraph(nodeCount: unreached.count, sources: sources, targets: targets)
    }

    /// Calls `body` with each aligned word of `range` and its address, read a megabyte at a time.
    func forEachWord(in range: Range<UInt64>, what: String, _ body: (UInt64, UInt64) -> Void) throws(BinaryInfoError) {
        var start = (range.lowerBound + 7) & ~7
        guard start < range.upperBound else { return }
        // Sized to the range: this is called for every unreached allocation, most of them small.
        var buffer = [UInt8](repeating: 0, count: Int(min(1 << 20, (range.upperBound - start + 7) & ~7)))
        while start < range.upperBound, range.upperBound - start >= 8 {
            let count = Int(min(UInt64(buffer.count), (range.upperBound - start) & ~7))
            var failure: BinaryInfoError?
            buffer.withUnsafeMutableBytes { bytes in
                do throws(BinaryInfoError) {
                    try target.fetch(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), from: start, what: what)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            buffer.withUnsafeBytes { bytes in
                for word in 0..<(count / 8) {
                    body(start + UInt64(word * 8), bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self))
                }
            }
            start += UInt64(count)
        }
    }
}
