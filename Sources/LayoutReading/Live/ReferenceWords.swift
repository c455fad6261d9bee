import BinaryInfo

/// Which words of a holder are references, by the plan its class has in the marking
/// (``HeapReachability/referenceLayouts``): what path steps and cycles prefer, and what a step
/// through another word is marked by.
enum ReferenceWords {
    /// The plan of the allocation at `holder`: its first word's class's; nil for an allocation
    /// that is no Swift object with a plan (scanned conservatively throughout).
    static func plan(of holder: Int, _ reachability: HeapReachability) -> AllocationReferencePlan? {
        guard !reachability.referenceLayouts.plans.isEmpty else { return nil }
        // The marking keeps the first words only when asked; else the holder's is read again.
        let firstWord =
            reachability.firstWords.isEmpty ? (try? reachability.firstWords(of: [holder]))?.first : reachability.firstWords[holder]
        return firstWord.flatMap { reachability.referenceLayouts.plans[$0] }
    }

    /// How many elements the object holds, by its plan's count word in `bytes` (the object's
    /// bytes from its start); 0 when it has no elements or the word is not among `bytes`.
    static func elementCount(_ plan: AllocationReferencePlan, bytes: [UInt8]) -> UInt64 {
        guard let elements = plan.elements, Int(elements.countOffset) + 8 <= bytes.count else { return 0 }
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: Int(elements.countOffset), as: UInt64.self)) }
    }

    /// Whether the word at `offset` of `holder` is one of its strong references: nil when the
    /// holder has no plan, or its element count cannot be read.
    static func isStrong(in holder: Int, at offset: UInt64, _ reachability: HeapReachability, memory: TargetMemory) -> Bool? {
        guard let plan = plan(of: holder, reachability) else { return nil }
        var count: UInt64 = 0
        if let elements = plan.elements, offset >= UInt64(elements.start) {
            guard
                let word = try? memory.read(
                    UInt64.self, at: reachability.addresses[holder] &+ UInt64(elements.countOffset), what: "an array's count")
            else { return nil }
            count = word
        }
        return plan.isStrong(wordOffset: offset, elementCount: count)
    }

    /// For each allocation a word of `holder` points into, the offset of the word that path steps
    /// name: the first of its strong references that points there where one does (a holder can
    /// hold an object by a reference and also by a word that only looks like one), else its first
    /// word that does. Nil when the holder cannot be read, or is larger than is worth reading.
    static func pointingOffsets(in holder: Int, _ reachability: HeapReachability, memory: TargetMemory) -> [Int: UInt64]? {
        let size = reachability.sizes[holder]
        guard size <= 1 << 26, let bytes = try? memory.bytes(at: reachability.addresses[holder], count: Int(size), what: "a holder") else {
            return nil
        }
        let plan = plan(of: holder, reachability)
        let count = plan.map { elementCount($0, bytes: bytes) } ?? 0
        var offsets: [Int: (offset: UInt64, strong: Bool)] = [:]
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            if let held = reachability.allocation(containing: word), offsets[held]?.strong != true {
                // Without a plan every word counts alike: the first one stands.
                let strong = plan?.isStrong(wordOffset: UInt64(offset), elementCount: count) ?? true
                if offsets[held] == nil || strong { offsets[held] = (UInt64(offset), strong) }
            }
            offset += 8
        }
        return offsets.mapValues(\.offset)
    }

    /// The holders whose word pointing to the next is a strong reference, or that have no plan
    /// (their every word counts alike): what a cycle is drawn through first.
    ///
    /// - Parameters:
    ///   - holder: the allocation position of the holder; `held` the one it points into.
    static func isPreferredEdge(from holder: Int, to held: Int, _ reachability: HeapReachability, memory: TargetMemory) -> Bool {
        let plans = reachability.referenceLayouts.plans
        guard !plans.isEmpty else { return true }
        let size = reachability.sizes[holder]
        guard size <= 1 << 26, let bytes = try? memory.bytes(at: reachability.addresses[holder], count: Int(size), what: "a holder") else {
            // Unread, its plan is not known either: every word counts alike.
            return plan(of: holder, reachability) == nil
        }
        // The holder's first word (its class, for a Swift object) is among the bytes just read.
        let firstWord = bytes.count >= 8 ? bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } : 0
        guard let plan = plans[firstWord] else { return true }
        let count = elementCount(plan, bytes: bytes)
        var offset = 0
        while offset + 8 <= bytes.count {
            if plan.isStrong(wordOffset: UInt64(offset), elementCount: count) {
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
                if reachability.allocation(containing: word) == held { return true }
            }
            offset += 8
        }
        return false
    }
}
