extension TaskReport {
    /// The report for people: a heading, then by default one line per group of tasks that share a
    /// state and resume function, largest first, and one line per actor type and state; with
    /// `all`, every task and every actor on a line of its own.
    public func text(all: Bool = false) -> String {
        var lines = [heading]
        lines += target.coreMismatches.map { "warning: " + $0.text }
        if let readChanges { lines.append(readChanges.text) }
        if let heapNotWalked { lines.append(heapNotWalked.text) }
        lines.append("")
        let cancelled = tasks.filter(\.isCancelled).count
        if heapNotWalked != nil {
            lines.append("\(tasks.count) running \(tasks.count == 1 ? "task" : "tasks"), \(cancelled) cancelled; actors not read")
        } else {
            lines.append(
                "\(tasks.count) \(tasks.count == 1 ? "task" : "tasks"), \(cancelled) cancelled; \(actors.count) \(actors.count == 1 ? "actor" : "actors")"
            )
        }
        if all {
            lines.append("")
            lines += tasks.map(Self.line(of:))
            lines.append("")
            lines += actors.map(Self.line(of:))
        } else {
            lines.append("")
            for group in groups {
                let noun = group.count == 1 ? "task" : "tasks"
                lines.append("\(group.count) \(noun) \(Self.whereabouts(group.state, group.resumeFunction)), \(group.cancelled) cancelled")
            }
            var actorGroups: [String: Int] = [:]
            for actor in actors {
                let queue = actor.queuedJobs == 0 ? "" : ", \(actor.queuedJobs)\(actor.isQueueTruncated ? "+" : "") queued jobs"
                actorGroups["\(actor.type ?? "an unnamed actor type") \(actor.state.name)\(queue)", default: 0] += 1
            }
            if !actorGroups.isEmpty { lines.append("") }
            for (description, count) in actorGroups.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                lines.append("\(count) \(count == 1 ? "actor" : "actors") \(description)")
            }
        }
        if !unread.isEmpty {
            lines.append("")
            for object in unread {
                lines.append("\(Self.hex(object.address)): \(object.isTask ? "task" : "actor") not read: \(object.reason)")
            }
        }
        if let threadsUnread {
            lines.append("")
            lines.append("threads not read (running tasks' threads and actors unknown): \(threadsUnread)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `suspended in F`, `suspended or completed in F`, `enqueued to run F`, `running`,
    /// `completed`.
    static func whereabouts(_ state: TaskState, _ function: String?) -> String {
        let name = function ?? "a function no symbol names"
        switch state {
        case .running: return "running"
        case .completed: return "completed"
        case .enqueued: return "enqueued to run \(name)"
        case .suspended: return "suspended in \(name)"
        case .suspendedOrCompleted: return "suspended or completed in \(name)"
        case .unknown: return "in an unknown state, next to run \(name)"
        }
    }

    private var heading: String {
        let name = target.name
        if target.corePath != nil { return name + ", as it was when dumped" }
        return target.readWhileRunning ? name + ", read while it ran" : name + ", " + (target.stop?.phrase ?? "read while paused")
    }

    private static func line(of task: Task) -> String {
        var fields = [
            "task \(hex(task.address))", "id \(task.id)", task.state.phrase, "priority \(task.priority)",
        ]
        if task.isCancelled { fields.append("cancelled") }
        if let parent = task.parent { fields.append("parent \(hex(parent))") }
        if !task.children.isEmpty { fields.append("\(task.children.count) children") }
        if let actor = task.actor { fields.append("on actor \(hex(actor))") }
        if let thread = task.thread { fields.append("thread \(thread)") }
        if task.state != .running, task.state != .completed {
            fields.append("next runs \(task.resumeFunction ?? "? (\(hex(task.resumeAddress)))")")
        }
        return fields.joined(separator: ", ")
    }

    private static func line(of actor: Actor) -> String {
        "actor \(hex(actor.address)), \(actor.type ?? "?"), \(actor.state.name), \(actor.queuedJobs)\(actor.isQueueTruncated ? "+" : "") queued jobs"
    }
}

extension TaskReport.HeapNotWalked {
    /// The line under the heading: what is listed, what is not, and why.
    public var text: String {
        let listed =
            if let threads { "only the tasks running on its \(threads) \(threads == 1 ? "thread" : "threads") are listed" } else {
                "only tasks running on its threads could be listed, and its threads were not read (below)"
            }
        return listed
            + ": parked tasks and actors are found by walking the heap, and its malloc is \(allocator) (\(image)), not glibc's, whose heap is the one typeinfo reads"
    }
}
