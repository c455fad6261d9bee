import SystemPackage

/// A core file open for reading with `pread` (swift-system's `FileDescriptor`, which retries
/// interrupted calls), closed when the last reader lets go of it.
final class CoreFileDescriptor: CoreFileSource {
    let path: String
    let descriptor: FileDescriptor
    /// The file's size when it was opened.
    let size: UInt64

    /// Opens the regular file at `path` (a FIFO, a device or a directory is refused at once).
    ///
    /// - Throws: as ``ImageLoader/openRegularFile(_:)``.
    init(path: String) throws(BinaryInfoError) {
        let (descriptor, status) = try ImageLoader.openRegularFile(path)
        self.path = path
        self.descriptor = descriptor
        size = UInt64(max(status.size, 0))
    }

    deinit { try? descriptor.close() }

    func read(into destination: UnsafeMutableRawBufferPointer, atOffset offset: UInt64) throws(BinaryInfoError) -> Int {
        guard let position = Int64(exactly: offset) else { return 0 }
        do {
            return try descriptor.read(fromAbsoluteOffset: position, into: destination)
        } catch {
            throw BinaryInfoError.unreadable(path: path, detail: "\(error)")
        }
    }

    func currentSize() -> UInt64? {
        guard let status = try? descriptor.stat() else { return nil }
        return UInt64(max(status.size, 0))
    }

    /// The first `count` bytes of the file (fewer when it is shorter).
    func prefix(_ count: Int) throws(BinaryInfoError) -> [UInt8] {
        var filled = 0
        let bytes = try filledBytes(count: count) { buffer throws(BinaryInfoError) in
            while filled < count {
                let read = try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), atOffset: UInt64(filled))
                if read == 0 { break }
                filled += read
            }
        }
        return Array(bytes[..<filled])
    }
}
