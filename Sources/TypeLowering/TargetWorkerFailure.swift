import BinaryInfo
import TypeLayout

/// Why the worker could not answer about a target, as its `failed` reply states it: a kind the
/// client turns into a ``TypeLoweringError`` (``error(target:libraryPath:images:errorOutput:)``)
/// without reading the target itself to find out.
///
/// Wire spelling (after `failed `):
///
///     target-gone exited                  (the process exited: its memory is gone)
///     target-gone no-such-process         (no process has the id any more)
///     target-gone access-denied <reason>  (the kernel no longer lets it be read)
///     target <detail>                     (the target could not be opened or read otherwise)
///     image 0x<load> <detail>             (that image of the map is not usable in the worker)
///     library <detail>                    (libswiftRemoteMirror could not be loaded)
///     unverified <detail>                 (the library's task and actor layouts are not verified)
///     request <detail>                    (the request broke the message format)
enum TargetWorkerFailure: Sendable, Equatable {
    /// How a process stopped being readable.
    enum Gone: Sendable, Equatable {
        case exited
        case noSuchProcess
        case accessDenied(reason: String)
    }

    case targetGone(Gone)
    case target(String)
    case image(loadAddress: UInt64, String)
    case library(String)
    case unverified(String)
    case request(String)

    /// The failure `error` (of reading the target in the worker) is; `map` names an image by the
    /// path an error gives.
    init(_ error: BinaryInfoError, map: TargetImageMap?) {
        switch error {
        case .processExited: self = .targetGone(.exited)
        case .noSuchProcess: self = .targetGone(.noSuchProcess)
        case .processAccessDenied(_, let reason): self = .targetGone(.accessDenied(reason: reason))
        case .imageMissing(_, let image, _), .imageDiffers(_, let image, _, _, _):
            if let entry = map?.images.first(where: { $0.mappedPath == image }) {
                self = .image(loadAddress: entry.loadAddress, error.description)
            } else {
                self = .target(error.description)
            }
        default: self = .target(error.description)
        }
    }

    /// The failure `error` (of opening the target and the library in the worker) is.
    init(_ error: TypeLoweringError, map: TargetImageMap?) {
        switch error {
        case .target(let error): self.init(error, map: map)
        case .remoteMirrorUnavailable(_, let reason): self = .library(reason)
        case .protocolViolation(let detail): self = .request(detail)
        default: self = .target(error.description)
        }
    }

    /// Whether the error this failure is names the file that keeps the worker's error output
    /// (a failure the worker could say no more about).
    var namesErrorOutput: Bool {
        switch self {
        case .target, .unverified: return true
        default: return false
        }
    }

    /// The text after `failed `.
    var encoded: String {
        let text: String
        switch self {
        case .targetGone(.exited): text = "target-gone exited"
        case .targetGone(.noSuchProcess): text = "target-gone no-such-process"
        case .targetGone(.accessDenied(let reason)): text = "target-gone access-denied " + reason
        case .target(let detail): text = "target " + detail
        case .image(let load, let detail): text = "image \(TargetWire.hex(load)) " + detail
        case .library(let detail): text = "library " + detail
        case .unverified(let detail): text = "unverified " + detail
        case .request(let detail): text = "request " + detail
        }
        return String(text.map { $0 == "\n" ? " " : $0 })
    }

    /// Parses the text after `failed `; nil when it is none of the kinds.
    init?(encoded text: some StringProtocol) {
        let (kind, rest) = LoweringWire.split(String(text))
        switch kind {
        case "target-gone":
            let (how, reason) = LoweringWire.split(rest)
            switch how {
            case "exited" where reason.isEmpty: self = .targetGone(.exited)
            case "no-such-process" where reason.isEmpty: self = .targetGone(.noSuchProcess)
            case "access-denied": self = .targetGone(.accessDenied(reason: reason))
            default: return nil
            }
        case "target": self = .target(rest)
        case "image":
            let (address, detail) = LoweringWire.split(rest)
            guard let load = TargetWire.address(address) else { return nil }
            self = .image(loadAddress: load, detail)
        case "library": self = .library(rest)
        case "unverified": self = .unverified(rest)
        case "request": self = .request(rest)
        default: return nil
        }
    }

    /// The error this failure is for the client that opened `target`: a target that is gone is
    /// its ``BinaryInfoError`` (a process the client opened and the worker cannot find has
    /// exited), so that readers end as for any read of an exited process; the others say what
    /// the worker found.
    ///
    /// - Parameters:
    ///   - images: the client's images, to name an unusable one by the path it was mapped from.
    ///   - errorOutput: where the worker's standard error is kept, if it wrote anything.
    func error(target: TargetSpecifier, libraryPath: String, images: [TargetImage], errorOutput: String?) -> TypeLoweringError {
        let path = target.description
        let kept = errorOutput.map { ", its error output kept in \($0)," } ?? ""
        switch self {
        case .targetGone(.exited), .targetGone(.noSuchProcess): return .target(.processExited(path: path))
        case .targetGone(.accessDenied(let reason)): return .target(.processAccessDenied(path: path, reason: reason))
        case .target(let detail): return .workerEnded(path: path, reason: "failed to read the target (\(detail))\(kept)")
        case .image(let load, let detail):
            let image = images.first { $0.loadAddress == load }?.mappedPath ?? TargetWire.hex(load)
            return .imageUnusable(path: image, reason: "the lowering worker cannot use it: \(detail)")
        case .library(let reason): return .remoteMirrorUnavailable(path: libraryPath, reason: reason)
        case .unverified(let detail): return .workerEnded(path: path, reason: "refused the reflection library (\(detail))\(kept)")
        case .request(let detail): return .protocolViolation(detail: "the worker refused the request: \(detail)")
        }
    }
}
