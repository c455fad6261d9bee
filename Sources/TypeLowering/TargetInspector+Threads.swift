import BinaryInfo

/// A thread of a target, as glibc's libthread_db lists it, with what the concurrency runtime's
/// thread-local variables say it runs.
public struct TargetThread: Sendable, Equatable {
    /// Its kernel thread id (what `gettid` returns in it); nil when libthread_db could not say.
    public var threadID: Int32?
    /// The task it runs (the runtime's current task of the thread): 0 for none, nil when unknown.
    public var currentTask: UInt64?
    /// The identity object of the executor whose job it runs (for a default actor, the actor): 0
    /// for none or the generic executor, nil when unknown.
    public var executorIdentity: UInt64?

    public init(threadID: Int32?, currentTask: UInt64?, executorIdentity: UInt64?) {
        self.threadID = threadID
        self.currentTask = currentTask
        self.executorIdentity = executorIdentity
    }
}

/// What could be read of a target's threads.
public enum TargetThreads: Sendable, Equatable {
    /// Every thread libthread_db listed; `isTruncated` when the list was longer than was followed.
    case listed([TargetThread], isTruncated: Bool)
    /// Why libthread_db could not list them (one line).
    case unavailable(reason: String)
}

extension TargetInspector {
    /// The target's threads, each with the task it runs and the identity of its active executor,
    /// read in the worker with glibc's libthread_db and the thread-local variables of the
    /// concurrency runtime in the image loaded at `runtimeImage` (`libswift_Concurrency.so`, or an
    /// executable linked with `-static-stdlib`).
    ///
    /// - Returns: ``TargetThreads/unavailable(reason:)`` when libthread_db cannot list them (a C
    ///   library of another version, a stripped runtime, damaged thread lists).
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func threads(concurrencyRuntimeAt runtimeImage: UInt64) throws(TypeLoweringError) -> TargetThreads {
        try checkReadable()
        var threads: [TargetThread] = []
        var result: TargetThreads?
        try ask([.threads(runtimeImage)]) { reply in
            switch reply {
            case .thread(let thread): threads.append(thread)
            case .threads(let truncated?, _): result = .listed(threads, isTruncated: truncated)
            case .threads(nil, let reason): result = .unavailable(reason: reason)
            default: break
            }
        }
        return result ?? .unavailable(reason: "the worker did not answer")
    }
}
