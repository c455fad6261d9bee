import SystemPackage

/// A file opened read-only and read by offset: the DWARF reader's only file I/O besides
/// libdwarf's own.
///
/// The calls go through swift-system's `FileDescriptor`, which retries interrupted calls
/// (`retryOnInterrupt`), so no loop here repeats on `EINTR`.
final class ELFFileWindow {
    private let descriptor: FileDescriptor
    /// The file's size when it was opened (`fstat`).
    let size: UInt64

    /// Opens `path` for reading.
    ///
    /// - Throws: the system's `Errno` when the file cannot be opened or its size read.
    init(path: String) throws {
        descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
        do {
            size = UInt64(clamping: try descriptor.stat().size)
        } catch {
            try? descriptor.close()
            throw error
        }
    }

    deinit {
        try? descriptor.close()
    }

    /// The `count` bytes at `offset`, or nil when they do not all lie inside the file or
    /// cannot be read.
    func bytes(at offset: UInt64, count: UInt64) -> [UInt8]? {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= size, count <= 1 << 30, let length = Int(exactly: count) else { return nil }
        guard let bytes = try? prefix(at: offset, upTo: length), bytes.count == length else { return nil }
        return bytes
    }

    /// Up to `count` bytes starting at `offset`: fewer only at the end of the file.
    ///
    /// - Throws: the system's `Errno` when a read fails.
    func prefix(at offset: UInt64, upTo count: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        // A read may return fewer bytes than asked without reaching the end of the file.
        while filled < count {
            let (next, overflow) = offset.addingReportingOverflow(UInt64(filled))
            guard !overflow, let position = Int64(exactly: next) else { throw Errno.invalidArgument }
            let got = try buffer.withUnsafeMutableBytes { raw in
                try descriptor.read(fromAbsoluteOffset: position, into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        return Array(buffer.prefix(filled))
    }
}
