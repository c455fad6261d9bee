import BinaryInfo
import TypeLayout
import TypeLowering

/// How to open a live process or a core file: the options `heap`, `object` and `tasks` share.
public struct LiveTargetOptions: Sendable {
    /// The process or core file.
    public var target: TargetSpecifier
    /// Directories searched, in order, for image files that are no longer where the target mapped
    /// them (`--image-path`).
    public var imageSearchPaths: [String]
    /// Stop the process while it is read, and resume it afterwards whatever happens (`--pause`);
    /// ignored for a core file.
    public var pauses: Bool
    /// Where the reflection library and its worker are.
    public var lowering: LoweringConfiguration

    public init(
        target: TargetSpecifier, imageSearchPaths: [String] = [], pauses: Bool = false, lowering: LoweringConfiguration = .resolved()
    ) {
        self.target = target
        self.imageSearchPaths = imageSearchPaths
        self.pauses = pauses
        self.lowering = lowering
    }

    /// Options whose reflection library and worker are given by path (nil: the toolchain's
    /// library, the worker beside the running executable), as the command line gives them.
    public init(
        target: TargetSpecifier, imageSearchPaths: [String] = [], pauses: Bool = false, remoteMirrorPath: String?, workerPath: String?
    ) {
        self.init(
            target: target, imageSearchPaths: imageSearchPaths, pauses: pauses,
            lowering: .resolved(remoteMirrorPath: remoteMirrorPath, workerPath: workerPath))
    }

    /// The target opened for questions: its images matched to their files, its class metadata
    /// recognised, the reflection library in the worker.
    func openInspector() throws(LiveReadingError) -> TargetInspector {
        do throws(TypeLoweringError) {
            return try TargetInspector(target, imageSearchPaths: imageSearchPaths, configuration: lowering)
        } catch {
            throw .lowering(error)
        }
    }

    /// Runs `body` with the process stopped when ``pauses`` asks for it, resuming it afterwards.
    func whilePaused<Result>(_ body: (_ pause: ProcessPause?) throws(LiveReadingError) -> Result) throws(LiveReadingError) -> Result {
        try whilePausedStating(body).result
    }

    /// ``whilePaused(_:)`` for a report that states how the process was held (the pause's
    /// length, or that it was found stopped).
    func whilePausedRecordingStop<Result: StatesReadingStop>(_ body: (_ pause: ProcessPause?) throws(LiveReadingError) -> Result)
        throws(LiveReadingError) -> Result
    {
        var (result, stop) = try whilePausedStating(body)
        if let stop { result.record(stop) }
        return result
    }

    /// Runs `body` as ``whilePaused(_:)`` does, and says how the process was held.
    func whilePausedStating<Result>(_ body: (_ pause: ProcessPause?) throws(LiveReadingError) -> Result)
        throws(LiveReadingError) -> (result: Result, stop: ReadingStop?)
    {
        // Before the target is opened, what the user named decides how it is held: a core file by
        // checking it was not rewritten, a process by stopping it (`--pause`).
        if case .core(let path) = target { return (try whileUnchanged(path, body), nil) }
        guard pauses, case .process(let processID) = target else {
            do {
                return (try body(nil), nil)
            } catch {
                throw vanishedOr(error)
            }
        }
        let pause: ProcessPause
        do {
            pause = try ProcessPause(processID: processID)
        } catch {
            throw vanishedOr(.target(error))
        }
        let result: Result
        do {
            result = try body(pause)
        } catch {
            pause.resume()
            throw vanishedOr(error)
        }
        pause.resume()
        return (result, pause.stoppedIt ? pause.stopLength.map { .paused(length: $0) } : .foundStopped)
    }

    /// Runs `body` on the core file at `path`, and refuses its outcome (a result, or an error that
    /// may come of the change) when the file was written meanwhile: a read that only failed on
    /// the changed bytes (a class not recognised) would otherwise give wrong numbers quietly.
    private func whileUnchanged<Result>(_ path: String, _ body: (_ pause: ProcessPause?) throws(LiveReadingError) -> Result)
        throws(LiveReadingError) -> Result
    {
        let version = CoreFile.Version(ofFileAt: path)
        let outcome = Swift.Result { () throws(LiveReadingError) in try body(nil) }
        do throws(BinaryInfoError) {
            try CoreFile.checkUnchanged(path, since: version)
        } catch {
            throw .target(error)
        }
        return try outcome.get()
    }
}

extension LiveTargetOptions {
    /// Whether the target is a process that has exited (gone, or a zombie): whatever went wrong
    /// in reading it then is that, not what the half-read memory seemed to say ("not a Swift
    /// process", a malformed heap).
    var processVanished: Bool {
        // Asked of what the user named, since the target may never have been opened.
        guard case .process(let processID) = target else { return false }
        return ProcessMemory.hasExited(processID: processID)
    }

    /// `error`, or the process's exit when it exited: the one true description of a reading cut
    /// short.
    func vanishedOr(_ error: LiveReadingError) -> LiveReadingError {
        // "No such process" stands: the process was never seen, so it did not exit while read.
        if case .target(.noSuchProcess) = error { return error }
        if case .lowering(.target(.noSuchProcess)) = error { return error }
        guard case .process(let processID) = target, processVanished else { return error }
        return .target(.processExited(path: "process \(processID)"))
    }
}

/// A report that states how a live process was held while it was read.
protocol StatesReadingStop {
    mutating func record(_ stop: ReadingStop)
}

extension HeapCensus: StatesReadingStop {
    mutating func record(_ stop: ReadingStop) { target.stop = stop }
}

extension TaskReport: StatesReadingStop {
    mutating func record(_ stop: ReadingStop) { target.stop = stop }
}
