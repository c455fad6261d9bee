import Algorithms

/// The pointer slots of an image whose values the loader (or an object file's relocations)
/// supplies, sorted by address.
///
/// A large image has tens of thousands of relocations and a question looks at a few of them:
/// sorting their addresses as plain integers costs a fraction of filling a dictionary, and a
/// lookup is a binary search. Slots are kept as plain words (the few imported names apart), so
/// building and sorting the table copies no strings.
struct PointerSlots: Sendable, Sequence {
    typealias Element = (address: UInt64, target: PointerTarget)

    /// One slot: the address it points to, or (`name >= 0`) the imported symbol `names[name]`.
    private struct Slot {
        var address: UInt64
        var value: UInt64
        var name: Int
        /// Fills the slot only where nothing else does.
        var isFallback: Bool
    }

    /// Sorted by address, one slot an address, once ``sort()`` has run.
    private var slots: [Slot] = []
    private var names: [String] = []
    private var isSorted = true

    /// Records a slot; a later ``record(_:at:)`` of the same address replaces it (as a later relocation does).
    mutating func record(_ target: PointerTarget, at address: UInt64) {
        append(target, at: address, isFallback: false)
    }

    /// Records a slot only where no ``record(_:at:)`` and no earlier fallback fills the address.
    mutating func recordFallback(_ target: PointerTarget, at address: UInt64) {
        append(target, at: address, isFallback: true)
    }

    private mutating func append(_ target: PointerTarget, at address: UInt64, isFallback: Bool) {
        switch target {
        case .address(let value):
            slots.append(Slot(address: address, value: value, name: -1, isFallback: isFallback))
        case .symbol(let name):
            slots.append(Slot(address: address, value: 0, name: names.count, isFallback: isFallback))
            names.append(name)
        }
        isSorted = false
    }

    /// Sorts what was recorded into the table; called when the address space is complete.
    mutating func sort() {
        guard !isSorted else { return }
        isSorted = true
        var sorted: [Slot] = []
        sorted.reserveCapacity(slots.count)
        var chosen: Slot?
        var fallback: Slot?
        // Of the records at one address, the last ordinary one wins, else the first fallback.
        for position in Self.positionsByAddress(slots.map(\.address)) {
            let slot = slots[position]
            if let current = chosen ?? fallback, current.address != slot.address {
                sorted.append(current)
                (chosen, fallback) = (nil, nil)
            }
            if !slot.isFallback {
                chosen = slot
            } else if fallback == nil {
                fallback = slot
            }
        }
        if let last = chosen ?? fallback { sorted.append(last) }
        slots = sorted
    }

    /// The positions of `addresses` in address order, positions in order among equal addresses.
    /// Where each address and its position fit one 64-bit word together (every real image), they
    /// are packed into one and sorted as integers, several times cheaper than sorting records.
    static func positionsByAddress(_ addresses: [UInt64]) -> [Int] {
        let positionBits = UInt64(Swift.max(1, Int.bitWidth - addresses.count.leadingZeroBitCount))
        let addressLimit: UInt64 = 1 << (64 - positionBits)
        if addresses.allSatisfy({ $0 < addressLimit }) {
            var packed = addresses.enumerated().map { $0.element << positionBits | UInt64($0.offset) }
            packed.sort()
            let mask: UInt64 = (1 << positionBits) - 1
            return packed.map { Int($0 & mask) }
        }
        return addresses.indices.sorted { (addresses[$0], $0) < (addresses[$1], $1) }
    }

    private func target(of slot: Slot) -> PointerTarget {
        slot.name >= 0 ? .symbol(names[slot.name]) : .address(slot.value)
    }

    /// The target of the slot at `address`, if one was recorded (after ``sort()``).
    subscript(address: UInt64) -> PointerTarget? {
        let low = slots.partitioningIndex { $0.address >= address }
        guard low < slots.count, slots[low].address == address else { return nil }
        return target(of: slots[low])
    }

    /// The slots in address order (after ``sort()``).
    func makeIterator() -> some IteratorProtocol<Element> {
        slots.lazy.map { (address: $0.address, target: target(of: $0)) }.makeIterator()
    }
}
