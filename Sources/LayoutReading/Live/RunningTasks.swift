import TypeLowering

/// Which thread runs each running task, and the actor it runs on, from the threads' thread-local
/// current task and active executor (``TargetInspector/threads(concurrencyRuntimeAt:)``).
///
/// A task is on an actor only when two sources agree: the thread's active executor identity is
/// an actor found on the heap, and the reflection library reads that actor as running. Otherwise
/// (the generic executor, a custom executor, an actor not running) no actor is given.
struct RunningTasks {
    /// The thread running each task that some thread runs.
    private(set) var threads: [UInt64: TargetThread] = [:]
    /// The actor each of those tasks runs on, where the sources agree.
    private(set) var actors: [UInt64: UInt64] = [:]

    init(_ threads: TargetThreads, actors heapActors: [UInt64: TargetActor]) {
        guard case .listed(let list, _) = threads else { return }
        // A task two threads claim is left out: the threads' records disagree.
        var claims: [UInt64: Int] = [:]
        for thread in list { if let task = thread.currentTask, task != 0 { claims[task, default: 0] += 1 } }
        for thread in list {
            guard let task = thread.currentTask, task != 0, claims[task] == 1 else { continue }
            self.threads[task] = thread
            if let identity = thread.executorIdentity, identity != 0, heapActors[identity]?.state == .running {
                actors[task] = identity
            }
        }
    }
}
