import BinaryInfo
import TypeLayout

/// An async task of a target, as libswiftRemoteMirror's `swift_reflection_asyncTaskInfo` reads it.
public struct TargetTask: Sendable, Equatable {
    /// The task object's address.
    public var address: UInt64
    /// The runtime's task id.
    public var id: UInt64
    /// The function the task runs next (its `ResumeTask`): for a suspended task, where it resumes.
    public var resumeAddress: UInt64
    /// The task's current maximum priority (`Task.Priority` raw value; 0 when unspecified).
    public var priority: Int
    public var isCancelled: Bool
    /// Whether a thread runs the task now; nil when the library cannot tell.
    public var isRunning: Bool?
    /// Whether the task is enqueued to run (on an executor or an actor).
    public var isEnqueued: Bool
    public var isChildTask: Bool
    public var isGroupChildTask: Bool
    public var isAsyncLetTask: Bool
    /// Whether the task is a future: it has a result (every `Task`, task group child and
    /// `async let`), kept in its future fragment.
    public var isFuture: Bool
    /// The addresses of its child tasks (task group children, `async let`).
    public var children: [UInt64]
    /// The resume addresses of its async callers, innermost first.
    public var backtrace: [UInt64]
}

/// An actor of a target, as `swift_reflection_actorInfo` and `swift_reflection_nextJob` read it.
public struct TargetActor: Sendable, Equatable {
    /// The runtime's actor states.
    public enum State: Sendable, Equatable {
        case idle, scheduled, running, zombie
        /// A value this reader does not know.
        case other(Int)
    }

    /// The actor object's address.
    public var address: UInt64
    public var state: State
    public var priority: Int
    public var isDistributedRemote: Bool
    /// The jobs waiting in its queue, first to last (a job that is a task is at the task's address).
    public var queuedJobs: [UInt64]
    /// Whether the queue was longer than was followed.
    public var isQueueTruncated: Bool
}

/// What the reflection library read of a target's tasks and actors.
public struct TargetConcurrency: Sendable {
    /// Every task read, by address: those asked for and their descendants.
    public var tasks: [UInt64: TargetTask] = [:]
    /// The library's error for each task it could not read.
    public var unreadTasks: [UInt64: String] = [:]
    public var actors: [UInt64: TargetActor] = [:]
    public var unreadActors: [UInt64: String] = [:]
}

extension TargetInspector {
    /// The most rounds of following child tasks to their children.
    static let maximumTaskDepth = 64

    /// Why the configured libswiftRemoteMirror is not used for tasks and actors (it is not one
    /// whose task and actor layouts typeinfo has verified: with another, a task's state could be
    /// misread), as one line; nil when it is used.
    ///
    /// - Throws: ``TypeLoweringError/remoteMirrorUnavailable(path:reason:)`` when there is no library.
    public func concurrencyLayoutRefusal() throws(TypeLoweringError) -> String? {
        guard let path = configuration.remoteMirrorPath else {
            throw .remoteMirrorUnavailable(path: "libswiftRemoteMirror.so", reason: "not found")
        }
        let buildID = (try? BuildID.read(ofFileAt: path)).flatMap { $0?.description }
        guard let buildID, RemoteMirrorConcurrency.verifiedLibraries.contains(buildID) else {
            return RemoteMirrorConcurrency.unverifiedReason(path: path)
        }
        return nil
    }

    /// The type names of type metadata of any kind (a future's result type: a struct, enum, tuple,
    /// function or class), as libswiftRemoteMirror reads them from the target.
    ///
    /// - Parameter addresses: metadata addresses; one whose first word is neither a Swift class's
    ///   metadata nor a value metadata kind (struct, enum, optional, foreign class, opaque, tuple,
    ///   function, existential, metatype) is never passed to the library and has no name.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func typeNames(ofTypeMetadata addresses: [UInt64]) throws(TypeLoweringError) -> [UInt64: String] {
        try checkReadable()
        let valid = Set(addresses).filter { address in
            guard address >= 4096, address & 7 == 0 else { return false }
            if classMetadata(at: address) != nil { return true }
            guard let kind = try? memory.read(UInt64.self, at: address, what: "type metadata") else { return false }
            return (0x200...0x204).contains(kind) || (0x300...0x308).contains(kind)
        }
        guard !valid.isEmpty else { return [:] }
        var names: [UInt64: String] = [:]
        try ask(valid.sorted().map { .name($0) }) { reply in
            if case .name(let address, let mangling?) = reply { names[address] = typeName(libraryMangling: mangling) }
        }
        return names
    }

    /// Reads the tasks and actors at the addresses, and the child tasks of every task read, to
    /// their last generation.
    ///
    /// - Throws: as ``typeNames(ofMetadata:)``, and when the library is not one whose task and
    ///   actor layouts are verified.
    public func concurrency(tasks: [UInt64], actors: [UInt64]) throws(TypeLoweringError) -> TargetConcurrency {
        try checkReadable()
        var result = TargetConcurrency()
        var queries: [TargetRequest.Query] = Set(tasks).sorted().map { .task($0) } + Set(actors).sorted().map { .actor($0) }
        var rounds = 0
        while !queries.isEmpty, rounds < Self.maximumTaskDepth {
            rounds += 1
            try ask(queries) { reply in
                switch reply {
                case .task(let address, let info):
                    result.tasks[address] = TargetTask(
                        address: address, id: info.id, resumeAddress: info.runJob, priority: info.priority,
                        isCancelled: info.isCancelled, isRunning: info.isRunning, isEnqueued: info.isEnqueued,
                        isChildTask: info.isChildTask, isGroupChildTask: info.isGroupChildTask, isAsyncLetTask: info.isAsyncLetTask,
                        isFuture: info.isFuture, children: info.children, backtrace: info.backtrace)
                case .actor(let address, let info):
                    let state: TargetActor.State =
                        switch info.state {
                        case 0: .idle
                        case 1: .scheduled
                        case 2: .running
                        case 3: .zombie
                        default: .other(info.state)
                        }
                    result.actors[address] = TargetActor(
                        address: address, state: state, priority: info.maxPriority, isDistributedRemote: info.isDistributedRemote,
                        queuedJobs: info.jobs, isQueueTruncated: info.isQueueTruncated)
                case .unread(true, let address, let reason): result.unreadTasks[address] = reason
                case .unread(false, let address, let reason): result.unreadActors[address] = reason
                default: break
                }
            }
            let known = Set(result.tasks.keys).union(result.unreadTasks.keys)
            queries = Set(result.tasks.values.flatMap(\.children)).subtracting(known).sorted().map { .task($0) }
        }
        return result
    }
}
