import BinaryInfo
import Testing

/// The metadata allocator pool walk on pools laid out as Swift 6.3's runtime lays them out
/// (Metadata.cpp): the oracle is the allocations written into them. A live process's pool is
/// checked through `typeinfo dump --pid` (DumpTargetCommandTests).
@Suite struct MetadataAllocationPoolTests {
    /// Memory made of regions at chosen addresses.
    struct Regions: ByteReader {
        var regions: [UInt64: [UInt8]]
        var path: String { "test memory" }

        func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
            throws(BinaryInfoError)
        {
            for (start, bytes) in regions where address >= start && address - start + UInt64(destination.count) <= UInt64(bytes.count) {
                let offset = Int(address - start)
                destination.copyBytes(from: bytes[offset..<offset + destination.count])
                return
            }
            throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
        }
    }

    static func word(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// A pool of `size` bytes at `start` holding `allocations` (size, tag), its trailer linking to `previous`.
    static func pool(at start: UInt64, size: Int, allocations: [(Int, UInt16)], previous: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        for (length, tag) in allocations {
            bytes += withUnsafeBytes(of: UInt16(length)) { Array($0) } + withUnsafeBytes(of: tag) { Array($0) } + [0, 0, 0, 0]
            bytes += [UInt8](repeating: 0xEE, count: length)
        }
        bytes += [UInt8](repeating: 0, count: size - bytes.count)
        return bytes + word(previous) + word(UInt64(size))
    }

    static let enabled: UInt64 = 0x1000
    static let pointer: UInt64 = 0x2000
    static let range: UInt64 = 0x3000

    static func memory(pools: [UInt64: [UInt8]], begin: UInt64, remaining: UInt64, enabled: UInt8 = 1) -> Regions {
        var regions = pools
        regions[Self.enabled] = [enabled]
        regions[Self.pointer] = word(Self.range)
        regions[Self.range] = word(begin) + word(remaining)
        return Regions(regions: regions)
    }

    @Test func walksEveryPoolOldestFirst() throws {
        // The first pool (64 KiB in the runtime; smaller here) is full to its zeroed end; the current one up to `begin`.
        let first = Self.pool(at: 0x10000, size: 256, allocations: [(16, 14), (8, 12)], previous: 0)
        let second = Self.pool(at: 0x20000, size: 128, allocations: [(24, 14), (32, 17)], previous: 0x10000 + 256)
        let begin: UInt64 = 0x20000 + 8 + 24 + 8 + 32
        let memory = Self.memory(pools: [0x10000: first, 0x20000: second], begin: begin, remaining: 0x20000 + 128 - begin)
        let walk = try MetadataAllocationPool.walk(memory: memory, iterationEnabled: Self.enabled, poolPointer: Self.pointer).get()
        #expect(walk.allocations.map(\.address) == [0x10008, 0x10020, 0x20008, 0x20028])
        #expect(walk.allocations.map(\.tag) == [14, 12, 14, 17])
        #expect(walk.allocations.map(\.size) == [16, 8, 24, 32])
        #expect(walk.stops.isEmpty)
    }

    @Test func aHeaderTheRuntimeCannotHaveWrittenEndsItsPoolAndIsNamed() throws {
        var first = Self.pool(at: 0x10000, size: 256, allocations: [(16, 14), (8, 12)], previous: 0)
        first[0x28] = 0x55  // after the second allocation: a size that is no multiple of 8, tag 0
        let second = Self.pool(at: 0x20000, size: 128, allocations: [(24, 14)], previous: 0x10000 + 256)
        let memory = Self.memory(pools: [0x10000: first, 0x20000: second], begin: 0x20000 + 32, remaining: 96)
        let walk = try MetadataAllocationPool.walk(memory: memory, iterationEnabled: Self.enabled, poolPointer: Self.pointer).get()
        #expect(walk.allocations.map(\.address) == [0x10008, 0x10020, 0x20008])
        #expect(walk.stops == [0x10028])
        // The current pool's frontier past its last header (a rolled-back allocation): that stop too, newest pool first.
        let beyond = Self.memory(pools: [0x10000: first, 0x20000: second], begin: 0x20000 + 40, remaining: 88)
        let both = try MetadataAllocationPool.walk(memory: beyond, iterationEnabled: Self.enabled, poolPointer: Self.pointer).get()
        #expect(both.allocations.map(\.address) == [0x10008, 0x10020, 0x20008])
        #expect(both.stops == [0x20020, 0x10028])
    }

    @Test func disabledMissingAndLoopingPools() throws {
        let current = Self.pool(at: 0x20000, size: 128, allocations: [(24, 14)], previous: 0x20000 + 128)
        let disabled = Self.memory(pools: [0x20000: current], begin: 0x20000 + 32, remaining: 96, enabled: 0)
        #expect(throws: MetadataAllocationPool.Unavailable.iterationDisabled) {
            try MetadataAllocationPool.walk(memory: disabled, iterationEnabled: Self.enabled, poolPointer: Self.pointer).get()
        }
        #expect(throws: MetadataAllocationPool.Unavailable.variablesMissing("_swift_debug_allocationPoolPointer")) {
            try MetadataAllocationPool.walk(memory: disabled, iterationEnabled: Self.enabled, poolPointer: nil).get()
        }
        // A trailer that links to itself: walked once, and the walk says it did not reach the end.
        let looping = Self.memory(pools: [0x20000: current], begin: 0x20000 + 32, remaining: 96)
        let walk = try MetadataAllocationPool.walk(memory: looping, iterationEnabled: Self.enabled, poolPointer: Self.pointer).get()
        #expect(walk.allocations.map(\.address) == [0x20008])
        #expect(walk.stops == [0x20000 + 128])
    }
}
