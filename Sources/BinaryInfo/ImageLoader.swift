#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Reads files into owned storage, turning every system failure into a ``BinaryInfoError``.
///
/// BinaryInfo's only file I/O, with ``CoreFileDescriptor`` (a core read with `pread`). Opening, `fstat` and reading go through swift-system's
/// `FileDescriptor`, which retries interrupted calls (`retryOnInterrupt`); `mmap` (which
/// swift-system lacks) is called here and cannot be interrupted.
enum ImageLoader {
    /// Files larger than this are refused rather than read: no real Swift binary comes near it.
    static let maximumFileSize = 2 << 30

    /// Reads the whole file at `path`.
    ///
    /// - Throws: ``BinaryInfoError/fileNotFound(path:)``, ``BinaryInfoError/isDirectory(path:)``,
    ///   ``BinaryInfoError/notRegularFile(path:kind:)``, ``BinaryInfoError/unreadable(path:detail:)``
    ///   or ``BinaryInfoError/tooLarge(path:size:limit:)``.
    static func readFile(_ path: String) throws(BinaryInfoError) -> FileBytes {
        let (file, status) = try openRegularFile(path)
        defer { try? file.close() }
        // procfs files report size 0 and are read until end of file instead.
        if status.size == 0 { return try readToEnd(file, path: path) }
        guard status.size <= maximumFileSize, let size = Int(exactly: status.size) else {
            throw BinaryInfoError.tooLarge(path: path, size: Int(clamping: status.size), limit: maximumFileSize)
        }
        // A private mapping: pages are read on demand and writes (relocations of object files)
        // stay in this process. Fall back to reading when the file cannot be mapped.
        if let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, file.rawValue, 0), mapped != MAP_FAILED {
            return FileBytes(adopting: UnsafeMutableRawBufferPointer(start: mapped, count: size), count: size, storage: .mapped, path: path)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
        var filled = 0
        // A read may return fewer bytes than asked without reaching the end of the file.
        while filled < size {
            let count: Int
            do {
                count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<size]))
            } catch {
                buffer.deallocate()
                throw BinaryInfoError.unreadable(path: path, detail: "\(error)")
            }
            if count == 0 { break }
            filled += count
        }
        return FileBytes(adopting: buffer, count: filled, storage: .allocated, path: path)
    }

    /// Opens the regular file at `path` for reading, with its status; the caller closes it.
    ///
    /// Opened without blocking (`O_NONBLOCK`), so that a FIFO with no writer is refused at once
    /// rather than waited on; the flag changes nothing for the reads of a regular file.
    ///
    /// - Throws: ``BinaryInfoError/fileNotFound(path:)``, ``BinaryInfoError/isDirectory(path:)``,
    ///   ``BinaryInfoError/notRegularFile(path:kind:)`` or ``BinaryInfoError/unreadable(path:detail:)``.
    static func openRegularFile(_ path: String) throws(BinaryInfoError) -> (FileDescriptor, Stat) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch {
            // swift-system throws only Errno, under an untyped signature.
            if let code = error as? Errno, code == .noSuchFileOrDirectory || code == .notDirectory {
                throw BinaryInfoError.fileNotFound(path: path)
            }
            throw BinaryInfoError.unreadable(path: path, detail: "\(error)")
        }
        let status: Stat
        do {
            status = try file.stat()
        } catch {
            try? file.close()
            throw BinaryInfoError.unreadable(path: path, detail: error.description)
        }
        guard status.type == .regular else {
            try? file.close()
            switch status.type {
            case .directory: throw BinaryInfoError.isDirectory(path: path)
            case .fifo: throw BinaryInfoError.notRegularFile(path: path, kind: .fifo)
            case .characterSpecial: throw BinaryInfoError.notRegularFile(path: path, kind: .characterDevice)
            case .blockSpecial: throw BinaryInfoError.notRegularFile(path: path, kind: .blockDevice)
            case .socket: throw BinaryInfoError.notRegularFile(path: path, kind: .socket)
            default: throw BinaryInfoError.notRegularFile(path: path, kind: .other)
            }
        }
        return (file, status)
    }

    /// Reads a file whose size is not known in advance (procfs), up to ``maximumFileSize``.
    private static func readToEnd(_ file: FileDescriptor, path: String) throws(BinaryInfoError) -> FileBytes {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            } catch {
                throw BinaryInfoError.unreadable(path: path, detail: "\(error)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumFileSize else {
                throw BinaryInfoError.tooLarge(path: path, size: bytes.count, limit: maximumFileSize)
            }
        }
        return FileBytes(bytes, path: path)
    }
}
