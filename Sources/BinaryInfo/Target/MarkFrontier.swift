/// The allocations the marking reached and has not scanned yet, handed out a round at a time in
/// address order: a list while the round is small (a deep list's rounds hold one allocation
/// each), one bit per allocation once it is large (a round of millions costs an eighth of a byte
/// each, not four bytes and a sorted copy).
struct MarkFrontier {
    private var list: [UInt32] = []
    private var bits: [UInt64]
    private var inBits = false
    /// The most positions kept as a list: as many bytes as the bits take.
    private let listLimit: Int

    init(allocations: Int) {
        bits = []
        listLimit = max(64, (allocations + 31) / 32)
        self.allocations = allocations
    }

    private let allocations: Int

    /// Adds a position not added before in this round.
    @inline(__always)
    mutating func insert(_ position: Int) {
        if inBits {
            bits[position >> 6] |= 1 << UInt64(position & 63)
            return
        }
        list.append(UInt32(position))
        if list.count > listLimit {
            if bits.isEmpty { bits = [UInt64](repeating: 0, count: (allocations + 63) / 64) }
            for position in list { bits[Int(position) >> 6] |= 1 << UInt64(position & 63) }
            list = []
            inBits = true
        }
    }

    /// The positions added since the last round, ascending, and a fresh frontier for the next;
    /// nil when none were.
    mutating func takeRound() -> Round? {
        if inBits {
            let taken = bits
            // A round this large holds more than 1/32 of the allocations: at most 32 of them
            // ever take bits of their own.
            bits = []
            inBits = false
            return Round(storage: .bits(taken))
        }
        guard !list.isEmpty else { return nil }
        var taken = list
        list = []
        taken.sort()
        return Round(storage: .list(taken))
    }

    /// One round's positions, ascending.
    struct Round: Sequence {
        enum Storage {
            case list([UInt32])
            case bits([UInt64])
        }
        let storage: Storage

        func makeIterator() -> Iterator { Iterator(storage: storage) }

        struct Iterator: IteratorProtocol {
            let storage: Storage
            private var cursor = 0
            private var word: UInt64 = 0

            init(storage: Storage) { self.storage = storage }

            mutating func next() -> Int? {
                switch storage {
                case .list(let list):
                    guard cursor < list.count else { return nil }
                    cursor += 1
                    return Int(list[cursor - 1])
                case .bits(let bits):
                    while word == 0 {
                        guard cursor < bits.count else { return nil }
                        word = bits[cursor]
                        cursor += 1
                    }
                    let bit = word.trailingZeroBitCount
                    word &= word - 1
                    return (cursor - 1) << 6 | bit
                }
            }
        }
    }
}
