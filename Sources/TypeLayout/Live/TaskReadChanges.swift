/// What changed under a reading of a running process's tasks and actors, as the reader met it.
///
/// Tasks are found on the heap, then read one by one: a task that started after the heap walk is
/// not listed, and one that ended between the walk and its reading (its allocation freed, its
/// memory reused) is not a task any more. Such a task is dropped and counted here, never listed
/// with what its old memory holds. A task whose readings disagree (the library read it enqueued,
/// its future fragment says it completed) is read again; one that keeps disagreeing keeps the
/// state that both readings allow. A task that stayed put throughout (a parked one) is read as
/// a stopped process's would be.
public struct TaskReadChanges: Sendable, Hashable {
    /// What changed under the heap walk that found the tasks and actors.
    public var heap: HeapReadChanges
    /// Tasks found on the heap that had ended when they were read (their first word was no
    /// longer the task metadata afterwards): not listed.
    public var tasksEnded: Int
    /// Actors found on the heap that were gone when they were read: not listed.
    public var actorsEnded: Int
    /// Tasks read again because their readings disagreed with each other.
    public var tasksReread: Int
    /// Tasks whose completion was left unread because it changed between readings (listed as
    /// suspended or completed, or in an unknown state).
    public var tasksUnsettled: Int

    public init(heap: HeapReadChanges, tasksEnded: Int = 0, actorsEnded: Int = 0, tasksReread: Int = 0, tasksUnsettled: Int = 0) {
        self.heap = heap
        self.tasksEnded = tasksEnded
        self.actorsEnded = actorsEnded
        self.tasksReread = tasksReread
        self.tasksUnsettled = tasksUnsettled
    }

    /// One line for people: the heap walk's changes (``HeapReadChanges/text``), then the tasks'.
    public var text: String {
        var parts: [String] = []
        if tasksEnded > 0 {
            parts.append(
                "\(tasksEnded) \(tasksEnded == 1 ? "task" : "tasks") ended before \(tasksEnded == 1 ? "it was" : "they were") read (not listed)"
            )
        }
        if actorsEnded > 0 {
            parts.append(
                "\(actorsEnded) \(actorsEnded == 1 ? "actor" : "actors") gone before \(actorsEnded == 1 ? "it was" : "they were") read (not listed)"
            )
        }
        if tasksReread > 0 { parts.append("\(tasksReread) \(tasksReread == 1 ? "task" : "tasks") read again") }
        if tasksUnsettled > 0 {
            parts.append("\(tasksUnsettled) \(tasksUnsettled == 1 ? "task's" : "tasks'") completion changed between readings (left unread)")
        }
        guard !parts.isEmpty else { return heap.text }
        let tasks = "tasks: " + parts.joined(separator: ", ")
        return heap.isEmpty ? "changed while read: " + tasks : heap.text + "; " + tasks
    }
}

extension TaskReadChanges: Codable {}
