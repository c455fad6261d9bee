import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo tasks`: a live process's or a core file's async tasks and actors.
///
/// Tasks are found on the C library's heap (``GlibcHeap``): an allocation whose first word is the
/// runtime's task metadata, the value of its `_swift_concurrency_debug_asyncTaskMetadata`
/// variable (of `libswift_Concurrency.so`, or of an executable linked with the static standard
/// library), read from the target at the address the image's symbol table gives; where the
/// linker dropped that variable, the value `swift::taskHeapMetadataPtr` holds, checked to be
/// metadata of kind `Task` (``RuntimeDebugVariables``). Task group
/// children and `async let` tasks are added from their parents' child lists (an `async let`
/// task lives in its parent's allocator, not on the heap). Actors are the Swift objects whose
/// class the reflection library calls an actor's (`swift_reflection_metadataIsActor`). Each is
/// read by libswiftRemoteMirror (`swift_reflection_asyncTaskInfo`, `swift_reflection_actorInfo`)
/// in the worker; resume functions are named from the image files' symbol tables. Whether a task
/// that neither runs nor is enqueued has completed is read from its future fragment
/// (``FutureCompletion``); which thread runs a task, and on which actor, from the threads'
/// thread-local variables, read with glibc's libthread_db in the worker (``RunningTasks``).
public enum LiveTaskReader {
    /// The internal layout version whose future fragment ``FutureCompletion`` reads (Swift
    /// 6.3.1's runtime, where the fragment's place was read from `AsyncTask::completeFuture`).
    static let futureFragmentLayoutVersion: UInt64 = 1

    /// What the concurrency runtime of the target states about itself.
    struct Runtime {
        /// The task metadata's address.
        var taskMetadata: UInt64
        /// The size of an `AsyncTask`, when the runtime states it.
        var taskSize: UInt64?
        /// The runtime's internal layout version, when it states one.
        var layoutVersion: UInt64?
        /// The load address of the image that holds the runtime.
        var image: UInt64
    }

    /// Reads the target's tasks and actors.
    ///
    /// - Throws: ``LiveReadingError``: the target could not be read, it does not use Swift
    ///   concurrency, or the reflection library is not one whose task layout is verified.
    public static func report(_ options: LiveTargetOptions) throws(LiveReadingError) -> TaskReport {
        try options.whilePausedRecordingStop { pause throws(LiveReadingError) in
            let paused = pause != nil
            let inspector = try options.openInspector()
            guard inspector.images.contains(where: \.isSwift) else { throw .notSwift(target: options.target.description) }
            let runtime = try concurrencyRuntime(
                inspector.memory, toolchainConcurrencyLibrary: inspector.configuration.toolchainConcurrencyLibrary)
            // Refused before the heap is walked: nothing of an unverified library is used.
            let refusal: String?
            do throws(TypeLoweringError) {
                refusal = try inspector.concurrencyLayoutRefusal()
            } catch {
                throw .lowering(error)
            }
            if let refusal { throw .unverifiedTaskLayout(reason: refusal) }
            let found: (tasks: [UInt64], actors: [UInt64: UInt64], changes: HeapReadChanges?)
            do throws(LiveReadingError) {
                found = try LiveHeapReader.readingAgainWhileChanging(inspector, pause: pause) { () throws(LiveReadingError) in
                    try findObjects(inspector, taskMetadata: runtime.taskMetadata, pause: pause)
                }
            } catch .target(.foreignAllocator(_, let allocator, let image)) {
                return try runningTasksOnly(inspector, runtime: runtime, paused: paused, allocator: allocator, image: image)
            }
            // A running process: tasks start and end under the reading (TaskReadSettling).
            let changing = !paused && inspector.memory.mayChange
            var changes = found.changes.map { TaskReadChanges(heap: $0) }
            var concurrency: TargetConcurrency
            var links: ChildTaskLinks?
            var completion: FutureCompletion?
            var names: [UInt64: String]
            let threads: TargetThreads
            do throws(TypeLoweringError) {
                concurrency = try inspector.concurrency(tasks: found.tasks, actors: Array(found.actors.keys))
                // Children the library's lists leave out (see ChildTaskLinks), read until none is new.
                for _ in 0..<64 {
                    guard let taskSize = runtime.taskSize else { break }
                    links = ChildTaskLinks(
                        tasks: concurrency.tasks, taskSize: taskSize, taskMetadata: runtime.taskMetadata, memory: inspector.memory)
                    let missing = links?.unknownTasks(besides: Array(concurrency.tasks.keys) + Array(concurrency.unreadTasks.keys)) ?? []
                    if missing.isEmpty { break }
                    let more = try inspector.concurrency(tasks: missing, actors: [])
                    concurrency.tasks.merge(more.tasks) { first, _ in first }
                    concurrency.unreadTasks.merge(more.unreadTasks) { first, _ in first }
                }
                // Only a runtime whose internal layouts are the verified ones is read this way.
                if let taskSize = runtime.taskSize, runtime.layoutVersion == Self.futureFragmentLayoutVersion {
                    completion = FutureCompletion(tasks: concurrency.tasks.values, taskSize: taskSize, memory: inspector.memory)
                }
                names = try inspector.typeNames(ofTypeMetadata: Array(Set(found.actors.values).union(completion?.resultTypes ?? [])))
                threads = try Self.threads(inspector, runtimeImage: runtime.image)
            } catch {
                throw .lowering(error)
            }
            var reread: [UInt64] = []
            if changing, var settled = changes {
                if let taskSize = runtime.taskSize, let read = completion {
                    // An enqueued task whose fragment reads as completed may have run and ended
                    // between the two readings: it is read again, both parts.
                    reread = TaskReadSettling.disagreeing(read, concurrency: concurrency, namedTypes: Set(names.keys))
                    if !reread.isEmpty {
                        do throws(TypeLoweringError) {
                            let again = try inspector.concurrency(tasks: reread, actors: [])
                            for address in reread {
                                concurrency.tasks[address] = again.tasks[address]
                                if let reason = again.unreadTasks[address] { concurrency.unreadTasks[address] = reason }
                            }
                            let fresh = FutureCompletion(
                                tasks: reread.compactMap { again.tasks[$0] }, taskSize: taskSize, memory: inspector.memory)
                            completion = FutureCompletion(fragments: read.fragments.merging(fresh.fragments) { _, new in new })
                            names.merge(try inspector.typeNames(ofTypeMetadata: Array(fresh.resultTypes.subtracting(names.keys)))) {
                                first, _ in first
                            }
                        } catch {
                            throw .lowering(error)
                        }
                        settled.tasksReread += reread.count
                    }
                }
                try TaskReadSettling.settle(
                    &concurrency, taskMetadata: runtime.taskMetadata, actorMetadata: found.actors, inspector: inspector,
                    changes: &settled)
                changes = settled
            }
            let statuses = completion.map { Self.futureStatuses($0, concurrency: concurrency, namedTypes: Set(names.keys)) } ?? [:]
            if changing, completion != nil {
                // Those read again whose completion still does not settle are left unread.
                let unsettled = reread.filter { address in
                    guard let task = concurrency.tasks[address] else { return false }
                    return !task.isEnqueued && statuses[address] == nil
                }
                changes?.tasksUnsettled = unsettled.count
            }
            return assemble(
                concurrency, links: links, futures: statuses, threads: threads, actorTypes: found.actors.mapValues { names[$0] },
                resumeNames: ResumeFunctionNames(memory: inspector.memory, runtimeImage: runtime.image),
                target: LiveHeapReader.identity(of: inspector.memory, readWhileRunning: !paused), readChanges: changing ? changes : nil)
        }
    }

    /// The tasks the target's threads run, when its heap cannot be walked (an allocator other
    /// than glibc's replaces `malloc`): running tasks are found from the threads (each thread's
    /// current task, read with libthread_db), not from the heap, while parked tasks and actors
    /// are found only among the heap's allocations. The report says which and why
    /// (``TaskReport/heapNotWalked``).
    static func runningTasksOnly(_ inspector: TargetInspector, runtime: Runtime, paused: Bool, allocator: String, image: String)
        throws(LiveReadingError) -> TaskReport
    {
        let threads: TargetThreads
        let concurrency: TargetConcurrency
        do throws(TypeLoweringError) {
            threads = try Self.threads(inspector, runtimeImage: runtime.image)
            // A thread's current task is listed only when the object there is a task now: its
            // first word the task metadata, as the heap walk recognises tasks.
            let claimed = RunningTasks(threads, actors: [:]).threads.keys.sorted()
            let tasks = claimed.filter { (try? inspector.memory.read(UInt64.self, at: $0, what: "a running task")) == runtime.taskMetadata }
            concurrency = try inspector.concurrency(tasks: tasks, actors: [])
        } catch {
            throw .lowering(error)
        }
        var report = assemble(
            concurrency, links: nil, futures: [:], threads: threads, actorTypes: [:],
            resumeNames: ResumeFunctionNames(memory: inspector.memory, runtimeImage: runtime.image),
            target: LiveHeapReader.identity(of: inspector.memory, readWhileRunning: !paused))
        let threadCount: Int? = if case .listed(let list, _) = threads { list.count } else { nil }
        report.heapNotWalked = TaskReport.HeapNotWalked(allocator: allocator, image: image, threads: threadCount)
        return report
    }

    /// The target's threads, or why they were not read: a worker that crashed, hung or exited
    /// without answering on them (a damaged core's thread list) leaves the rest of the report standing.
    static func threads(_ inspector: TargetInspector, runtimeImage: UInt64) throws(TypeLoweringError) -> TargetThreads {
        do {
            return try inspector.threads(concurrencyRuntimeAt: runtimeImage)
        } catch {
            if case .workerEnded(_, let reason) = error { return .unavailable(reason: "the worker reading them \(reason)") }
            if case .workerUnanswered(_, _, let errorOutput) = error {
                let kept = errorOutput.map { " (its error output is kept in \($0))" } ?? ""
                return .unavailable(reason: "the worker reading them exited without answering" + kept)
            }
            throw error
        }
    }

    /// Each future's status, where its fragment is consistent (``FutureCompletion``), and none at
    /// all when a task the library finds enqueued reads as completed (the fragment was not where
    /// it was looked for).
    static func futureStatuses(_ completion: FutureCompletion, concurrency: TargetConcurrency, namedTypes: Set<UInt64>) -> [UInt64:
        FutureCompletion.Status]
    {
        var statuses: [UInt64: FutureCompletion.Status] = [:]
        for task in concurrency.tasks.values {
            guard let status = completion.status(of: task.address, namedTypes: namedTypes, isTask: { concurrency.tasks[$0] != nil })
            else { continue }
            if task.isEnqueued, status != .executing { return [:] }
            statuses[task.address] = status
        }
        return statuses
    }

    /// The task metadata's address (the value of `_swift_concurrency_debug_asyncTaskMetadata` in
    /// the target), the task size and the internal layout version, each where the target states
    /// it (``RuntimeDebugVariables``: the runtime's variables, or where the linker dropped them,
    /// the binary's symbol table and this toolchain's runtime of the same build).
    ///
    /// - Throws: ``LiveReadingError/noConcurrencyRuntime(target:)`` when no image holds the
    ///   concurrency runtime, ``LiveReadingError/concurrencyRuntimeUnknown(target:executable:)`` when
    ///   that cannot be told, ``LiveReadingError/taskMetadataUnknown(target:reason:)`` when the
    ///   runtime is there but its task metadata cannot be found.
    static func concurrencyRuntime(_ memory: TargetMemory, toolchainConcurrencyLibrary: String?) throws(LiveReadingError) -> Runtime {
        let variables = RuntimeDebugVariables(memory: memory, toolchainConcurrencyLibrary: toolchainConcurrencyLibrary)
        guard let image = variables.concurrencyImage else {
            if let executable = variables.strippedExecutable {
                throw .concurrencyRuntimeUnknown(target: memory.path, executable: executable)
            }
            throw .noConcurrencyRuntime(target: memory.path)
        }
        let metadata: UInt64
        switch variables.value(of: .asyncTaskMetadata, in: memory) {
        case .success(let value): metadata = value
        case .failure(.unreadable(let error)): throw .target(error)
        case .failure(let unknown): throw .taskMetadataUnknown(target: memory.path, reason: unknown)
        }
        guard metadata >= 4096, metadata & 7 == 0 else {
            throw .taskMetadataUnknown(
                target: memory.path,
                reason: .notMetadata(symbol: RuntimeDebugVariable.asyncTaskMetadata.rawValue, address: 0, value: metadata))
        }
        let taskSize = try? variables.value(of: .asyncTaskSize, in: memory).get()
        let layoutVersion = try? variables.value(of: .internalLayoutVersion, in: memory).get()
        return Runtime(
            taskMetadata: metadata, taskSize: taskSize.flatMap { $0 > 0 && $0 < 1 << 16 ? $0 : nil }, layoutVersion: layoutVersion,
            image: image.loadAddress)
    }

    /// The heap's task objects, and its actors with their metadata, in one walk: a first word is
    /// task metadata, or judged in batches (``ActorFinder``) an actor's class metadata or neither.
    static func findObjects(_ inspector: TargetInspector, taskMetadata: UInt64, pause: ProcessPause?) throws(LiveReadingError) -> (
        tasks: [UInt64], actors: [UInt64: UInt64], changes: HeapReadChanges?
    ) {
        let heap = try LiveHeapReader.heap(of: inspector, pause: pause)
        var tasks: [UInt64] = []
        var finder = ActorFinder(inspector: inspector)
        var changes: HeapReadChanges?
        do throws(BinaryInfoError) {
            changes = try heap.forEachChunk { chunk in
                let word = chunk.firstWord
                if word == taskMetadata {
                    tasks.append(chunk.address)
                    return
                }
                finder.add(address: chunk.address, word: word)
            }.changes
        } catch {
            throw .target(error)
        }
        finder.settle()
        return (tasks, finder.actors, changes)
    }

    /// The report from what the library read: parents from child lists, actors from queues,
    /// completion from future fragments, threads from the threads' current tasks, resume functions
    /// named.
    static func assemble(
        _ concurrency: TargetConcurrency, links: ChildTaskLinks?, futures: [UInt64: FutureCompletion.Status], threads: TargetThreads,
        actorTypes: [UInt64: String?], resumeNames: ResumeFunctionNames, target: HeapCensus.Target, readChanges: TaskReadChanges? = nil
    ) -> TaskReport {
        var parents: [UInt64: UInt64] = links?.parents ?? [:]
        for task in concurrency.tasks.values { for child in task.children { parents[child] = task.address } }
        var children: [UInt64: Set<UInt64>] = [:]
        for (child, parent) in parents { children[parent, default: []].insert(child) }
        var queuedOn: [UInt64: UInt64] = [:]
        for actor in concurrency.actors.values { for job in actor.queuedJobs { queuedOn[job] = actor.address } }
        let running = RunningTasks(threads, actors: concurrency.actors)
        let tasks = concurrency.tasks.values.map { task in
            let thread = running.threads[task.address]
            let state: TaskReport.TaskState
            if thread != nil || task.isRunning == true {
                state = .running
            } else if task.isEnqueued {
                state = .enqueued
            } else if task.isRunning == false {
                state =
                    switch futures[task.address] {
                    case .executing?: .suspended
                    case .returned?, .threw?: .completed
                    case nil: .suspendedOrCompleted
                    }
            } else {
                state = .unknown
            }
            // A running task's resume function is where it last started, not where it is now; a
            // completed one resumes nowhere.
            let resume =
                state == .running || state == .completed
                ? nil : resumeNames.resumeFunction(resumeAddress: task.resumeAddress, backtrace: task.backtrace)
            return TaskReport.Task(
                address: task.address, id: task.id, state: state, resumeFunction: resume,
                resumeAddress: task.resumeAddress, priority: task.priority, isCancelled: task.isCancelled,
                parent: parents[task.address], children: children[task.address, default: []].sorted(),
                actor: queuedOn[task.address] ?? running.actors[task.address], thread: thread?.threadID)
        }
        let actors = concurrency.actors.values.map { actor in
            let state: TaskReport.ActorState =
                switch actor.state {
                case .idle: .idle
                case .scheduled: .scheduled
                case .running: .running
                case .zombie: .zombie
                case .other(let value): .other(value)
                }
            return TaskReport.Actor(
                address: actor.address, type: actorTypes[actor.address] ?? nil, state: state, queuedJobs: actor.queuedJobs.count,
                isQueueTruncated: actor.isQueueTruncated)
        }
        let unread =
            concurrency.unreadTasks.map { TaskReport.Unread(address: $0.key, isTask: true, reason: $0.value) }
            + concurrency.unreadActors.map { TaskReport.Unread(address: $0.key, isTask: false, reason: $0.value) }
        var threadsUnread: String?
        switch threads {
        case .unavailable(let reason): threadsUnread = reason
        case .listed(let list, isTruncated: true):
            threadsUnread = "the thread list went on past \(list.count) threads; the rest were not read"
        case .listed: break
        }
        return TaskReport(
            target: target, tasks: tasks, actors: actors, unread: unread, threadsUnread: threadsUnread, readChanges: readChanges)
    }
}
