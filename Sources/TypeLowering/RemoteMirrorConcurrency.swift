import BinaryInfo
import CSwiftRemoteMirror

/// libswiftRemoteMirror's concurrency entry points (`swift_reflection_asyncTaskInfo`,
/// `swift_reflection_actorInfo`, `swift_reflection_nextJob`),
/// looked up only by the target mode's task and actor questions. With ``RemoteMirrorLibrary``, the
/// only file that touches the C API.
///
/// The structs these return changed across Swift releases (flags such as
/// `IsSynchronousStartTask` were added in the middle), and the library states no layout version
/// of its own (`swift_reflection_libraryVersion` has been 3 across those changes). So the
/// layouts declared in RemoteMirrorSubset.h are used only with a library whose build id is one
/// they were verified against (``verifiedLibraries``); any other is refused before a call.
struct RemoteMirrorConcurrency {
    let asyncTaskInfo: rm_async_task_info_fn
    let actorInfo: rm_actor_info_fn
    let nextJob: rm_next_job_fn

    /// The build ids (GNU build-id notes) of the libraries whose `swift_async_task_info_t` and
    /// `swift_actor_info_t` layouts were read from their disassembly (see RemoteMirrorSubset.h)
    /// and checked against the LiveTasks fixture (cancelled count, parent links, actor states).
    static let verifiedLibraries: Set<String> = [
        // Swift 6.3.1 (swift-6.3.1-RELEASE, x86_64 Linux).
        "9213901cf892bad67831867c605a4b5049fde694"
    ]

    /// The entry points of the library at `path`, when its build id is a verified one and it has
    /// them all; otherwise the one-line reason.
    static func verified(_ library: RemoteMirrorLibrary, path: String) -> Result<Self, MirrorError> {
        guard let buildID = try? BuildID.read(ofFileAt: path), verifiedLibraries.contains(buildID.description) else {
            return .failure(MirrorError(text: unverifiedReason(path: path)))
        }
        guard let functions = Self(library) else {
            return .failure(MirrorError(text: "\(path) lacks swift_reflection_asyncTaskInfo, actorInfo or nextJob"))
        }
        return .success(functions)
    }

    /// Why the library at `path` is not used for tasks and actors.
    static func unverifiedReason(path: String) -> String {
        let buildID = (try? BuildID.read(ofFileAt: path)).flatMap { $0?.description } ?? "none"
        return
            "\(path) (build id \(buildID)) is not a libswiftRemoteMirror whose task and actor layouts typeinfo has verified (Swift 6.3.1's); its task states could be misread, so none are printed"
    }

    /// Looks the entry points up; nil when the library lacks one.
    init?(_ library: RemoteMirrorLibrary) {
        guard let taskInfo = library.symbol(named: "swift_reflection_asyncTaskInfo"),
            let actorInfo = library.symbol(named: "swift_reflection_actorInfo"),
            let nextJob = library.symbol(named: "swift_reflection_nextJob")
        else { return nil }
        asyncTaskInfo = unsafeBitCast(taskInfo, to: rm_async_task_info_fn.self)
        self.actorInfo = unsafeBitCast(actorInfo, to: rm_actor_info_fn.self)
        self.nextJob = unsafeBitCast(nextJob, to: rm_next_job_fn.self)
    }
}

/// What `swift_reflection_asyncTaskInfo` says about one task.
struct MirrorTaskInfo: Sendable, Equatable {
    var id: UInt64
    var runJob: UInt64
    /// The higher of the priority the task's job was made with (its job flags, `EnqueuePriority`)
    /// and the escalated one its status holds (`MaxPriority`, which stays 0 where the runtime does
    /// not escalate, as on Linux): what `Task.currentPriority` says inside the task.
    var priority: Int
    var isCancelled: Bool
    /// Nil when the library cannot tell (its `HasIsRunning` is false).
    var isRunning: Bool?
    var isEnqueued: Bool
    var isChildTask: Bool
    var isGroupChildTask: Bool
    var isAsyncLetTask: Bool
    /// Whether the task is a future (has a result: every `Task`, group child and `async let`).
    var isFuture: Bool
    var children: [UInt64]
    /// The resume addresses of the task's async callers, innermost first.
    var backtrace: [UInt64]
}

/// What `swift_reflection_actorInfo` says about one actor, with its queue from `nextJob`.
struct MirrorActorInfo: Sendable, Equatable {
    /// The runtime's actor state: 0 idle, 1 scheduled, 2 running, 3 a zombie ready for deallocation.
    var state: Int
    var maxPriority: Int
    var isDistributedRemote: Bool
    /// The queued jobs, first to last (at most ``RemoteMirrorContext/maximumQueuedJobs``).
    var jobs: [UInt64]
    /// Whether the queue was longer than what was followed.
    var isQueueTruncated: Bool
}

extension RemoteMirrorContext {
    /// The most jobs of one actor's queue followed (a cycle in a damaged queue ends there).
    static let maximumQueuedJobs = 1 << 20

    /// The task at `address`, or the library's error.
    func taskInfo(at address: UInt64, using functions: RemoteMirrorConcurrency) -> Result<MirrorTaskInfo, MirrorError> {
        let info = functions.asyncTaskInfo(context, address)
        if let error = info.Error { return .failure(MirrorError(text: String(cString: error))) }
        let children = info.ChildTasks.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.ChildTaskCount))) } ?? []
        let frames =
            info.AsyncBacktraceFrames.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.AsyncBacktraceFramesCount))) } ?? []
        return .success(
            MirrorTaskInfo(
                id: info.Id, runJob: info.RunJob, priority: Int(max(info.EnqueuePriority, info.MaxPriority)), isCancelled: info.IsCancelled,
                isRunning: info.HasIsRunning ? info.IsRunning : nil, isEnqueued: info.IsEnqueued, isChildTask: info.IsChildTask,
                isGroupChildTask: info.IsGroupChildTask, isAsyncLetTask: info.IsAsyncLetTask, isFuture: info.IsFuture, children: children,
                backtrace: frames))
    }

    /// The actor at `address` with its queued jobs, or the library's error.
    func actorInfo(at address: UInt64, using functions: RemoteMirrorConcurrency) -> Result<MirrorActorInfo, MirrorError> {
        let info = functions.actorInfo(context, address)
        if let error = info.Error { return .failure(MirrorError(text: String(cString: error))) }
        var jobs: [UInt64] = []
        var job = info.FirstJob
        var seen: Set<UInt64> = []
        while job != 0, jobs.count < Self.maximumQueuedJobs, seen.insert(job).inserted {
            jobs.append(job)
            job = functions.nextJob(context, job)
        }
        return .success(
            MirrorActorInfo(
                state: Int(info.State), maxPriority: Int(info.MaxPriority), isDistributedRemote: info.IsDistributedRemote, jobs: jobs,
                isQueueTruncated: job != 0))
    }
}

/// An error text the library returned.
struct MirrorError: Error, Sendable, Equatable {
    var text: String
}
