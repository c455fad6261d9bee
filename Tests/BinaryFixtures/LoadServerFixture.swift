import Foundation
import Synchronization

/// What `Fixtures/LoadServer` set up and keeps unchanged while it churns, as it states it.
public struct LoadServerReport: Decodable, Sendable {
    public var pid: Int32
    /// Live `StableRecord` objects (``stableRecordType``), held until the process ends.
    public var stableRecords: Int
    public var stableRecordType: String
    /// Live `StableNode` objects (``stableNodeType``).
    public var stableNodes: Int
    public var stableNodeType: String
    /// Idle actors of ``ledgerType``.
    public var ledgers: Int
    public var ledgerType: String
    public var ledgerAddresses: [String]
    /// Tasks suspended forever in ``parkedFunction``.
    public var parked: Int
    public var parkedFunction: String
    /// The class the churn allocates and frees without end.
    public var churnType: String
    /// Threads and tasks churning (each).
    public var workers: Int
    public var firstRecord: String
    public var firstNode: String
    /// The generic class instantiation it made and holds (`LoadServer.StableBox<…>`).
    public var stableBoxType: String
    /// The generic struct instantiation that class holds, and its layout as `MemoryLayout` states it.
    public var stablePairType: String
    public var stablePairSize: Int
    public var stablePairAlignment: Int
    public var stablePairStride: Int
    /// `MemoryLayout.offset(of: \.second)`.
    public var stablePairSecondOffset: Int
}

/// How much the churn has done, from the server's `stats` command.
public struct LoadServerStats: Decodable, Sendable {
    /// `ChurnObject`s made so far.
    public var made: Int
}

/// A running LoadServer: a package built by SwiftPM in release exactly as users build servers
/// (`swift build -c release`, plain or `--static-swift-stdlib`, no other flags), holding a
/// known stable population while every core allocates, frees and runs tasks.
public final class LoadServerFixture {
    private let process: LiveFixtureProcess<LoadServerReport>
    public var executable: String { process.executable }
    public var processID: Int32 { process.processID }
    public let report: LoadServerReport

    /// The package's release product, built once per test process and linking.
    public static func product(_ linking: FixtureLinking) throws -> String {
        try SwiftPMFixture.product(package: "LoadServer", linking: linking)
    }

    /// Starts the server and waits until its stable population is set up and the churn runs.
    ///
    /// - Parameters:
    ///   - environment: `LOAD_SERVER_STABLE`, `LOAD_SERVER_PARKED`, `LOAD_SERVER_LEDGERS`,
    ///     `LOAD_SERVER_WORKERS` (0 for a quiet server), `LOAD_SERVER_SECONDS`.
    public init(_ linking: FixtureLinking = .dynamic, environment: [String: String] = [:]) throws {
        process = try LiveFixtureProcess(executable: try Self.product(linking), environment: environment)
        report = try process.readReport()
    }

    /// How much the churn has done so far (the server's own count).
    public func stats() throws -> LoadServerStats {
        try process.send("stats")
        return try process.readReport(as: LoadServerStats.self)
    }

    /// Kills the server and waits for it.
    public func finish() { process.finish() }
}
