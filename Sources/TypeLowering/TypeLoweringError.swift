import BinaryInfo

/// Why computed layouts could not be had for a reading (each is also said as a note; the
/// reading itself goes on with the other sources).
public enum TypeLoweringError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libswiftRemoteMirror could not be loaded from `path`.
    case remoteMirrorUnavailable(path: String, reason: String)
    /// The worker executable was not found or could not be started.
    case workerUnavailable(path: String, reason: String)
    /// An image could not be laid out in the worker's memory.
    case imageUnusable(path: String, reason: String)
    /// The worker said something outside the message format.
    case protocolViolation(detail: String)
    /// The target (a process or a core file) could not be opened or read.
    case target(BinaryInfoError)
    /// The worker ended (crashed, hung or exited) before it answered about a target.
    case workerEnded(path: String, reason: String)
    /// The worker exited with status 0 without answering every question of `question` (a
    /// complete reply ends with `done`); `errorOutput` is the file that keeps what it wrote to
    /// its standard error, if it wrote anything.
    case workerUnanswered(path: String, question: String, errorOutput: String?)

    /// One line saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .remoteMirrorUnavailable(let path, let reason):
            return
                "libswiftRemoteMirror unavailable at \(path) (\(reason)): computed layouts are off; set TYPEINFO_REMOTE_MIRROR to the library's path"
        case .workerUnavailable(let path, let reason):
            return
                "the lowering worker \(path) cannot run (\(reason)): computed layouts are off; set TYPEINFO_LOWERING_WORKER to the typeinfo-lowering executable"
        case .imageUnusable(let path, let reason):
            return "\(path): cannot be laid out for type lowering: \(reason)"
        case .protocolViolation(let detail):
            return "the lowering worker broke its message format: \(detail)"
        case .target(let error):
            return error.description
        case .workerEnded(let path, let reason):
            return "\(path): the lowering worker \(reason) before it answered; the target was not changed"
        case .workerUnanswered(let path, let question, let errorOutput):
            return
                "\(path): the lowering worker exited (status 0) without answering \(question)\(errorOutput.map { " (its error output is kept in \($0))" } ?? ""); nothing was read from its partial answer, and the target was not changed"
        }
    }
}
