import Foundation

/// A running `Fixtures/LiveHeap/main.swift` process: a release-built Swift program with a known
/// heap, which prints what it holds (its ``LiveHeapReport``) and waits to be grown or killed.
public final class LiveHeapFixture {
    public typealias Linking = FixtureLinking
    private let process: LiveFixtureProcess<LiveHeapReport>
    public var executable: String { process.executable }
    public var processID: Int32 { process.processID }
    /// What the process printed about itself on start (or after the last ``grow()``).
    public private(set) var report: LiveHeapReport

    /// Starts the fixture and waits for its first report.
    ///
    /// - Parameter copy: run a copy of the executable made at this path (a test may then move,
    ///   replace or remove the file the process runs).
    public init(_ linking: Linking = .dynamic, runningCopyAt copy: String? = nil) throws {
        process = try LiveFixtureProcess(module: "LiveHeap", linking: linking, runningCopyAt: copy)
        report = try process.readReport()
    }

    /// Starts the static-stdlib fixture in `root` (a ``DebianRoot``) as in a container
    /// (``DebianRoot/container(_:)``): its C library is the root's, at the path the host's has.
    public init(inRoot root: String) throws {
        let inside = try DebianRoot.install(try Self.product(.staticStdlib), in: root)
        process = try LiveFixtureProcess(executable: inside, launcher: DebianRoot.container(root))
        report = try process.readReport()
    }

    /// The release-built executable (compiled once per test process).
    public static func product(_ linking: Linking) throws -> String {
        try LiveFixtureProcess<LiveHeapReport>.product(module: "LiveHeap", linking: linking)
    }

    /// Asks the fixture to make its known batch of further objects, and waits for its new report.
    @discardableResult
    public func grow() throws -> LiveHeapReport {
        try process.send("grow")
        report = try process.readReport()
        return report
    }

    /// Starts two threads that allocate and free `LiveHeap.Scratch` objects forever (the held
    /// objects stay as they are), and waits for the fixture's report.
    public func churn() throws {
        try process.send("churn")
        report = try process.readReport()
    }

    /// Kills the process and waits for it.
    public func finish() { process.finish() }
}

/// What the live-heap fixture says it holds.
public struct LiveHeapReport: Decodable, Sendable {
    /// One of the fixture's own types, as the runtime names it.
    public struct HeldType: Decodable, Sendable {
        /// `String(reflecting:)`: `LiveHeap.Box<Swift.Int>`.
        public var type: String
        /// The type's metadata address in the process, `0x…`.
        public var metadata: String
        /// Live instances.
        public var count: Int
        /// The sum of the instances' `malloc_usable_size`.
        public var bytes: Int
        /// The end of the last stored field (superclasses' included), or 16 without fields: the
        /// instance size from the runtime's reflection (`_forEachField(of:options: .classType)`).
        public var instanceSize: Int?
        /// The stored fields, superclasses' first, as `_forEachField` states them.
        public var fields: [Field]?
    }

    /// A stored field's name and offset in the instance.
    public struct Field: Decodable, Sendable, Equatable {
        public var name: String
        public var offset: Int

        public init(name: String, offset: Int) {
            self.name = name
            self.offset = offset
        }
    }

    /// A sample object and the values of its fields, as the process reads them.
    public struct Sample: Decodable, Sendable {
        public var name: String
        public var address: String
        public var type: String
        public var id: Int?
        public var orderName: String?
        public var price: Double?
        public var paid: Bool?
        /// `"\(status)"`: `shipped(7)`.
        public var status: String?
        public var tags: [String]?
        public var parent: String?
        public var legs: Int?
        public var dogName: String?
        /// `root.tags`'s storage object and its type (`Swift._ContiguousArrayStorage<Swift.String>`).
        public var tagsStorage: String?
        public var tagsStorageType: String?
    }

    /// A closure's context object: its address, and how many values the closure captures.
    public struct Context: Decodable, Sendable {
        public var name: String
        public var address: String
        public var captures: Int
    }

    public var pid: Int32
    public var threads: Int
    /// The contexts of two closures the fixture keeps (a boxed variable's, a two-value one).
    public var contexts: [Context]?
    public var types: [HeldType]
    public var samples: [Sample]

    public func sample(_ name: String) -> Sample? { samples.first { $0.name == name } }
}
