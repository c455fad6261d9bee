import Foundation

/// A running `Fixtures/LiveGenerics/main.swift` process: a release-built Swift program whose
/// generic instantiations are made only at run time, which prints each one's layout as the
/// runtime states it (its ``LiveGenericsReport``) and waits to be killed.
public final class LiveGenericsFixture {
    public typealias Linking = FixtureLinking
    private let process: LiveFixtureProcess<LiveGenericsReport>
    public var executable: String { process.executable }
    public var processID: Int32 { process.processID }
    /// What the process printed about itself on start.
    public let report: LiveGenericsReport

    /// The variable that makes the Swift runtime list its metadata allocations to readers.
    public static let iterationVariable = "SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION"

    /// Starts the fixture and waits for its report.
    ///
    /// - Parameters:
    ///   - listsMetadataAllocations: start it with `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`.
    ///   - copy: run a copy of the executable made at this path (a test may then move or remove it).
    public init(_ linking: Linking = .dynamic, listsMetadataAllocations: Bool, runningCopyAt copy: String? = nil) throws {
        process = try LiveFixtureProcess(
            module: "LiveGenerics", linking: linking, runningCopyAt: copy,
            environment: [Self.iterationVariable: listsMetadataAllocations ? "1" : "0"])
        report = try process.readReport()
    }

    /// Kills the process and waits for it.
    public func finish() { process.finish() }
}

/// What the generics fixture says of its instantiations.
public struct LiveGenericsReport: Decodable, Sendable {
    /// One instantiation, as the runtime lays it out in the fixture.
    public struct Instantiation: Decodable, Sendable {
        /// `String(reflecting:)`: `LiveGenerics.Box<LiveGenerics.Point>`.
        public var type: String
        /// The metadata's address in the process, `0x…`.
        public var metadata: String
        /// `class`, `struct` or `enum`.
        public var kind: String
        /// `MemoryLayout<T>.size`, `.alignment`, `.stride` (for a class: a reference's).
        public var size: Int
        public var alignment: Int
        public var stride: Int
        /// For a class: the end of its last stored field, or 16 without fields.
        public var instanceSize: Int?
        /// Whether a live object's stored fields reach it (the fixture's source says so): the
        /// instantiations a reading of the heap alone can find.
        public var reachedFromHeap: Bool
        /// Stored fields as `_forEachField` states them (none for an enum).
        public var fields: [Field]
    }

    /// A stored field as `_forEachField` states it.
    public struct Field: Decodable, Sendable, Equatable {
        public var name: String
        public var offset: Int
        /// `String(reflecting:)` of the field's declared type.
        public var type: String
        /// Its name and offset, as the heap fixture states fields.
        public var placement: LiveHeapReport.Field { LiveHeapReport.Field(name: name, offset: offset) }
    }

    /// An object the fixture holds, and `String(reflecting:)` of its class.
    public struct Object: Decodable, Sendable {
        /// `0x…`.
        public var address: String
        public var type: String
    }

    public var pid: Int32
    public var types: [Instantiation]
    /// Objects of its generic classes whose fields are parameterized existentials of the
    /// class's own generic parameters.
    public var objects: [Object]
}
