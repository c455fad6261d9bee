import BinaryInfo
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
        if case .core(let path) = target { return try whileUnchanged(path, body) }
        guard pauses, case .process(let processID) = target else { return try body(nil) }
        let pause: ProcessPause
        do {
            pause = try ProcessPause(processID: processID)
        } catch {
            throw .target(error)
        }
        defer { pause.resume() }
        return try body(pause)
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
