#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The memory of a running process, read with `process_vm_readv(2)`: never written, and the
/// process is neither stopped nor traced by reading it.
///
/// The kernel checks each read as it would a `ptrace` attach (same user, or `CAP_SYS_PTRACE`,
/// and Yama's `ptrace_scope`), so a refusal is reported with the reason
/// (``BinaryInfoError/processAccessDenied(path:reason:)``). A process that ends while it is read
/// is ``BinaryInfoError/processExited(path:)``, never bytes of another.
public struct ProcessMemory: Sendable {
    /// The process's id.
    public let processID: Int32
    /// The name errors give the target: `process 1234`.
    public var path: String { "process \(processID)" }
    /// The memory map tests make it see instead of its own (a changed one); nil reads
    /// `/proc/PID/maps` each time it is asked.
    var fixedMap: MemoryMap?

    /// A reader of the process `processID`.
    ///
    /// - Throws: ``BinaryInfoError/noSuchProcess(path:)`` when no process has this id, and
    ///   ``BinaryInfoError/processExited(path:)`` for a zombie (it has no memory left to read).
    public init(processID: Int32) throws(BinaryInfoError) {
        self.processID = processID
        guard processID > 0, let status = try? ImageLoader.readFile("/proc/\(processID)/stat") else {
            throw BinaryInfoError.noSuchProcess(path: "process \(processID)")
        }
        // The state follows the parenthesised command, which may itself hold ") ".
        let text = status.text
        if let close = text.lastIndex(of: ")"), text[close...].dropFirst(2).first == "Z" {
            throw BinaryInfoError.processExited(path: path)
        }
    }

    /// Whether the process `processID` has exited: no longer listed, or a zombie (its memory is
    /// gone).
    public static func hasExited(processID: Int32) -> Bool {
        guard processID > 0, let status = try? ImageLoader.readFile("/proc/\(processID)/stat") else { return true }
        let text = status.text
        guard let close = text.lastIndex(of: ")"), let state = text[close...].dropFirst(2).first else { return true }
        return state == "Z" || state == "X"
    }

    /// The program's name as the kernel keeps it (`/proc/PID/comm`: at most 15 bytes).
    ///
    /// - Throws: ``BinaryInfoError/processExited(path:)`` when the process is gone.
    public var command: String {
        get throws(BinaryInfoError) {
            guard let bytes = try? ImageLoader.readFile("/proc/\(processID)/comm") else { throw .processExited(path: path) }
            return String(bytes.text.prefix { $0 != "\n" })
        }
    }

    /// Copies `count` bytes of the process's memory at `address`.
    ///
    /// - Throws: ``BinaryInfoError/unmapped(path:what:address:length:)`` when a byte of the range
    ///   is not mapped; ``BinaryInfoError/processExited(path:)``;
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)``.
    public func bytes(at address: UInt64, count: Int) throws(BinaryInfoError) -> [UInt8] {
        try bytes(at: address, count: count, what: "memory")
    }

    /// `process_vm_readv` from libc, looked up once: Glibc's module map leaves it out (it is a
    /// `_GNU_SOURCE` declaration).
    typealias ReadVector =
        @convention(c) (
            pid_t, UnsafePointer<iovec>?, UInt, UnsafePointer<iovec>?, UInt, UInt
        ) -> Int
    static let readVector: ReadVector? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "process_vm_readv").map {
        unsafeBitCast($0, to: ReadVector.self)
    }
}

extension ProcessMemory: ByteReader {
    /// Copies `destination.count` bytes of the target's memory at `address` (see ``ByteReader``).
    public func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        guard let base = destination.baseAddress, destination.count > 0 else { return }
        guard !address.addingReportingOverflow(UInt64(destination.count)).overflow,
            let remoteBase = UnsafeMutableRawPointer(bitPattern: UInt(address))
        else { throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count)) }
        guard let readVector = Self.readVector else {
            throw BinaryInfoError.processAccessDenied(path: path, reason: "this C library has no process_vm_readv")
        }
        var copied = 0
        // The kernel may copy less than asked: it stops at the first page it cannot read.
        while copied < destination.count {
            var local = iovec(iov_base: base + copied, iov_len: destination.count - copied)
            var remote = iovec(iov_base: remoteBase + copied, iov_len: destination.count - copied)
            let count = readVector(processID, &local, 1, &remote, 1, 0)
            if count > 0 {
                copied += count
                continue
            }
            let code = count == 0 ? EFAULT : errno
            switch code {
            case EINTR:
                continue
            case ESRCH:
                throw BinaryInfoError.processExited(path: path)
            case EPERM, EACCES:
                throw BinaryInfoError.processAccessDenied(path: path, reason: ProcessAccess.denialReason(processID: processID))
            default:
                throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
            }
        }
    }
}
