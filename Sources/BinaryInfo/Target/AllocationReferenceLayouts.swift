/// Where the references of Swift objects lie, by class: what lets ``HeapReachability`` follow
/// the words of an object that are references before any other word.
///
/// A plan lists only the words its type's lowering proves to be strong references; every other
/// word of the object (an `Int`, a `[UInt8]`'s bytes, a weak or unowned reference, an
/// existential's inline buffer, an `Unmanaged`, padding, anything the lowering could not make
/// exact) is still scanned, after the references, so that an allocation held only by a word that
/// looks like a pointer stays reachable: a plan changes which path reaches an allocation first,
/// never whether it is reached.
public struct AllocationReferenceLayouts: Sendable {
    /// The plan of each class, by its metadata's address (an object's first word).
    public let plans: [UInt64: AllocationReferencePlan]

    /// Plans by class metadata address.
    public init(plans: [UInt64: AllocationReferencePlan]) { self.plans = plans }

    /// No plans: every allocation is scanned conservatively.
    public static let none = AllocationReferenceLayouts(plans: [:])
}

/// The word offsets of one class's instances, and of its tail-allocated elements, that hold
/// strong references (or are nil), and those that hold weak or unowned ones.
public struct AllocationReferencePlan: Sendable, Hashable {
    /// The offsets of the instance's strong reference words (from the object's address), ascending.
    public let strong: [UInt32]
    /// The offsets of weak references (each holds its side table's address, tagged).
    public let weak: [UInt32]
    /// The offsets of `unowned` references.
    public let unowned: [UInt32]
    /// The tail-allocated elements (array storage's), when their type is known.
    public let elements: Elements?

    /// Elements laid out one after another from `start`, `count` of them (the word at
    /// `countOffset`), each with strong references at the offsets `strong` from its start.
    public struct Elements: Sendable, Hashable {
        /// Where the first element starts (from the object's address).
        public var start: UInt32
        /// The element type's stride.
        public var stride: UInt32
        /// Where the instance keeps how many elements are initialized (a word).
        public var countOffset: UInt32
        /// The offsets of strong reference words in one element, ascending.
        public let strong: [UInt32]

        /// Elements from `start`, each `stride` bytes, counted by the word at `countOffset`.
        public init(start: UInt32, stride: UInt32, countOffset: UInt32, strong: [UInt32]) {
            self.start = start
            self.stride = stride
            self.countOffset = countOffset
            self.strong = strong
        }
    }

    /// A plan with these reference offsets.
    public init(strong: [UInt32], weak: [UInt32] = [], unowned: [UInt32] = [], elements: Elements? = nil) {
        self.strong = strong
        self.weak = weak
        self.unowned = unowned
        self.elements = elements
        fixedMask = Self.mask(strong)
        elementMask = Self.mask(elements?.strong ?? [])
    }

    /// A bit per word of the instance (before the elements), set for strong references.
    let fixedMask: [UInt64]
    /// A bit per word of one element, set for strong references.
    let elementMask: [UInt64]

    /// Whether the word at `offset` of an object is one of its strong references, when
    /// `elementCount` of its elements are initialized.
    public func isStrong(wordOffset offset: UInt64, elementCount: UInt64) -> Bool {
        if let elements, offset >= UInt64(elements.start) {
            guard elements.stride > 0, !elementMask.isEmpty else { return false }
            let relative = offset - UInt64(elements.start)
            guard relative / UInt64(elements.stride) < elementCount else { return false }
            let inner = relative % UInt64(elements.stride)
            return inner & 7 == 0 && Self.contains(elementMask, word: inner >> 3)
        }
        return offset & 7 == 0 && Self.contains(fixedMask, word: offset >> 3)
    }

    static func contains(_ mask: [UInt64], word: UInt64) -> Bool {
        word < UInt64(mask.count) * 64 && mask[Int(word >> 6)] & (1 << (word & 63)) != 0
    }

    private static func mask(_ offsets: [UInt32]) -> [UInt64] {
        var mask: [UInt64] = []
        for offset in offsets where offset & 7 == 0 {
            let word = Int(offset >> 3)
            while mask.count <= word >> 6 { mask.append(0) }
            mask[word >> 6] |= 1 << UInt64(word & 63)
        }
        return mask
    }
}
