/// A target's async tasks and actors: the answer of `typeinfo tasks`.
///
/// Every fact is what the toolchain's libswiftRemoteMirror read from the target's memory
/// (`swift_reflection_asyncTaskInfo`, `swift_reflection_actorInfo`); names come from the target's
/// images' symbol tables and type metadata. What the library does not say is nil, never guessed.
public struct TaskReport: Sendable, Hashable {
    /// What the library can say of a task's state.
    public enum TaskState: String, Sendable, Hashable, CaseIterable {
        /// A thread runs it now.
        case running
        /// It is queued to run (on a global executor or an actor).
        case enqueued
        /// It neither runs nor is queued, and has not completed: it waits to be resumed.
        case suspended
        /// It has completed (returned or thrown); a handle keeps it alive.
        case completed
        /// It neither runs nor is queued: suspended, or completed (said where its completion
        /// cannot be read: a task that is not a future, or one whose future fragment is not
        /// consistent).
        case suspendedOrCompleted
        /// The library could not tell whether it runs.
        case unknown
    }

    /// What the runtime says of an actor's state.
    public enum ActorState: Sendable, Hashable {
        case idle, scheduled, running
        /// Released, waiting to be deallocated.
        case zombie
        /// A value this reader does not know.
        case other(Int)
    }

    /// One task.
    public struct Task: Sendable, Hashable {
        public var address: UInt64
        /// The runtime's task id.
        public var id: UInt64
        public var state: TaskState
        /// Where the task resumes (its resume partial function's source function,
        /// `MyApp.fetchOrders(_:) async -> ()`); nil when no symbol names the address, and for a
        /// running or completed task.
        public var resumeFunction: String?
        /// The address of the function the task runs next (for a completed task, the last one it
        /// was given).
        public var resumeAddress: UInt64
        /// Its priority as `Task.currentPriority` says inside it (`TaskPriority`'s raw value; 0: unspecified): the higher of its job's priority and an escalated one.
        public var priority: Int
        public var isCancelled: Bool
        /// The task whose child it is, when that task was read.
        public var parent: UInt64?
        public var children: [UInt64]
        /// The actor whose queue holds it, or the actor it is running on; nil when it is in no
        /// queue read, or runs on no actor known.
        public var actor: UInt64?
        /// The kernel id of the thread running it (``TaskState/running``); nil when it is not
        /// running or the thread is not known.
        public var thread: Int32?

        public init(
            address: UInt64, id: UInt64, state: TaskState, resumeFunction: String?, resumeAddress: UInt64, priority: Int,
            isCancelled: Bool, parent: UInt64?, children: [UInt64], actor: UInt64?, thread: Int32? = nil
        ) {
            self.address = address
            self.id = id
            self.state = state
            self.resumeFunction = resumeFunction
            self.resumeAddress = resumeAddress
            self.priority = priority
            self.isCancelled = isCancelled
            self.parent = parent
            self.children = children
            self.actor = actor
            self.thread = thread
        }
    }

    /// One actor.
    public struct Actor: Sendable, Hashable {
        public var address: UInt64
        /// Its dynamic type's name; nil when the library could not name it.
        public var type: String?
        public var state: ActorState
        /// How many jobs wait in its queue.
        public var queuedJobs: Int
        /// Whether the queue was longer than was followed (``queuedJobs`` is then a lower bound).
        public var isQueueTruncated: Bool

        public init(address: UInt64, type: String?, state: ActorState, queuedJobs: Int, isQueueTruncated: Bool) {
            self.address = address
            self.type = type
            self.state = state
            self.queuedJobs = queuedJobs
            self.isQueueTruncated = isQueueTruncated
        }
    }

    /// An object recognised as a task or an actor that the library could not read.
    public struct Unread: Sendable, Hashable {
        public var address: UInt64
        public var isTask: Bool
        /// The library's error.
        public var reason: String

        public init(address: UInt64, isTask: Bool, reason: String) {
            self.address = address
            self.isTask = isTask
            self.reason = reason
        }
    }

    /// Tasks in one state that resume in one function.
    public struct Group: Sendable, Hashable {
        public var resumeFunction: String?
        public var state: TaskState
        public var count: Int
        public var cancelled: Int
    }

    /// Why the heap was not walked, so that only the tasks the threads run are listed: parked
    /// tasks and actors are found among the heap's allocations, and the heap of an allocator
    /// other than glibc's is not read.
    public struct HeapNotWalked: Sendable, Hashable {
        /// The allocator that replaces glibc's `malloc` (`jemalloc`).
        public var allocator: String
        /// The image it lives in, as the target mapped it.
        public var image: String
        /// How many threads were read for the tasks they run; nil when they could not be read
        /// (``TaskReport/threadsUnread`` says why).
        public var threads: Int?

        public init(allocator: String, image: String, threads: Int?) {
            self.allocator = allocator
            self.image = image
            self.threads = threads
        }
    }

    /// Which process was read, and how.
    public var target: HeapCensus.Target
    /// Ordered by address.
    public var tasks: [Task]
    /// Ordered by address.
    public var actors: [Actor]
    public var unread: [Unread]
    /// Why the target's threads (which thread runs each running task, on which actor) could not
    /// be read; nil when they were.
    public var threadsUnread: String?
    /// What changed under the reading of a running process (its heap walk, and the tasks that
    /// ended or were read again); nil for a core or a stopped process, which do not change.
    public var readChanges: TaskReadChanges?
    /// Set when the heap was not walked: ``tasks`` are then only those the threads run, and
    /// ``actors`` is empty though the process may have actors.
    public var heapNotWalked: HeapNotWalked?

    public init(
        target: HeapCensus.Target, tasks: [Task], actors: [Actor], unread: [Unread], threadsUnread: String? = nil,
        readChanges: TaskReadChanges? = nil
    ) {
        self.target = target
        self.tasks = tasks.sorted { $0.address < $1.address }
        self.actors = actors.sorted { $0.address < $1.address }
        self.unread = unread.sorted { $0.address < $1.address }
        self.threadsUnread = threadsUnread
        self.readChanges = readChanges
    }

    /// The tasks grouped by state and resume function, largest group first (then by name).
    public var groups: [Group] {
        var groups: [String: Group] = [:]
        for task in tasks {
            let key = "\(task.state.rawValue)\u{0}\(task.resumeFunction ?? "\u{1}")"
            var group = groups[key] ?? Group(resumeFunction: task.resumeFunction, state: task.state, count: 0, cancelled: 0)
            group.count += 1
            if task.isCancelled { group.cancelled += 1 }
            groups[key] = group
        }
        return groups.values.sorted {
            if $0.count != $1.count { return $0.count > $1.count }
            if ($0.resumeFunction ?? "") != ($1.resumeFunction ?? "") { return ($0.resumeFunction ?? "") < ($1.resumeFunction ?? "") }
            return $0.state.rawValue < $1.state.rawValue
        }
    }
}
