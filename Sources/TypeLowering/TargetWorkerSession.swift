import BinaryInfo
import Synchronization

/// The `typeinfo-lowering` worker a ``TargetInspector`` asks its questions of, kept between
/// batches: started at the first batch with the target's image map (``TargetImageMap``: the
/// worker reads neither the process's memory map nor matches files again), it opens the target
/// and sets up libswiftRemoteMirror once, then answers each batch sent to it.
///
/// A worker that crashes, hangs, exits or fails during a batch costs that batch's questions
/// (one ``TypeLoweringError``, as before); the next batch starts a new worker, and what the one
/// that ended wrote to its standard error is kept in the file the error names. A worker that
/// fails with the target gone (``TargetWorkerFailure``) is the target's own error, typed by the
/// worker, never found out by reading the target here.
///
/// Batches are asked one at a time (a lock): the worker answers in order.
final class TargetWorkerSession: Sendable {
    private struct State {
        /// The worker kept after its last batch was answered.
        var worker: WorkerProcess?
        /// How many workers this session started.
        var started = 0
    }

    private let state = Mutex(State())
    private let memory: TargetMemory
    private let imageSearchPaths: [String]
    private let configuration: LoweringConfiguration

    init(memory: TargetMemory, imageSearchPaths: [String], configuration: LoweringConfiguration) {
        self.memory = memory
        self.imageSearchPaths = imageSearchPaths
        self.configuration = configuration
    }

    deinit {
        // The worker exits at the end of its input; one that does not soon is killed.
        state.withLock { state in state.worker?.end(waitLimit: min(configuration.silenceLimit, 2)) }
    }

    /// How many workers this session has started (one, unless some ended during a batch).
    var workersStarted: Int { state.withLock { $0.started } }

    /// The process id of the worker kept for the next batch, if one is.
    var workerProcessID: Int32? { state.withLock { $0.worker?.pid } }

    /// Asks `queries` as one batch, feeding each reply to `onReply`.
    ///
    /// - Throws: ``TypeLoweringError``: the library or the worker not found, the worker's typed
    ///   failure (``TargetWorkerFailure/error(target:libraryPath:images:errorOutput:)``), or the
    ///   worker ending before `done`: ``TypeLoweringError/workerEnded(path:reason:)`` for a crash,
    ///   a hang or a non-zero exit, ``TypeLoweringError/workerUnanswered(path:question:errorOutput:)``
    ///   for an exit with status 0.
    func ask(_ queries: [TargetRequest.Query], onReply: (TargetReply) -> Void) throws(TypeLoweringError) {
        guard let libraryPath = configuration.remoteMirrorPath else {
            throw .remoteMirrorUnavailable(path: "libswiftRemoteMirror.so", reason: "not found")
        }
        guard let workerPath = configuration.workerPath else {
            throw .workerUnavailable(path: "typeinfo-lowering", reason: "not found")
        }
        try state.withLock { (state: inout State) throws(TypeLoweringError) in
            try ask(queries, libraryPath: libraryPath, workerPath: workerPath, state: &state, onReply: onReply)
        }
    }

    private func ask(
        _ queries: [TargetRequest.Query], libraryPath: String, workerPath: String, state: inout State,
        onReply: (TargetReply) -> Void
    ) throws(TypeLoweringError) {
        var process: WorkerProcess
        if var kept = state.worker, kept.hasEndedOrSpoken() {
            // Killed while it waited, say: nothing of this batch was sent to it yet.
            kept.end(waitLimit: 0)
            state.worker = nil
        }
        let isNew = state.worker == nil
        if let kept = state.worker {
            process = kept
            state.worker = nil
        } else {
            let preamble = try TargetRequest(
                libraryPath: libraryPath, target: memory.target, imageSearchPaths: imageSearchPaths, imageMap: memory.imageMap
            ).encoded()
            process = try WorkerProcess(executable: workerPath)
            process.keepsErrorOutput = true
            state.started += 1
            LoweringTrace.mark("typeinfo", "target-worker-started")
            process.send(preamble)
        }
        process.send(TargetRequest.encodedBatch(queries))
        var sawHeader = !isNew
        var failure: TargetWorkerFailure?
        let ending: WorkerProcess.BatchEnding
        do throws(TypeLoweringError) {
            ending = try process.readBatch(silenceLimit: configuration.silenceLimit) { line throws(TypeLoweringError) -> Bool in
                guard sawHeader else {
                    guard line == TargetWire.header else {
                        throw .protocolViolation(detail: "worker replied '\(line.prefix(80))', not '\(TargetWire.header)'")
                    }
                    sawHeader = true
                    return false
                }
                let reply = try TargetReply.decode(line)
                onReply(reply)
                switch reply {
                case .done: return true
                case .failed(let reason):
                    // The worker answers nothing after it: the batch ends here.
                    failure = reason
                    return true
                default: return false
                }
            }
        } catch {
            process.discardErrorOutput()
            throw error
        }
        let path = memory.path
        if let failure {
            // What the worker wrote to its standard error is kept where the error names it.
            process.end(waitLimit: 2, keepingErrorOutput: true)
            let errorOutput = failure.namesErrorOutput ? process.keptErrorOutput() : nil
            process.discardErrorOutputUnless(errorOutput)
            throw failure.error(target: memory.target, libraryPath: libraryPath, images: memory.images, errorOutput: errorOutput)
        }
        guard case .ended(let ended) = ending else {
            state.worker = process
            return
        }
        // What the worker wrote to its standard error (a crash's backtrace) is kept in a file the
        // message names, rather than poured onto the user's terminal.
        let kept = process.keptErrorOutput().map { ", its error output kept in \($0)," } ?? ""
        switch ended {
        case .exited(0):
            throw .workerUnanswered(path: path, question: TargetRequest.describe(queries), errorOutput: process.keptErrorOutput())
        case .exited(let status): throw .workerEnded(path: path, reason: "exited with status \(status)\(kept)")
        case .signalled(let signal): throw .workerEnded(path: path, reason: "crashed (signal \(signal))\(kept)")
        case .timedOut: throw .workerEnded(path: path, reason: "hung (killed after its time limit)\(kept)")
        }
    }
}
