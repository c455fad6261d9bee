/// Why DWARF debug information could not be read from a file.
///
/// Each case names the file and says what is wrong and, where there is one, what to do.
public enum DWARFReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileNotFound(path: String)
    /// The path names a directory or another non-regular file.
    case notARegularFile(path: String)
    /// The file exists but could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is not an ELF file (its first bytes are not `\u{7F}ELF`).
    case notELF(path: String)
    /// The file is shorter than its own headers say.
    case truncated(path: String, detail: String)
    /// The file is ELF but carries no DWARF debug information (`.debug_info`).
    case noDebugInfo(path: String)
    /// libdwarf rejected the debug information; `offset` is the `.debug_info` offset of the unit
    /// or entry being read, where known.
    case malformedDebugInfo(path: String, offset: UInt64?, detail: String)
    /// The debug information holds more entries than this reader accepts in one file.
    case tooManyEntries(path: String, limit: Int)

    /// One line naming the file and the problem: `PATH: problem`.
    public var description: String { "\(path): \(problem)" }

    /// The file the error is about.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .notARegularFile(let path), .unreadable(let path, _), .notELF(let path), .truncated(let path, _),
            .noDebugInfo(let path), .malformedDebugInfo(let path, _, _), .tooManyEntries(let path, _):
            return path
        }
    }

    /// What is wrong, without the path (for a message that names the file already).
    public var problem: String {
        switch self {
        case .fileNotFound:
            return "no such file"
        case .notARegularFile:
            return "not a regular file (a directory?): give the path of an ELF binary or object file"
        case .unreadable(_, let reason):
            return "cannot read: \(reason)"
        case .notELF:
            return "not an ELF file"
        case .truncated(_, let detail):
            return "truncated ELF file: \(detail)"
        case .noDebugInfo:
            return "no DWARF debug information: build with -g (Swift types need `swiftc -g -Xfrontend -gdwarf-types`)"
        case .malformedDebugInfo(_, let offset, let detail):
            if let offset {
                return "malformed DWARF at .debug_info offset 0x\(String(offset, radix: 16)): \(detail)"
            }
            return "malformed DWARF: \(detail)"
        case .tooManyEntries(_, let limit):
            return "more than \(limit) DWARF type entries; refusing to read further"
        }
    }
}
