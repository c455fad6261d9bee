/// The Swift runtime's metadata allocator pool in a target, walked allocation by allocation: what
/// `swift_reflection_iterateMetadataAllocations` lists, read here because Swift 6.3's reflection
/// library reads the pool's two bookkeeping structs with its own 16-byte `RemoteAddress` where
/// the runtime stores 8-byte pointers, so it finds no allocation at all.
///
/// The runtime keeps headers and pool trailers only when the process was started with
/// `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1` (its
/// `_swift_debug_metadataAllocationIterationEnabled`). Its layout (Metadata.cpp, "Allocator
/// implementation"): `_swift_debug_allocationPoolPointer` points at the current pool's range
/// (`char *Begin; size_t Remaining`: the next allocation and the bytes left before the trailer);
/// each pool ends in a trailer (`void *PrevTrailer; size_t PoolSize`) that links to the previous
/// pool's trailer, the first pool's link is null; each allocation is an 8-byte header
/// (`uint16_t Size; uint16_t Tag`) followed by `Size` bytes (a multiple of 8, at most 8 KiB).
///
/// Every pointer and size read from the target is checked before it moves the walk; a header the
/// runtime cannot have written ends the walk of its pool, and the result says where.
public struct MetadataAllocationPool: Sendable {
    /// One allocation of the runtime's metadata allocator.
    public struct Allocation: Sendable, Hashable {
        /// The allocator's tag (`MetadataAllocatorTags.def`: 14 a generic metadata cache's entry).
        public var tag: UInt16
        /// The allocation's first byte (after its header).
        public var address: UInt64
        /// Its size in bytes.
        public var size: Int
    }

    /// Why the pool cannot be walked.
    public enum Unavailable: Error, Sendable, Hashable {
        /// The target's runtime does not define the debug variables (not a Swift runtime, or one
        /// that keeps no pool).
        case variablesMissing(String)
        /// The process was not started with `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`.
        case iterationDisabled
        /// The pool's bookkeeping could not be read.
        case unreadable(BinaryInfoError)
    }

    /// The allocations, oldest pool first.
    public var allocations: [Allocation]
    /// Where a pool's walk stopped at a header the runtime cannot have written (or where a pool
    /// or the chain of pools could not be read): allocations after each, in its pool, are not
    /// listed. Empty when every pool was walked to its end.
    public var stops: [UInt64]

    /// The tag of a generic metadata cache's entries (`GenericMetadataCache`).
    public static let genericMetadataCacheTag: UInt16 = 14
    /// The highest tag Swift 6.3's runtime writes (`FixedArrayCache`).
    static let highestTag: UInt16 = 27
    /// A pool's size: the runtime's pages are 16 KiB, its first pool 64 KiB.
    static let largestPool: UInt64 = 64 * 1024
    /// The most pools followed (1 GiB of metadata in 16 KiB pages): a damaged or crafted chain
    /// ends here rather than in minutes of reading.
    static let maximumPools = 1 << 16

    /// Walks the pool of the runtime whose debug variables are at the given target addresses.
    ///
    /// - Parameters:
    ///   - memory: the target's memory.
    ///   - iterationEnabled: the address of `_swift_debug_metadataAllocationIterationEnabled`.
    ///   - poolPointer: the address of `_swift_debug_allocationPoolPointer`.
    public static func walk(memory: some ByteReader, iterationEnabled: UInt64?, poolPointer: UInt64?) -> Result<Self, Unavailable> {
        walk(memory: memory, iterationEnabled: iterationEnabled, pool: poolPointer.map { .pointer(at: $0) })
    }

    /// Where the pool's range (`AllocationPool` in Metadata.cpp) is found.
    public enum PoolLocation: Sendable, Hashable {
        /// Through the runtime's `_swift_debug_allocationPoolPointer` at this address.
        case pointer(at: UInt64)
        /// At this address: the value that variable would hold, where the linker dropped it
        /// (``RuntimeDebugVariables``).
        case range(at: UInt64)
    }

