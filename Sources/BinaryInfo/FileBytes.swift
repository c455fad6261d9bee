#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of one file, owned by this object for as long as any reader holds it.
///
/// libelf parses these bytes in place (`elf_memory`), and the address space reads them;
/// nothing outside BinaryInfo ever sees a pointer into them.
final class FileBytes: @unchecked Sendable {
    /// Who owns the storage, and so how it is released.
    enum Storage {
        /// Heap memory this object allocated.
        case allocated
        /// A private (copy-on-write) mapping of the file: only the pages the reader touches
        /// become resident, which keeps the peak memory of a dump well below the file's size.
        case mapped
    }

    let storage: Storage
    /// The file's path, or the name given to bytes read from memory: what errors name.
    let path: String
    // Immutable after init (relocations of object files are applied before any reader exists),
    // so sharing across threads is safe.
    let buffer: UnsafeMutableRawBufferPointer

    /// Copies `bytes` into storage owned by this object; `path` names them in errors.
    init(_ bytes: some Collection<UInt8>, path: String) {
        // Allocate at least one byte so the base address is never nil.
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
        storage = .allocated
        self.path = path
    }

    /// Takes ownership of already-filled storage of `count` valid bytes.
    init(adopting buffer: UnsafeMutableRawBufferPointer, count: Int, storage: Storage, path: String) {
        self.path = path
        self.buffer = buffer
        self.count = count
        self.storage = storage
    }

    /// The number of valid bytes.
    let count: Int

    /// Whether ``patch(_:atOffset:)`` wrote into the bytes: then they are no longer the file's,
    /// and ``releasePages(in:)`` leaves them alone. Set only while relocations are applied,
    /// before any reader exists.
    private(set) var hasWrites = false

    deinit {
        switch storage {
        case .allocated:
            buffer.deallocate()
        case .mapped:
            if let base = buffer.baseAddress { munmap(base, buffer.count) }
        }
    }

    /// Copies `length` bytes at `offset`, bounds-checked.
    func fetch(into destination: UnsafeMutableRawBufferPointer, fromOffset offset: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(destination.count))
        guard !overflow, end <= UInt64(count) else {
            throw BinaryInfoError.outOfBounds(path: path, what: what(), address: offset, length: UInt64(destination.count))
        }
        guard let base = destination.baseAddress, destination.count > 0, let source = buffer.baseAddress else { return }
        base.copyMemory(from: source + Int(offset), byteCount: destination.count)
    }

    /// The whole content as UTF-8 text (a procfs file's, for the target readers).
    var text: String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
    }

    /// The NUL-terminated string at `offset`, looking at most `limit` bytes (and never past the end).
    func cString(atOffset offset: UInt64, limit: UInt64) -> String? {
        guard offset < UInt64(count), let base = buffer.baseAddress else { return nil }
        let available = min(limit, UInt64(count) - offset, UInt64(maximumStringLength))
        let start = UnsafeRawBufferPointer(start: base + Int(offset), count: Int(available))
        guard let end = start.firstIndex(of: 0) else { return nil }
        return String(decoding: start[..<end], as: UTF8.self)
    }

    /// Whether the NUL-terminated string at `offset` (as ``cString(atOffset:limit:)`` finds it)
    /// starts with `prefix` and ends with `suffix` (or `otherSuffix`), compared as bytes, with
    /// no string made: a scan of every symbol for a few names then costs a few dozen
    /// instructions a symbol. A match that is not ASCII is compared again as characters, as
    /// `String` compares (a combining mark can join a matched byte to another character).
    func cString(
        atOffset offset: UInt64, limit: UInt64, hasPrefix prefix: StaticString, suffix: StaticString, orSuffix otherSuffix: StaticString?
    )
        -> Bool
    {
        guard offset < UInt64(count), let base = buffer.baseAddress else { return false }
        let available = Int(min(limit, UInt64(count) - offset, UInt64(maximumStringLength)))
        let start = base + Int(offset)
        // A prefix without NUL matches only inside the string.
        guard available >= prefix.utf8CodeUnitCount, memcmp(start, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0,
            let terminator = memchr(start, 0, available)
        else { return false }
        let length = UnsafeRawPointer(terminator) - UnsafeRawPointer(start)
        func endsWith(_ suffix: StaticString) -> Bool {
            length >= prefix.utf8CodeUnitCount + suffix.utf8CodeUnitCount
                && memcmp(start + (length - suffix.utf8CodeUnitCount), suffix.utf8Start, suffix.utf8CodeUnitCount) == 0
        }
        guard endsWith(suffix) || otherSuffix.map(endsWith) == true else { return false }
        let text = UnsafeRawBufferPointer(start: start, count: length)
        guard text.contains(where: { $0 >= 0x80 }) else { return true }
        let string = String(decoding: text, as: UTF8.self)
        return string.hasPrefix(prefix.description)
            && (string.hasSuffix(suffix.description) || otherSuffix.map { string.hasSuffix($0.description) } == true)
    }

    /// Writes a little-endian value at `offset` (used only to apply relocations of object files).
    func patch<T: FixedWidthInteger>(_ value: T, atOffset offset: UInt64) throws(BinaryInfoError) {
        let size = UInt64(MemoryLayout<T>.size)
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= UInt64(count), let base = buffer.baseAddress else {
            throw BinaryInfoError.outOfBounds(path: path, what: "relocation target", address: offset, length: size)
        }
        hasWrites = true
        (base + Int(offset)).storeBytes(of: value.littleEndian, as: T.self)
    }

    /// Lets the system drop the pages wholly inside `range` (file offsets; clamped to the file)
    /// from this process's resident memory, for bytes a reader is done with: a page touched again
    /// is read back from the page cache with the same bytes, so no reader can tell.
    ///
    /// Only a mapping of the file that nobody wrote to: a private mapping's written page would
    /// fall back to the file's bytes (an object file's applied relocations would be lost), and
    /// heap storage would read zeros. Anything else is left as it is. libelf (`elf_memory`) does
    /// not write into the 64-bit little-endian files BinaryInfo reads.
    func releasePages(in range: Range<UInt64>) {
        guard storage == .mapped, !hasWrites, let base = buffer.baseAddress else { return }
        let page = UInt64(Self.pageSize)
        let end = min(range.upperBound, UInt64(count))
        // Only whole pages: the bytes either side of the range may still be in use.
        let (rounded, overflow) = range.lowerBound.addingReportingOverflow(page - 1)
        guard !overflow else { return }
        let first = rounded / page * page
        let last = end / page * page
        guard first < last else { return }
        _ = madvise(base + Int(first), Int(last - first), MADV_DONTNEED)
    }

    /// As ``releasePages(in:)``, for the `size` bytes at `offset` (nothing when the end overflows).
    func releasePages(offset: UInt64, size: UInt64) {
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow else { return }
        releasePages(in: offset..<end)
    }

    /// The system's page size, what ``releasePages(in:)`` rounds to.
    static let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
}

extension FileBytes: ByteReader {
    /// Copies the bytes at file offset `address` (a file read as its own address space: an ELF
    /// header's offsets, a procfs file's records).
    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        try fetch(into: destination, fromOffset: address, what: what())
    }
}
