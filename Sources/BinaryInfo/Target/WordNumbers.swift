/// A fixed map from nonzero words (class metadata addresses) to their positions in a list: what
/// the marking asks once per scanned allocation, cheaper than a general dictionary's hashing.
/// Open addressing with a multiplicative hash, at most half full.
struct WordNumbers {
    private var keys: [UInt64]
    private var values: [UInt32]
    private let mask: Int

    /// Each nonzero word of `words` numbered by its position (the first, for a word listed twice).
    init(_ words: [UInt64]) {
        var capacity = 16
        while capacity < words.count * 2 { capacity *= 2 }
        keys = [UInt64](repeating: 0, count: capacity)
        values = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
        for (position, word) in words.enumerated() where word != 0 && position < Int(UInt32.max) {
            let slot = slot(of: word)
            guard keys[slot] == 0 else { continue }
            (keys[slot], values[slot]) = (word, UInt32(position))
        }
    }

    /// Whether no word is numbered.
    var isEmpty: Bool { keys.allSatisfy { $0 == 0 } }

    @inline(__always)
    private func slot(of word: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while keys[slot] != 0, keys[slot] != word { slot = (slot + 1) & mask }
        return slot
    }

    /// The position of `word`, ``none`` when it is not listed.
    @inline(__always)
    func number(of word: UInt64) -> UInt32 {
        guard word != 0 else { return Self.none }
        let slot = slot(of: word)
        return keys[slot] == word ? values[slot] : Self.none
    }

    /// What ``number(of:)`` answers for a word not listed.
    static let none = UInt32.max
}
