#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TaskReport {
    /// The version of the JSON document this build writes.
    public static let currentSchemaVersion = 2

    /// Encodes the report as stable JSON: keys sorted, addresses as `0x…` strings, unknown values
    /// as `null`.
    ///
    /// - Parameter pretty: indent the output (default) or write one line.
    /// - Returns: UTF-8 JSON ending in a newline.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try LayoutJSON.encode(Document(report: self), pretty: pretty)
    }

    static func hex(_ address: UInt64) -> String { "0x" + String(address, radix: 16) }

    /// The document's shape: `tasks` (address, state, resumeFunction, priority, isCancelled, parent,
    /// children, actor, thread, id), `actors` (address, type, state, queuedJobs, queueTruncated),
    /// `unread`, `threadsUnread`, `readChanges` (``TaskReadChanges``, null when the target did
    /// not change under the reading), and `heapNotWalked` (`allocator`, `image`, `threads`: why
    /// only running tasks are listed; null when the heap was walked).
    private struct Document: Encodable {
        struct TaskEntry: Encodable {
            var address: String
            var id: UInt64
            var state: String
            var resumeFunction: String?
            var resumeAddress: String
            var priority: Int
            var isCancelled: Bool
            var parent: String?
            var children: [String]
            var actor: String?
            var thread: Int32?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(address, forKey: .address)
                try container.encode(id, forKey: .id)
                try container.encode(state, forKey: .state)
                try container.encode(resumeFunction, forKey: .resumeFunction)
                try container.encode(resumeAddress, forKey: .resumeAddress)
                try container.encode(priority, forKey: .priority)
                try container.encode(isCancelled, forKey: .isCancelled)
                try container.encode(parent, forKey: .parent)
                try container.encode(children, forKey: .children)
                try container.encode(actor, forKey: .actor)
                try container.encode(thread, forKey: .thread)
            }

            private enum CodingKeys: String, CodingKey {
                case address, id, state, resumeFunction, resumeAddress, priority, isCancelled, parent, children, actor, thread
            }
        }

        struct ActorEntry: Encodable {
            var address: String
            var type: String?
            var state: String
            var queuedJobs: Int
            var queueTruncated: Bool

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(address, forKey: .address)
                try container.encode(type, forKey: .type)
                try container.encode(state, forKey: .state)
                try container.encode(queuedJobs, forKey: .queuedJobs)
                try container.encode(queueTruncated, forKey: .queueTruncated)
            }

            private enum CodingKeys: String, CodingKey {
                case address, type, state, queuedJobs, queueTruncated
            }
        }

        struct UnreadEntry: Encodable {
            var address: String
            var kind: String
            var reason: String
        }

        var schemaVersion = TaskReport.currentSchemaVersion
        var target: HeapCensus.Target
        var tasks: [TaskEntry]
        var actors: [ActorEntry]
        var unread: [UnreadEntry]
        var threadsUnread: String?
        var readChanges: TaskReadChanges?
        var heapNotWalked: HeapNotWalkedEntry?

        struct HeapNotWalkedEntry: Encodable {
            var allocator: String
            var image: String
            var threads: Int?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(allocator, forKey: .allocator)
                try container.encode(image, forKey: .image)
                try container.encode(threads, forKey: .threads)
            }

            private enum CodingKeys: String, CodingKey { case allocator, image, threads }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(schemaVersion, forKey: .schemaVersion)
            try container.encode(target, forKey: .target)
            try container.encode(tasks, forKey: .tasks)
            try container.encode(actors, forKey: .actors)
            try container.encode(unread, forKey: .unread)
            try container.encode(threadsUnread, forKey: .threadsUnread)
            try container.encode(readChanges, forKey: .readChanges)
            try container.encode(heapNotWalked, forKey: .heapNotWalked)
        }

        private enum CodingKeys: String, CodingKey {
            case schemaVersion, target, tasks, actors, unread, threadsUnread, readChanges, heapNotWalked
        }

        init(report: TaskReport) {
            threadsUnread = report.threadsUnread
            readChanges = report.readChanges
            heapNotWalked = report.heapNotWalked.map { HeapNotWalkedEntry(allocator: $0.allocator, image: $0.image, threads: $0.threads) }
            target = report.target
            tasks = report.tasks.map { task in
                TaskEntry(
                    address: TaskReport.hex(task.address), id: task.id, state: task.state.rawValue, resumeFunction: task.resumeFunction,
                    resumeAddress: TaskReport.hex(task.resumeAddress), priority: task.priority, isCancelled: task.isCancelled,
                    parent: task.parent.map(TaskReport.hex), children: task.children.map(TaskReport.hex),
                    actor: task.actor.map(TaskReport.hex), thread: task.thread)
            }
            actors = report.actors.map { actor in
                ActorEntry(
                    address: TaskReport.hex(actor.address), type: actor.type, state: actor.state.name, queuedJobs: actor.queuedJobs,
                    queueTruncated: actor.isQueueTruncated)
            }
            unread = report.unread.map {
                UnreadEntry(address: TaskReport.hex($0.address), kind: $0.isTask ? "task" : "actor", reason: $0.reason)
            }
        }
    }
}

extension TaskReport.ActorState {
    /// `idle`, `scheduled`, `running`, `zombie`, or `state N`.
    public var name: String {
        switch self {
        case .idle: return "idle"
        case .scheduled: return "scheduled"
        case .running: return "running"
        case .zombie: return "zombie"
        case .other(let value): return "state \(value)"
        }
    }
}

extension TaskReport.TaskState {
    /// How text output says the state.
    public var phrase: String {
        switch self {
        case .running: return "running"
        case .enqueued: return "enqueued"
        case .suspended: return "suspended"
        case .completed: return "completed"
        case .suspendedOrCompleted: return "suspended or completed"
        case .unknown: return "in an unknown state"
        }
    }
}
