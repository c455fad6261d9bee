#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads files into owned storage, turning every system failure into a ``BinaryInfoError``.
enum ImageLoader {
    /// Files larger than this are refused rather than read: no real Swift binary comes near it.
    static let maximumFileSize = 2 << 30

    /// Reads the whole file at `path`.
    ///
    /// - Throws: ``BinaryInfoError/fileNotFound``, ``BinaryInfoError/isDirectory``,
    ///   ``BinaryInfoError/unreadable(detail:)`` or ``BinaryInfoError/tooLarge(size:limit:)``.
    static func readFile(_ path: String) throws -> FileBytes {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw BinaryInfoError.fileNotFound }
            throw BinaryInfoError.unreadable(detail: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw BinaryInfoError.unreadable(detail: String(cString: strerror(errno)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw BinaryInfoError.isDirectory }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw BinaryInfoError.unreadable(detail: "not a regular file")
        }
        // procfs files report size 0 and are read until end of file instead.
        if info.st_size == 0 { return try readToEnd(descriptor) }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else { throw BinaryInfoError.tooLarge(size: size, limit: maximumFileSize) }
        // A private mapping: pages are read on demand and writes (relocations of object files)
        // stay in this process. Fall back to reading when the file cannot be mapped.
        if let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED {
            return FileBytes(adopting: UnsafeMutableRawBufferPointer(start: mapped, count: size), count: size, storage: .mapped)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
        var filled = 0
        while filled < size {
            guard let base = buffer.baseAddress else { break }
            let count = read(descriptor, base + filled, size - filled)
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.deallocate()
                throw BinaryInfoError.unreadable(detail: reason)
            }
            if count == 0 { break }
            filled += count
        }
        return FileBytes(adopting: buffer, count: filled, storage: .allocated)
    }

    /// Reads a file whose size is not known in advance (procfs), up to ``maximumFileSize``.
    private static func readToEnd(_ descriptor: Int32) throws -> FileBytes {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw BinaryInfoError.unreadable(detail: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumFileSize else { throw BinaryInfoError.tooLarge(size: bytes.count, limit: maximumFileSize) }
        }
        return FileBytes(bytes)
    }
}
