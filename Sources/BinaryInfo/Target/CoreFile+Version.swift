#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension CoreFile {
    /// Which content a file had, told cheaply: its device, inode, size and modification time.
    /// Taken before a core is read and compared after, it tells a reading of one core from a
    /// reading of a file that was written meanwhile (a dump still being written, or replaced).
    public struct Version: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int

        /// The file at `path` as it is now; nil when it cannot be asked (then nothing is compared).
        public init?(ofFileAt path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            modifiedSeconds = Int(status.st_mtim.tv_sec)
            modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        }
    }

    /// Checks that the file at `path` is still the `version` taken before it was read.
    ///
    /// - Throws: ``BinaryInfoError/coreModifiedWhileRead(path:)`` when it was written, truncated
    ///   or replaced since.
    public static func checkUnchanged(_ path: String, since version: Version?) throws(BinaryInfoError) {
        // A file removed meanwhile was still read whole through the descriptor opened on it.
        guard let version, let now = Version(ofFileAt: path) else { return }
        if now != version { throw BinaryInfoError.coreModifiedWhileRead(path: path) }
    }
}
