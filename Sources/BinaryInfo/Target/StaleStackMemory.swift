/// The parts of a target's thread stacks that hold nothing live: below each running thread's
/// stack pointer (less the x86_64 ABI's 128-byte red zone, where a leaf function may keep
/// values), and the stack of each ended thread whose block glibc keeps (cached for reuse, or not
/// yet joined). What a thread left there is stale: counting it as a root would keep leaked
/// allocations reachable.
///
/// A range is cut only where its mapping is known to be that thread's stack: its run of writable
/// memory starts at a guard page (a mapping neither readable nor writable in a process; in a
/// core, non-writable anonymous memory, which is how gcore and the kernel write a guard) or is
/// the main thread's stack. A thread with no guard page (a guard size of 0) may share its
/// mapping with memory the kernel merged below it, so its stack is scanned whole: a root too
/// many only hides a leak.
struct StaleStackMemory {
    /// The stale ranges, sorted by address.
    let ranges: [Range<UInt64>]

    /// The x86_64 System V ABI's red zone: a function may use the 128 bytes below its stack
    /// pointer without moving it.
    static let redZone: UInt64 = 128

    /// - Parameters:
    ///   - regions: the target's readable regions, sorted.
    ///   - heap: the heaps' and mmapped chunks' ranges, sorted (a stack allocated with `malloc`
    ///     is an allocation, reached from the stack pointer and scanned whole).
    ///   - guardEnds: the addresses just past each guard page.
    ///   - mainThread: the main thread's id (the process id): its stack is the kernel's.
    static func find(
        regions: [TargetRegion], heap: [Range<UInt64>], threads: [ThreadRegisters], stacks: GlibcThreadStacks?, guardEnds: Set<UInt64>,
        mainThread: Int32?
    ) -> StaleStackMemory {
        func inHeap(_ address: UInt64) -> Bool { heap.contains { $0.contains(address) } }
        var ranges: [Range<UInt64>] = []
        var liveRuns: [Range<UInt64>] = []
        for thread in threads {
            let pointer = thread.stackPointer
            guard !inHeap(pointer), let start = regions.contiguousStart(to: pointer), let end = regions.contiguousEnd(from: pointer) else {
                continue
            }
            liveRuns.append(start..<end)
            let isMain = thread.id == mainThread || regions.region(containing: pointer)?.isStack == true
            guard isMain || guardEnds.contains(start), pointer >= start + Self.redZone else { continue }
            let low = (pointer - Self.redZone) & ~7
            if low > start { ranges.append(start..<low) }
        }
        if let stacks {
            let ended = stacks.cached + stacks.used.filter { $0.threadID <= 0 }
            for block in ended where !inHeap(block.address) {
                guard let start = regions.contiguousStart(to: block.address), let end = regions.contiguousEnd(from: block.address),
                    guardEnds.contains(start), !liveRuns.contains(where: { $0.overlaps(start..<end) })
                else { continue }
                if block.address > start { ranges.append(start..<(block.address & ~7)) }
            }
        }
        return StaleStackMemory(ranges: ranges.sorted { $0.lowerBound < $1.lowerBound })
    }
}

extension TargetMemory {
    /// The address just past each guard page of the target: a process's mappings that are
    /// neither readable nor writable; a core's non-writable anonymous memory (gcore writes a
    /// guard page as readable, the kernel as a segment without permissions).
    func guardEnds() throws(BinaryInfoError) -> Set<UInt64> {
        try source.guardEnds()
    }
}
