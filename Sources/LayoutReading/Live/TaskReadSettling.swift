import BinaryInfo
import TypeLayout
import TypeLowering

/// The tasks and actors of a running process, settled after they were read: tasks start and end
/// while the heap is walked and while the worker reads each one, so what was read of a task that
/// ended meanwhile is its freed memory's, and must not be listed.
///
/// A task is still a task after its reading when its first word is still the task metadata (the
/// runtime frees a task's allocation when it ends, and glibc's `free` writes a list link over the
/// first word; a reuse of the chunk writes the new object's header there). An actor is still the
/// actor when its first word is still its class metadata. What fails that is dropped and counted
/// (``TaskReadChanges``), never listed. Tasks the library could not read are read once more
/// while they are still tasks; what it still cannot read stays listed as not read.
enum TaskReadSettling {
    /// Drops the tasks and actors of `concurrency` that ended after they were found, reads again
    /// the tasks the library could not read, and prunes child lists of the tasks dropped.
    ///
    /// - Throws: ``LiveReadingError/target(_:)`` when the process exited or cannot be read;
    ///   ``LiveReadingError/lowering(_:)`` when the worker fails.
    static func settle(
        _ concurrency: inout TargetConcurrency, taskMetadata: UInt64, actorMetadata: [UInt64: UInt64], inspector: TargetInspector,
        changes: inout TaskReadChanges
    ) throws(LiveReadingError) {
        let memory = inspector.memory
        var stillUnread: [UInt64] = []
        for address in concurrency.unreadTasks.keys.sorted() {
            if try firstWord(at: address, memory) == taskMetadata { stillUnread.append(address) }
        }
        if !stillUnread.isEmpty {
            let again: TargetConcurrency
            do throws(TypeLoweringError) {
                again = try inspector.concurrency(tasks: stillUnread, actors: [])
            } catch {
                throw .lowering(error)
            }
            changes.tasksReread += stillUnread.count
            for (address, task) in again.tasks where concurrency.tasks[address] == nil {
                concurrency.tasks[address] = task
                concurrency.unreadTasks[address] = nil
            }
        }
        for address in Array(concurrency.tasks.keys) + Array(concurrency.unreadTasks.keys) {
            guard try firstWord(at: address, memory) != taskMetadata else { continue }
            concurrency.tasks[address] = nil
            concurrency.unreadTasks[address] = nil
            changes.tasksEnded += 1
        }
        for address in Array(concurrency.actors.keys) + Array(concurrency.unreadActors.keys) {
            guard let metadata = actorMetadata[address], try firstWord(at: address, memory) != metadata else { continue }
            concurrency.actors[address] = nil
            concurrency.unreadActors[address] = nil
            changes.actorsEnded += 1
        }
        guard changes.tasksEnded > 0 else { return }
        for (address, task) in concurrency.tasks {
            let kept = task.children.filter { concurrency.tasks[$0] != nil || concurrency.unreadTasks[$0] != nil }
            if kept.count != task.children.count { concurrency.tasks[address]?.children = kept }
        }
    }

    /// The word at `address` now, or nil when it is no longer mapped (memory returned to the
    /// system); a process that exited or cannot be read fails the reading.
    static func firstWord(at address: UInt64, _ memory: TargetMemory) throws(LiveReadingError) -> UInt64? {
        do {
            return try memory.read(UInt64.self, at: address, what: "task or actor")
        } catch .unmapped {
            return nil
        } catch {
            throw .target(error)
        }
    }

    /// The enqueued tasks whose future fragment reads as completed: a fragment looked for in the
    /// wrong place, or a task that ran and completed between its reading and its fragment's.
    static func disagreeing(_ completion: FutureCompletion, concurrency: TargetConcurrency, namedTypes: Set<UInt64>) -> [UInt64] {
        concurrency.tasks.values.compactMap { task in
            guard task.isEnqueued,
                let status = completion.status(of: task.address, namedTypes: namedTypes, isTask: { concurrency.tasks[$0] != nil }),
                status != .executing
            else { return nil }
            return task.address
        }.sorted()
    }
}
