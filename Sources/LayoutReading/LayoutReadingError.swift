import BinaryInfo
import DWARFInfo

/// Why ``BinaryLayoutReader`` could not read a file, or could not answer a question about it.
public enum LayoutReadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's Swift metadata could not be read (malformed, truncated, not ELF...); the
    /// error names the file.
    case unreadable(path: String, BinaryInfoError)
    /// The file has no Swift metadata, and DWARF (not read, or read) describes no C types either.
    case noTypes(path: String)
    /// The file has no Swift metadata, and its DWARF could not be read.
    case dwarfUnreadable(path: String, DWARFReaderError)
    /// No type of the file has this name, or a name containing it, or one the `/REGEX/` matches.
    case noTypeMatches(path: String, name: String)
    /// A `--type` pattern that does not compile.
    case invalidSelection(TypeFilterError)
    /// An instantiation the file does not define, which could not be laid out, and why.
    case cannotLayOut(path: String, name: String, reason: String)

    /// The one line for an error of a file with no Swift metadata where other files were read
    /// (`dump` of several files): the file is not Swift, whatever its DWARF says.
    public var shortDescription: String {
        switch self {
        case .unreadable(_, let error): return error.description
        case .noTypes(let path): return BinaryInfoError.notSwift(path: path).description
        default: return description
        }
    }

    public var description: String {
        switch self {
        case .unreadable(_, let error):
            return error.description
        case .noTypes(let path):
            return "\(BinaryInfoError.notSwift(path: path)); it has no DWARF C types either"
        case .dwarfUnreadable(let path, let error):
            return "\(BinaryInfoError.notSwift(path: path)); and its DWARF cannot be read: \(error.problem)"
        case .noTypeMatches(let path, let name):
            return "\(path): no type matches '\(name)'; `typeinfo dump \(path)` lists them"
        case .invalidSelection(let error):
            return "\(error)"
        case .cannotLayOut(let path, let name, let reason):
            return "\(path): cannot lay out '\(name)': \(reason)"
        }
    }
}
