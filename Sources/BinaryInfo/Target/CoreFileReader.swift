import Synchronization

/// Where a core file's bytes come from, by file offset: the file itself (``CoreFileDescriptor``),
/// or bytes held in memory.
protocol CoreFileSource: Sendable {
    /// What errors name: the file's path.
    var path: String { get }
    /// Copies up to `destination.count` bytes at `offset`, as `pread(2)` does: fewer only at the
    /// file's end, none past it.
    func read(into destination: UnsafeMutableRawBufferPointer, atOffset offset: UInt64) throws(BinaryInfoError) -> Int
    /// The file's size now (it may have changed since it was opened), nil when it cannot be asked.
    func currentSize() -> UInt64?
}

extension FileBytes: CoreFileSource {
    func read(into destination: UnsafeMutableRawBufferPointer, atOffset offset: UInt64) throws(BinaryInfoError) -> Int {
        guard offset < UInt64(count) else { return 0 }
        let piece = Int(min(UInt64(destination.count), UInt64(count) - offset))
        try fetch(into: UnsafeMutableRawBufferPointer(rebasing: destination[0..<piece]), fromOffset: offset, what: "core bytes")
        return piece
    }

    func currentSize() -> UInt64? { UInt64(count) }
}

/// A core file's bytes by file offset, read with `pread` and never mapped: a core that shrinks
/// while it is read ends a read early, which is an error naming the file and the offset, where
/// a mapping's missing page would kill the process (`SIGBUS`); and a core of any size is read.
///
/// The small reads of a reading (an object's header, a metadata record, a string byte by byte)
/// are served from whole blocks it keeps, a bounded number of them, so that a core of any size
/// keeps no more than ``maximumBlocks`` × ``blockSize`` bytes; a read larger than a block (a heap
/// walk's window) goes straight to the file.
final class CoreFileReader: Sendable {
    let source: any CoreFileSource
    /// The file's size when it was opened: what its headers were checked against.
    let size: UInt64
    /// The bytes of one block kept, a power of two.
    static var blockSize: UInt64 { 16 * 1024 }
    /// The most blocks kept (32 MiB); the oldest is dropped for a new one.
    static var maximumBlocks: Int { 2048 }
    private let cache = Mutex(BlockCache())

    var path: String { source.path }

    init(_ source: any CoreFileSource, size: UInt64) {
        self.source = source
        self.size = size
    }

    /// Copies the bytes at file offset `offset`, bounds-checked against the size the file had
    /// when opened.
    ///
    /// - Throws: ``BinaryInfoError/outOfBounds(path:what:address:length:)`` for a range past that
    ///   size; ``BinaryInfoError/coreChangedWhileRead(path:segmentAddress:neededSize:fileSize:)``
    ///   (without a segment) when the file has become shorter than the range.
    func fetch(into destination: UnsafeMutableRawBufferPointer, fromOffset offset: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        let count = UInt64(destination.count)
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= size else {
            throw BinaryInfoError.outOfBounds(path: path, what: what(), address: offset, length: count)
        }
        guard count > 0 else { return }
        let number = offset / Self.blockSize
        guard (end - 1) / Self.blockSize == number, count < Self.blockSize else {
            try readWhole(into: destination, atOffset: offset)
            return
        }
        let block = try self.block(number)
        let start = Int(offset - number * Self.blockSize)
        block.withUnsafeBytes { bytes in
            destination.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<start + Int(count)]))
        }
    }

    /// Block `number` (its part before the file's end), read on first use.
    private func block(_ number: UInt64) throws(BinaryInfoError) -> [UInt8] {
        if let known = cache.withLock({ $0.blocks[number] }) { return known }
        let start = number * Self.blockSize
        let length = Int(min(Self.blockSize, size - start))
        let bytes = try filledBytes(count: length) { buffer throws(BinaryInfoError) in try readWhole(into: buffer, atOffset: start) }
        cache.withLock { $0.insert(bytes, at: number, limit: Self.maximumBlocks) }
        return bytes
    }

    /// Fills `destination` from `offset`, read after read (a read may return fewer bytes).
    private func readWhole(into destination: UnsafeMutableRawBufferPointer, atOffset offset: UInt64) throws(BinaryInfoError) {
        var filled = 0
        while filled < destination.count {
            let count = try source.read(
                into: UnsafeMutableRawBufferPointer(rebasing: destination[filled...]), atOffset: offset + UInt64(filled))
            guard count > 0 else {
                throw BinaryInfoError.coreChangedWhileRead(
                    path: path, segmentAddress: nil, neededSize: offset + UInt64(destination.count),
                    fileSize: source.currentSize() ?? offset + UInt64(filled))
            }
            filled += count
        }
    }
}

/// `count` bytes as `fill` writes them (a buffer of its own: an array's closures throw untyped errors).
func filledBytes(count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(BinaryInfoError) -> Void) throws(BinaryInfoError) -> [UInt8] {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
    defer { buffer.deallocate() }
    let used = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
    used.initializeMemory(as: UInt8.self, repeating: 0)
    try fill(used)
    return Array(used)
}

/// The blocks a ``CoreFileReader`` keeps, dropped oldest first.
private struct BlockCache: ~Copyable {
    var blocks: [UInt64: [UInt8]] = [:]
    /// Block numbers in the order they were kept, as a ring from `oldest`.
    private var order: [UInt64] = []
    private var oldest = 0

    mutating func insert(_ bytes: [UInt8], at number: UInt64, limit: Int) {
        guard blocks[number] == nil else { return }
        if order.count < limit {
            order.append(number)
        } else {
            blocks[order[oldest]] = nil
            order[oldest] = number
            oldest = (oldest + 1) % limit
        }
        blocks[number] = bytes
    }
}
