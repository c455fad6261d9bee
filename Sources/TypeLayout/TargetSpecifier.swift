/// What a live reading reads: a running process or a core file.
///
/// A plain value, so that every layer can name a target (the CLI parses one, the readers open
/// it) without importing the layer that opens it.
public enum TargetSpecifier: Sendable, Hashable, CustomStringConvertible {
    /// A running process, read with `process_vm_readv` (never written; stopped only when asked).
    case process(Int32)
    /// An ELF core file (`gcore`, systemd-coredump, the kernel's dumps).
    case core(path: String)

    /// The target a command-line argument names: a process id when it is all digits, else a
    /// core file's path; nil for an empty argument or digits that are no process id.
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        if argument.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let processID = Int32(argument) else { return nil }
            self = .process(processID)
        } else {
            self = .core(path: argument)
        }
    }

    /// `process 1234`, or the core file's path: how errors name the target.
    public var description: String {
        switch self {
        case .process(let id): return "process \(id)"
        case .core(let path): return path
        }
    }
}
