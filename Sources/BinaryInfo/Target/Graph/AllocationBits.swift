/// One bit per allocation of a heap, by its position among the heap's allocations in address
/// order: a set of millions of positions in an eighth of a byte each, where a `Set<Int>` costs
/// dozens of bytes and a hash per lookup.
public struct AllocationBits: Sendable, Hashable {
    private var words: [UInt64]
    /// How many positions are in the set.
    public private(set) var count = 0

    /// An empty set over `allocations` positions.
    public init(allocations: Int) {
        words = Array(repeating: 0, count: (allocations + 63) / 64)
    }

    /// Whether `position` is in the set.
    public func contains(_ position: Int) -> Bool { words[position >> 6] & (1 << UInt64(position & 63)) != 0 }

    /// Puts `position` in the set.
    public mutating func insert(_ position: Int) {
        let bit = UInt64(1) << UInt64(position & 63)
        if words[position >> 6] & bit == 0 { count += 1 }
        words[position >> 6] |= bit
    }

    /// The positions in the set, ascending.
    public var positions: some Sequence<Int> {
        words.indices.lazy.flatMap { slot in
            sequence(state: words[slot]) { (bits: inout UInt64) -> Int? in
                guard bits != 0 else { return nil }
                let bit = bits.trailingZeroBitCount
                bits &= bits - 1
                return slot << 6 | bit
            }
        }
    }
}
