import TypeLayout

/// Runs lowering requests through worker processes, so that a crash or hang of the reflection
/// library costs the one type it happened on: that type becomes unknown with a note, and a new
/// worker carries on with the types not yet answered.
struct LoweringClient {
    let configuration: LoweringConfiguration
    /// Worker crashes tolerated for one reading before the remaining types are given up.
    static let maximumRestarts = 8

    /// Lowers `manglings` in the images `[file] + dependencies`.
    ///
    /// - Returns: every answered type by mangling (types the worker could not lower carry an
    ///   ``LoweredType/unknownReason``), and notes about the run.
    func lower(manglings: [String], file: String, dependencies: [String]) -> (types: [String: LoweredType], notes: [LayoutNote]) {
        var unstarted: WorkerProcess?
        return lower(manglings: manglings, file: file, dependencies: dependencies, started: &unstarted)
    }

    /// Starts a worker on the images now, so it lays them out while the caller reads the file;
    /// ``lower(manglings:file:dependencies:started:)`` then sends it the types.
    ///
    /// - Parameter wholeFile: most of the file's types will be asked (``LoweringRequest/preparesWholeFile``).
    func start(file: String, dependencies: [String], wholeFile: Bool = false) -> WorkerProcess? {
        guard let libraryPath = configuration.remoteMirrorPath, let workerPath = configuration.workerPath else { return nil }
        var request = LoweringRequest(libraryPath: libraryPath, imagePaths: [file] + dependencies, manglings: [])
        request.preparesWholeFile = wholeFile
        guard let preamble = try? request.encodedPreamble(), var process = try? WorkerProcess(executable: workerPath) else { return nil }
        process.preparesWholeFile = wholeFile
        process.send(preamble)
        return process
    }

    /// Like ``lower(manglings:file:dependencies:)``, using a worker from ``start(file:dependencies:)``
    /// (the preamble already sent) for the first attempt; `started` is consumed.
    func lower(
        manglings: [String], file: String, dependencies: [String], started: inout WorkerProcess?,
        includeTypeNames: Bool = false, sizeOnly: Set<String> = []
    ) -> (types: [String: LoweredType], notes: [LayoutNote]) {
        guard !manglings.isEmpty else {
            started?.abandon()
            started = nil
            return ([:], [])
        }
        guard let libraryPath = configuration.remoteMirrorPath else {
            return (
                [:],
                [
                    .lowering(
                        "libswiftRemoteMirror.so not found (no libswiftCore.so loaded from a toolchain directory): computed layouts are off; set TYPEINFO_REMOTE_MIRROR"
                    )
                ]
            )
        }
        guard let workerPath = configuration.workerPath else {
            return ([:], [.lowering("the typeinfo-lowering worker was not found: computed layouts are off; set TYPEINFO_LOWERING_WORKER")])
        }
        var answered: [String: LoweredType] = [:]
        var notes: [LayoutNote] = []
        var remaining = manglings
        var restarts = 0
        while !remaining.isEmpty {
            var request = LoweringRequest(libraryPath: libraryPath, imagePaths: [file] + dependencies, manglings: remaining)
            request.includeTypeNames = includeTypeNames
            request.sizeOnly = sizeOnly
            var parser = LoweringWire.ReplyParser()
            let ending: WorkerProcess.Ending
            var preparedWholeFile = false
            do {
                if var process = started {
                    started = nil
                    preparedWholeFile = process.preparesWholeFile
                    process.send(request.encodedTypes())
                    LoweringTrace.mark("typeinfo", "types-sent")
                    var first = true
                    ending = try process.finish(silenceLimit: configuration.silenceLimit) { line throws(TypeLoweringError) in
                        if first, LoweringTrace.isEnabled {
                            first = false
                            LoweringTrace.mark("typeinfo", "first-reply")
                        }
                        try parser.consume(line)
                    }
                    LoweringTrace.mark("typeinfo", "worker-reaped")
                } else {
                    let input = try request.encoded()
                    ending = try WorkerProcess.run(executable: workerPath, input: input, silenceLimit: configuration.silenceLimit) {
                        line throws(TypeLoweringError) in
                        try parser.consume(line)
                    }
                }
            } catch {
                return (answered, notes + [.lowering("\(error)")])
            }
            if preparedWholeFile, !parser.ready, Self.crashedOrHung(ending) {
                // The preparation is the one step a restarted worker does not take (the retry's
                // request asks for none): should it have failed, the types are still answered.
                notes.append(
                    .lowering(
                        "the lowering worker \(Self.describe(ending)) while preparing for the whole file: retried without that preparation")
                )
                continue
            }
            // The worker's own notes come over the wire as text.
            if restarts == 0 { notes += parser.notes.map(LayoutNote.lowering) }
            for type in parser.finished { answered[type.mangling] = type }
            guard parser.ready else {
                let said = parser.notes.last ?? "no reason given"
                return (
                    answered,
                    notes + [
                        .lowering(
                            "computed layouts unavailable for \(file): the worker stopped before its first type (\(Self.describe(ending))): \(said)"
                        )
                    ]
                )
            }
            let done = Set(parser.finished.map(\.mangling))
            remaining.removeAll { done.contains($0) }
            guard ending != .exited(0) || !remaining.isEmpty else { break }
            // The type begun and never ended is the one the worker died on.
            let culprit = parser.current?.mangling ?? remaining.first
            if let culprit {
                var lost = LoweredType(mangling: culprit)
                lost.unknownReason = "the reflection library \(Self.describe(ending)) on it"
                answered[culprit] = lost
                notes.append(
                    .loweringFailed(
                        mangling: "$s\(culprit)",
                        text: "type lowering \(Self.describe(ending)) on $s\(culprit): its computed layout is unknown"))
                remaining.removeAll { $0 == culprit }
            }
            restarts += 1
            if restarts > Self.maximumRestarts && !remaining.isEmpty {
                notes.append(
                    .loweringGaveUp(
                        "type lowering gave up after \(Self.maximumRestarts) worker crashes: \(remaining.count) types have no computed layout"
                    ))
                break
            }
        }
        return (answered, notes)
    }

    private static func crashedOrHung(_ ending: WorkerProcess.Ending) -> Bool {
        if case .exited = ending { return false }
        return true
    }

    private static func describe(_ ending: WorkerProcess.Ending) -> String {
        switch ending {
        case .exited(let status): return "exited with status \(status)"
        case .signalled(let signal): return "crashed (signal \(signal))"
        case .timedOut: return "hung (killed after its time limit)"
        }
    }
}
