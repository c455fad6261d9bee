import TypeLayout

/// A lowering started before the file's static metadata is read: the worker lays the images out
/// while the caller reads, then ``compute(types:)`` sends it the types.
///
/// ```swift
/// let pending = PendingLowering(forFileAt: path, dependencies: dependencies.paths)
/// let document = try BinaryImage.layouts(atPath: path)      // the worker works meanwhile
/// let merged = pending.compute(types: document.types).merged(into: document)
/// ```
///
/// Dropping it without calling ``compute(types:)`` stops the worker.
public final class PendingLowering {
    private let path: String
    private let dependencies: [String]
    private let client: LoweringClient
    private var started: WorkerProcess?

    /// Starts the worker on `path` and its `dependencies`.
    ///
    /// - Parameter wholeFile: most of the file's types will be asked (a whole reading, not a
    ///   selection): the worker then also does the work their lowering starts with (indexing every
    ///   image's field records) while the file is read. A selection of a few types may need none of it.
    public init(forFileAt path: String, dependencies: [String], configuration: LoweringConfiguration = .resolved(), wholeFile: Bool = false)
    {
        self.path = path
        self.dependencies = dependencies
        self.client = LoweringClient(configuration: configuration)
        LoweringTrace.markAtExit("typeinfo", "exit")
        LoweringTrace.mark("typeinfo", "worker-spawn")
        self.started = client.start(file: path, dependencies: dependencies, wholeFile: wholeFile)
        LoweringTrace.mark("typeinfo", "worker-started")
    }

    deinit { started?.abandon() }

    /// Lowers every non-generic struct, enum and class among `types` (see ``ComputedLayouts/compute(forFileAt:types:dependencies:configuration:)``).
    public func compute(types: [TypeLayout]) -> ComputedLayouts {
        LoweringTrace.mark("typeinfo", "static-read-done")
        return ComputedLayouts.compute(forFileAt: path, types: types, dependencies: dependencies, client: client, started: &started)
    }
}