    /// Walks the pool of the runtime whose iteration flag is at `iterationEnabled` and whose pool
    /// range is at `pool`.
    public static func walk(memory: some ByteReader, iterationEnabled: UInt64?, pool location: PoolLocation?) -> Result<Self, Unavailable> {
        guard let iterationEnabled else { return .failure(.variablesMissing("_swift_debug_metadataAllocationIterationEnabled")) }
        guard let location else { return .failure(.variablesMissing("_swift_debug_allocationPoolPointer")) }
        let begin: UInt64
        let remaining: UInt64
        do {
            guard try memory.read(UInt8.self, at: iterationEnabled, what: "_swift_debug_metadataAllocationIterationEnabled") != 0 else {
                return .failure(.iterationDisabled)
            }
            let pool =
                switch location {
                case .pointer(let address): try memory.read(UInt64.self, at: address, what: "_swift_debug_allocationPoolPointer")
                case .range(let address): address
                }
            begin = try memory.read(UInt64.self, at: pool, what: "metadata allocation pool range")
            remaining = try memory.read(UInt64.self, at: pool &+ 8, what: "metadata allocation pool range")
        } catch {
            return .failure(.unreadable(error))
        }
        var walk = Self(allocations: [], stops: [])
        let (firstTrailer, overflow) = begin.addingReportingOverflow(remaining)
        guard !overflow, remaining <= largestPool else {
            walk.stops.append(begin)
            return .success(walk)
        }
        // Newest pool first: the current one is allocated up to `begin`, older ones up to their
        // first zero header (the runtime leaves a pool's end unused when the next allocation does
        // not fit).
        var pools: [[Allocation]] = []
        var trailers: Set<UInt64> = []
        var trailer = firstTrailer
        while trailer != 0, pools.count < maximumPools, trailers.insert(trailer).inserted {
            let link: UInt64
            let size: UInt64
            do {
                link = try memory.read(UInt64.self, at: trailer, what: "metadata allocation pool trailer")
                size = try memory.read(UInt64.self, at: trailer &+ 8, what: "metadata allocation pool trailer")
            } catch {
                walk.stops.append(trailer)
                break
            }
            let isCurrent = pools.isEmpty
            guard size <= largestPool, size <= trailer, !isCurrent || (trailer - size...trailer).contains(begin),
                let allocations = walk.allocations(
                    from: trailer - size, to: isCurrent ? begin : trailer, isCurrent: isCurrent, memory: memory)
            else {
                walk.stops.append(trailer)
                break
            }
            pools.append(allocations)
            trailer = link
        }
        // The chain goes on past the pools followed (a loop, or more than the limit).
        if trailer != 0, walk.stops.last != trailer { walk.stops.append(trailer) }
        walk.allocations = pools.reversed().flatMap { $0 }
        return .success(walk)
    }

    /// The allocations of the pool `start..<end` (its frontier for the current pool), nil when
    /// the pool cannot be read; a header the runtime cannot have written ends the list and is
    /// added to ``stops``.
    private mutating func allocations(from start: UInt64, to end: UInt64, isCurrent: Bool, memory: some ByteReader) -> [Allocation]? {
        guard let bytes = try? memory.bytes(at: start, count: Int(end - start), what: "metadata allocation pool") else { return nil }
        var found: [Allocation] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self) })
            let tag = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self) }
            // An older pool ends at its unused, zeroed end.
            if size == 0, tag == 0, !isCurrent { return found }
            guard size > 0, size % 8 == 0, tag > 0, tag <= Self.highestTag, offset + 8 + size <= bytes.count else {
                stops.append(start + UInt64(offset))
                return found
            }
            found.append(Allocation(tag: tag, address: start + UInt64(offset + 8), size: size))
            offset += 8 + size
        }
        if isCurrent, offset != bytes.count { stops.append(start + UInt64(offset)) }
        return found
    }
}
