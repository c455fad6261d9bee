import Synchronization

/// A reader that keeps the blocks of another reader's bytes it has read, for a reading that asks
/// for many small pieces of the same few regions: the metadata decoders reading a process's
/// image, where each piece would otherwise be a system call.
///
/// Only for bytes that do not change while it is used (an image's loaded sections). Each block
/// is read whole once; a block the reader underneath cannot give whole (the end of a mapping) is
/// not kept, and its pieces are read directly, with the reader's own errors.
final class BlockCachingReader<Base: ByteReader & Sendable>: ByteReader, Sendable {
    let base: Base
    /// The bytes in a block, a power of two.
    static var blockSize: UInt64 { 16 * 1024 }
    /// Blocks kept, by block number; nil for a block that could not be read whole.
    private let blocks = Mutex<[UInt64: [UInt8]?]>([:])

    var path: String { base.path }

    init(_ base: Base) {
        self.base = base
    }

    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        let count = UInt64(destination.count)
        guard count > 0 else { return }
        let (last, overflow) = address.addingReportingOverflow(count - 1)
        let first = address / Self.blockSize
        // Pieces across blocks, or past the end of the address space, go straight to the base.
        guard !overflow, last / Self.blockSize == first, let block = block(first) else {
            try base.fetch(into: destination, from: address, what: what())
            return
        }
        let offset = Int(address - first * Self.blockSize)
        block.withUnsafeBytes { bytes in
            destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)]))
        }
    }

    /// Block `number`, read on first use; nil when the base cannot give all of it.
    private func block(_ number: UInt64) -> [UInt8]? {
        if let known = blocks.withLock({ $0[number] }) { return known }
        let read = try? base.bytes(at: number * Self.blockSize, count: Int(Self.blockSize), what: "block")
        blocks.withLock { $0[number] = .some(read) }
        return read
    }
}
