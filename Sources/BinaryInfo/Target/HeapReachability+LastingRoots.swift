extension HeapReachability {
    /// The allocations that root words outside the threads' stacks and registers point into
    /// (an image's data and bss, thread-local storage, other mappings: the roots that outlast a
    /// function call), each once, with the first such word; the root memory is read again.
    ///
    /// A stack word may be a live variable or a stale copy a frame never cleared; which, the
    /// memory does not say. Paths from these roots name the owner a program keeps an object
    /// through, where a stack word's path may be shorter.
    ///
    /// Each reach says whether its word lies in an image (a global: `inImage`), which outlasts
    /// every thread, or in thread-local storage or another mapping.
    ///
    /// - Throws: a read error when root memory that was read for the marking cannot be now.
    public func lastingRootReaches() throws(BinaryInfoError) -> [(allocation: Int, word: HeapRootWord, inImage: Bool)] {
        var seen = AllocationBits(allocations: addresses.count)
        var found: [(allocation: Int, word: HeapRootWord, inImage: Bool)] = []
        for range in rootRanges {
            try forEachWord(in: range, what: "a root (writable memory outside the heap)") { address, word in
                guard let index = allocation(containing: word), !seen.contains(index) else { return }
                let place = place(of: .memory(address: address))
                if case .threadStack = place { return }
                seen.insert(index)
                if case .image = place {
                    found.append((index, .memory(address: address), true))
                } else {
                    found.append((index, .memory(address: address), false))
                }
            }
        }
        return found
    }
}
