import Foundation
import Testing
import TypeLayout

@testable import BinaryInfo

/// A run of glibc chunks built in this test's own memory and read through this process's
/// memory like any target's, changed between two reads as a running allocator changes its heap.
private final class SyntheticHeap {
    /// The chunks' sizes in order, then the top chunk; stable chunks hold a marker first word.
    static let sizes: [UInt64] = [32, 48, 64, 32, 48, 32, 48, 96, 48, 32, 64]
    static let stable: Set<Int> = [1, 4, 6, 8]
    static let bytes = 4096
    let base: UnsafeMutableRawPointer
    let addresses: [UInt64]
    let top: UInt64

    init() {
        let base = UnsafeMutableRawPointer.allocate(byteCount: Self.bytes, alignment: 4096)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: Self.bytes)
        func store(_ value: UInt64, at address: UInt64) {
            base.storeBytes(of: value, toByteOffset: Int(address - UInt64(UInt(bitPattern: base))), as: UInt64.self)
        }
        var address = UInt64(UInt(bitPattern: base))
        var addresses: [UInt64] = []
        for (index, size) in Self.sizes.enumerated() {
            addresses.append(address)
            store(size | GlibcMallocLayout.previousInUse, at: address + 8)
            store(Self.stable.contains(index) ? Self.marker(index) : 0x1111_0000 + UInt64(index), at: address + 16)
            address += size
        }
        self.base = base
        self.addresses = addresses
        top = address
        store((UInt64(UInt(bitPattern: base)) + UInt64(Self.bytes) - top) | GlibcMallocLayout.previousInUse, at: top + 8)
    }

    deinit { base.deallocate() }

    static func marker(_ index: Int) -> UInt64 { 0xAAAA_0000 + UInt64(index) }

    func store(_ value: UInt64, at address: UInt64) {
        base.storeBytes(of: value, toByteOffset: Int(address - UInt64(UInt(bitPattern: base))), as: UInt64.self)
    }

    var segment: GlibcHeapSegment {
        let start = UInt64(UInt(bitPattern: base))
        return GlibcHeapSegment(firstChunk: start, end: top, endsAtTop: true, occupied: start..<(start + UInt64(Self.bytes)))
    }

    /// Walks it as a running process's heap, calling `change` before each fresh read (with its
    /// number, from 1); the arena's top is where `currentTop` says.
    func walk(
        currentTop: @escaping () -> (address: UInt64, size: UInt64)? = { nil }, change: @escaping (Int) -> Void = { _ in }
    ) throws -> (visited: [GlibcChunkRecord], changes: HeapReadChanges) {
        let window = TargetWindow(target: try TargetMemory(.process(getpid())), size: 1024)
        var reads = 0
        window.beforeReading = { _ in
            reads += 1
            change(reads)
        }
        var changes = HeapReadChanges()
        var visited: [GlibcChunkRecord] = []
        _ = try window.walkWhileChanging(segment, arena: GlibcChangingArena(isMain: true, currentTop: currentTop), changes: &changes) {
            visited.append($0)
        }
        return (visited, changes)
    }

    /// The stable chunks' markers the walk met, once each.
    static func stableMet(_ visited: [GlibcChunkRecord]) -> [UInt64] {
        visited.filter { $0.markedInUse && $0.firstWord & 0xFFFF_0000 == 0xAAAA_0000 }.map(\.firstWord)
    }
}

@Suite("glibc heap walk of memory that changes while it is read")
struct GlibcChangingWalkTests {
    static let allStable = SyntheticHeap.stable.sorted().map(SyntheticHeap.marker)

    static func expectEachOnceInOrder(_ visited: [GlibcChunkRecord], sourceLocation: SourceLocation = #_sourceLocation) {
        let addresses = visited.map(\.address)
        #expect(addresses == addresses.sorted() && Set(addresses).count == addresses.count, sourceLocation: sourceLocation)
    }

    @Test func aStableHeapIsWalkedWithoutChanges() throws {
        let heap = SyntheticHeap()
        let (visited, changes) = try heap.walk()
        #expect(visited.map(\.address) == heap.addresses)
        #expect(SyntheticHeap.stableMet(visited) == Self.allStable)
        #expect(changes.isEmpty)
    }

    @Test func aHeaderTornInOneReadIsReadAgain() throws {
        let heap = SyntheticHeap()
        let torn = heap.addresses[3]
        let (visited, changes) = try heap.walk(change: { read in
            // The first read meets a size no chunk has; the next one the chunk as it is.
            heap.store(read == 1 ? 0x7 : 32 | GlibcMallocLayout.previousInUse, at: torn + 8)
        })
        #expect(visited.map(\.address) == heap.addresses)
        #expect(SyntheticHeap.stableMet(visited) == Self.allStable)
        #expect(changes.windowsReread == 1)
        #expect(changes.skippedRuns == 0 && changes.skipped.isEmpty)
    }

    @Test func aPlaceThatNeverFitsIsSteppedOverAndReported() throws {
        let heap = SyntheticHeap()
        let broken = heap.addresses[3]
        heap.store(0x7, at: broken + 8)
        let (visited, changes) = try heap.walk()
        Self.expectEachOnceInOrder(visited)
        // Every stable chunk is met once; the run from the broken header to the next verified
        // chain (the stable chunk after it) is reported, and nothing inside it is visited.
        #expect(SyntheticHeap.stableMet(visited) == Self.allStable)
        #expect(changes.skipped == [.init(address: broken, bytes: heap.addresses[4] - broken)])
        #expect(changes.skippedRuns == 1 && changes.skippedBytes == heap.addresses[4] - broken)
        #expect(changes.windowsReread == TargetWindow.readingsBeforeSkipping - 1)
        #expect(!visited.contains { $0.address >= broken && $0.address < heap.addresses[4] })
        // The chunk before it led nowhere verified: it is not visited either.
        #expect(!visited.contains { $0.address == heap.addresses[2] })
    }

    @Test func aTopThatMovedDownEndsTheWalkThere() throws {
        let heap = SyntheticHeap()
        // The last two chunks were freed into the top after the heap was opened.
        let newTop = heap.addresses[9]
        let end = UInt64(UInt(bitPattern: heap.base)) + UInt64(SyntheticHeap.bytes)
        heap.store((end - newTop) | GlibcMallocLayout.previousInUse, at: newTop + 8)
        let (visited, changes) = try heap.walk(currentTop: { (newTop, end - newTop) })
        #expect(visited.map(\.address) == Array(heap.addresses.prefix(9)))
        #expect(SyntheticHeap.stableMet(visited) == Self.allStable)
        #expect(changes.heapsEndedEarly == 1)
        #expect(changes.skippedRuns == 0)
    }

    @Test func memoryThatChangesOnEveryReadNeverCountsAChunkTwice() throws {
        let heap = SyntheticHeap()
        // Each read finds one churning chunk's header garbage, another place each time.
        let churn = [0, 2, 3, 5, 7, 9, 10]
        let (visited, changes) = try heap.walk(change: { read in
            for index in churn {
                heap.store(Self.sizeField(index), at: heap.addresses[index] + 8)
            }
            heap.store(0x7, at: heap.addresses[churn[read % churn.count]] + 8)
        })
        Self.expectEachOnceInOrder(visited)
        #expect(Set(SyntheticHeap.stableMet(visited)).isSubset(of: Set(Self.allStable)))
        #expect(changes.windowsReread > 0)
    }

    static func sizeField(_ index: Int) -> UInt64 { SyntheticHeap.sizes[index] | GlibcMallocLayout.previousInUse }
}
