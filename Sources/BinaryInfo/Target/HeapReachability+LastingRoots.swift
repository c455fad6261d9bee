extension HeapReachability {
    /// The allocations that root words outside the threads' stacks and registers point into
    /// (an image's data and bss, thread-local storage, other mappings: the roots that outlast a
    /// function call), each with the first such word in an image and the first elsewhere; the
    /// root memory is read again.
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
        // Each allocation once from an image and once from elsewhere: a word elsewhere met first
        // must not hide a global's.
        var seenFromImage = AllocationBits(allocations: addresses.count)
        var seenElsewhere = AllocationBits(allocations: addresses.count)
        var found: [(allocation: Int, word: HeapRootWord, inImage: Bool)] = []
        for range in rootRanges {
            try forEachWord(in: range, what: "a root (writable memory outside the heap)") { address, word in
                guard let index = allocation(containing: word), !seenFromImage.contains(index) || !seenElsewhere.contains(index)
                else { return }
                let place = place(of: .memory(address: address))
                switch place {
                case .threadStack: return
                // An image's bss past its file's end is the anonymous mapping right after it.
                case .image,
                    .mapping(_, _, nil, _) where isBeyondAnImage(place):
                    guard !seenFromImage.contains(index) else { return }
                    seenFromImage.insert(index)
                    found.append((index, .memory(address: address), true))
                default:
                    guard !seenElsewhere.contains(index) else { return }
                    seenElsewhere.insert(index)
                    found.append((index, .memory(address: address), false))
                }
            }
        }
        return found
    }

    /// Whether `place` is anonymous memory that starts where an image's mappings end: the
    /// image's bss past its file's end, which its globals lie in as much as in its data.
    private func isBeyondAnImage(_ place: HeapRootPlace) -> Bool {
        switch place {
        case .image: return true
        case .mapping(let start, _, nil, _): return target.images.contains { $0.addressRange.upperBound == start }
        default: return false
        }
    }
}
