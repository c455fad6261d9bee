import BinaryInfo
import TypeLowering

/// Why a live process or a core file could not be read.
public enum LiveReadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The target's memory, its images or its heap could not be read: no such process,
    /// permission denied, the process exited, a truncated core, an image file missing or of
    /// another build, a heap that is corrupt or changed under the reading.
    case target(BinaryInfoError)
    /// The reflection library could not answer (the worker is missing, crashed or timed out).
    case lowering(TypeLoweringError)
    /// No image the target had loaded holds Swift metadata.
    case notSwift(target: String)
    /// A `--type` pattern that does not compile.
    case invalidSelection(TypeFilterError)

    public var description: String {
        switch self {
        case .target(let error):
            return error.description
        case .lowering(let error):
            if case .target(let inner) = error { return inner.description }
            return error.description
        case .notSwift(let target):
            return "\(target): not a Swift process: none of the images it has loaded holds Swift metadata"
        case .invalidSelection(let error):
            return "\(error)"
        }
    }
}
