import Foundation

/// What `Fixtures/LiveTasks/main.swift` set up, as it states it: counts, the runtime's names of its
/// park functions, and the addresses of its tasks and actors.
public struct LiveTasksReport: Decodable, Sendable {
    public var pid: Int32
    /// Tasks suspended forever in ``parkedFunction``.
    public var parked: Int
    /// How many of them were cancelled (every third, from the first).
    public var cancelled: Int
    /// Task-group children suspended forever in ``childFunction``.
    public var children: Int
    /// Tasks enqueued on the busy actor.
    public var waiters: Int
    public var parkedFunction: String
    public var childFunction: String
    /// Where the two `async let` children park.
    public var letFunction: String
    /// The task whose `async let` children park in ``letFunction``.
    public var letOwner: String
    public var letChildren: [String]
    public var parkedTasks: [String]
    /// Each parked task's `Task.currentPriority.rawValue`, as the task itself read it (in the
    /// order of ``parkedTasks``).
    public var parkedPriorities: [Int]
    public var childTasks: [String]
    /// The task whose group holds the children.
    public var groupOwner: String
    /// The task running on the busy actor.
    public var holder: String
    /// The kernel id of the thread running it, as `gettid` said in it.
    public var holderThread: Int32
    /// Tasks that completed by returning a value, their handles kept alive.
    public var returnedTasks: [String]
    /// Tasks that completed by throwing, their handles kept alive.
    public var threwTasks: [String]
    public var idleActors: [String]
    public var idleActorType: String
    public var busyActor: String
    public var busyActorType: String
}

/// A running LiveTasks fixture: a release-built process with known tasks and actors.
public final class LiveTasksFixture {
    private let process: LiveFixtureProcess<LiveTasksReport>
    public var executable: String { process.executable }
    public var processID: Int32 { process.processID }
    public let report: LiveTasksReport

    /// Starts the fixture (with `environment` added to this process's) and waits until it has set
    /// everything up.
    public init(_ linking: FixtureLinking = .dynamic, environment: [String: String] = [:]) throws {
        process = try LiveFixtureProcess(module: "LiveTasks", linking: linking, environment: environment)
        report = try process.readReport()
    }

    /// Starts the static-stdlib fixture in `root` (a ``DebianRoot``) as in a container
    /// (``DebianRoot/container(_:)``): its C library is the root's, at the path the host's has.
    public init(inRoot root: String) throws {
        let inside = try DebianRoot.install(
            try LiveFixtureProcess<LiveTasksReport>.product(module: "LiveTasks", linking: .staticStdlib), in: root)
        process = try LiveFixtureProcess(executable: inside, launcher: DebianRoot.container(root))
        report = try process.readReport()
    }

    /// Kills the process and waits for it.
    public func finish() { process.finish() }
}
