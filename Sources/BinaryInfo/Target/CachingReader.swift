import Synchronization

/// How a ``CachingReader`` keeps another reader's bytes.
///
/// Blocks of ``blockSize`` bytes (a power of two; a block starts at a multiple of it) are read
/// whole on first use and kept in ``capacity`` slots (a power of two), direct-mapped: a block's
/// slot is fixed by its number, and a newer block replaces the one there. A block the reader
/// underneath cannot give whole (it runs into unmapped memory) is remembered as such, and reads in
/// it, like reads across two blocks, go to that reader directly, with its own errors.
///
/// A cache never decides by itself that bytes are fresh: what it holds is the memory as it was
/// when each block was read. A reader of a target that may change (a running process) forgets
/// every block (``CachingReader/forget()``) before each reading that must see the target as it is
/// then, so no read is answered with bytes older than the start of the reading it belongs to.
public struct CachingPolicy: Sendable, Hashable {
    /// The bytes in a block.
    public let blockSize: UInt64
    /// The most blocks kept.
    public let capacity: Int

    /// - Precondition: both are powers of two.
    public init(blockSize: UInt64, capacity: Int) {
        precondition(blockSize > 0 && blockSize & (blockSize - 1) == 0, "a block size is a power of two")
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "a capacity is a power of two")
        self.blockSize = blockSize
        self.capacity = capacity
    }

    /// An image's loaded sections, read in many small pieces by the metadata decoders: 16 KiB
    /// blocks, up to 64 MiB of them. Those bytes do not change while they are read.
    public static let imageSections = CachingPolicy(blockSize: 16 << 10, capacity: 4096)

    /// The reflection library's reads of a target: about nine reads of a few dozen bytes for one
    /// task, nearly all inside the task's allocation, each a system call on a process; 64 KiB
    /// windows, 256 of them (16 MiB).
    public static let reflectionReads = CachingPolicy(blockSize: 64 << 10, capacity: 256)
}

/// A reader that keeps the blocks of another reader's bytes it has read (``CachingPolicy``), the
/// one cache of target memory: a reading that asks for many small pieces of a few regions makes
/// one read of the reader underneath per block, not one per piece.
///
/// It gives the same bytes and the same errors as the reader underneath, as that reader's memory
/// was when each block was read; ``forget()`` starts afresh.
public final class CachingReader<Base: ByteReader & Sendable>: ByteReader, Sendable {
    /// The reader underneath.
    public let base: Base
    /// How blocks are kept.
    public let policy: CachingPolicy
    private let state: Mutex<State>
    private let blockShift: UInt64

    /// Each slot's tag (``tag(block:readable:)``; 0: no block), and the slots' bytes, allocated
    /// at the first block read (`capacity` blocks one after another). Only touched under the
    /// lock, which is what makes the pointers safe to share.
    private struct State: ~Copyable, @unchecked Sendable {
        let tags: UnsafeMutableBufferPointer<UInt64>
        var storage: UnsafeMutableRawBufferPointer?
    }

    public var path: String { base.path }

    /// A cache over `base`, empty.
    public init(_ base: Base, policy: CachingPolicy) {
        self.base = base
        self.policy = policy
        let tags = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: policy.capacity)
        tags.initialize(repeating: 0)
        state = Mutex(State(tags: tags, storage: nil))
        blockShift = UInt64(policy.blockSize.trailingZeroBitCount)
    }

    deinit {
        state.withLock { state in
            state.tags.deallocate()
            state.storage?.deallocate()
        }
    }

    /// A slot's tag for `block`: never 0, and it says whether the block could be read whole.
    private static func tag(block: UInt64, readable: Bool) -> UInt64 { (block &+ 1) << 1 | (readable ? 1 : 0) }

    /// Forgets every block: later reads read the reader underneath again.
    public func forget() {
        state.withLock { state in state.tags.update(repeating: 0) }
    }

    /// Copies `destination.count` bytes at `address` from a kept block, reading the block first
    /// when it is not kept; pieces across blocks, and in a block that cannot be read whole, from
    /// the reader underneath (see ``ByteReader``).
    public func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        let count = UInt64(destination.count)
        guard count > 0 else { return }
        let (last, overflow) = address.addingReportingOverflow(count - 1)
        let block = address >> blockShift
        guard !overflow, last >> blockShift == block, copy(into: destination, from: address, block: block) else {
            try base.fetch(into: destination, from: address, what: what())
            return
        }
    }

    /// Copies from block `block`, reading it into its slot when the slot holds another; false
    /// when the block cannot be read whole.
    private func copy(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, block: UInt64) -> Bool {
        let slot = Int(truncatingIfNeeded: block ^ (block >> 8)) & (policy.capacity - 1)
        let size = Int(policy.blockSize)
        let start = block << blockShift
        return state.withLock { state in
            let storage: UnsafeMutableRawBufferPointer
            if let allocated = state.storage {
                storage = allocated
            } else {
                storage = .allocate(byteCount: size * policy.capacity, alignment: 16)
                state.storage = storage
            }
            let bytes = UnsafeMutableRawBufferPointer(rebasing: storage[slot * size..<(slot + 1) * size])
            var tag = state.tags[slot]
            if tag >> 1 != block &+ 1 {
                let readable = (try? base.fetch(into: bytes, from: start, what: "memory")) != nil
                tag = Self.tag(block: block, readable: readable)
                state.tags[slot] = tag
            }
            guard tag & 1 == 1 else { return false }
            let offset = Int(address - start)
            destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + destination.count]))
            return true
        }
    }
}
