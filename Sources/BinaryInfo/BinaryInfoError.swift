/// Why a binary could not be read.
///
/// Every case names what went wrong in words a user can act on; ``BinaryInfoError/description``
/// is the one line the CLI prints after the file's path.
public enum BinaryInfoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path does not exist.
    case fileNotFound
    /// The path names a directory, not a file.
    case isDirectory
    /// The file exists but could not be read (`detail` is the system's reason).
    case unreadable(detail: String)
    /// The file is larger than this reader accepts.
    case tooLarge(size: Int, limit: Int)
    /// The bytes are not an ELF file.
    case notELF
    /// An ELF file this reader does not handle (32-bit, big-endian, another machine).
    case unsupported(detail: String)
    /// libelf rejected the file's structure.
    case malformedELF(detail: String)
    /// A read at a file offset or virtual address fell outside the data it belongs to.
    case outOfBounds(what: String, address: UInt64, length: UInt64)
    /// A value read from the file is not what the Swift ABI allows at that place.
    case malformedRecord(what: String, address: UInt64, detail: String)
    /// A chain of references (parent contexts, superclasses) loops or is deeper than any real program.
    case referenceCycle(what: String, address: UInt64)
    /// A valid ELF file with no Swift reflection sections: not built by swiftc, or stripped of them.
    case notSwift

    /// One line describing the problem (without the file name, which the caller adds).
    public var description: String {
        switch self {
        case .fileNotFound:
            return "no such file"
        case .isDirectory:
            return "is a directory, not an ELF file"
        case .unreadable(let detail):
            return "cannot read the file: \(detail)"
        case .tooLarge(let size, let limit):
            return "file is \(size) bytes, more than the \(limit)-byte limit"
        case .notELF:
            return "not an ELF file (no \\x7fELF magic)"
        case .unsupported(let detail):
            return "unsupported ELF file: \(detail)"
        case .malformedELF(let detail):
            return "malformed ELF file: \(detail)"
        case .outOfBounds(let what, let address, let length):
            return "malformed file: \(what) at 0x\(String(address, radix: 16)) (\(length) bytes) lies outside the file's data"
        case .malformedRecord(let what, let address, let detail):
            return "malformed Swift metadata: \(what) at 0x\(String(address, radix: 16)): \(detail)"
        case .referenceCycle(let what, let address):
            return "malformed Swift metadata: \(what) at 0x\(String(address, radix: 16)) loops back on itself"
        case .notSwift:
            return "no Swift reflection sections (swift5_*): not a Swift binary, or they were stripped"
        }
    }
}
