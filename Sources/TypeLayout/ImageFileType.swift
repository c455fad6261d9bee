/// What a layout document was read from: an ELF file of some type, or a target's memory.
///
/// Written in documents as its ``description`` (`executable`, `shared-library`, `relocatable`,
/// `process`, `core`, or `ELF type N` for another ELF `e_type`).
public enum ImageFileType: Hashable, Sendable, CustomStringConvertible {
    /// An executable (`ET_EXEC`, or `ET_DYN` with a program interpreter).
    case executable
    /// A shared library (`ET_DYN` without an interpreter).
    case sharedLibrary
    /// An object file (`ET_REL`).
    case relocatable
    /// A running process's memory (in-process readings, and `dump --pid`'s instantiations).
    case process
    /// A core file's memory.
    case core
    /// Another ELF `e_type`.
    case elfType(UInt16)

    public var description: String {
        switch self {
        case .executable: return "executable"
        case .sharedLibrary: return "shared-library"
        case .relocatable: return "relocatable"
        case .process: return "process"
        case .core: return "core"
        case .elfType(let type): return "ELF type \(type)"
        }
    }

    /// The type a document names; nil for a name this version does not know.
    public init?(description: String) {
        switch description {
        case "executable": self = .executable
        case "shared-library": self = .sharedLibrary
        case "relocatable": self = .relocatable
        case "process": self = .process
        case "core": self = .core
        default:
            guard description.hasPrefix("ELF type "), let type = UInt16(description.dropFirst("ELF type ".count)) else { return nil }
            self = .elfType(type)
        }
    }
}
