import Foundation

/// Readings of a ``LoadServerFixture`` while it churns: the skeleton the under-load tests share.
/// A test states only what one reading reads and checks against the server's report; this runs
/// it ``count`` times and keeps what the tests assert on all of them (how many were exact, how
/// many were made while the server churned, what failed).
///
/// ```swift
/// let readings = try LoadServerReadings(server) { _ in
///     try LiveHeapReader.census(options)
/// } check: { reading, census in
///     census.count == server.report.stableRecords ? nil : "reading \(reading): \(census.count)"
/// }
/// #expect(readings.exact >= readings.count - 1, "\(readings.failures.prefix(3))")
/// ```
public struct LoadServerReadings {
    /// Readings made by default.
    public static let defaultCount = 20
    /// Readings made.
    public let count: Int
    /// Readings that matched the server's report exactly.
    public private(set) var exact = 0
    /// Readings that completed while the server made objects (its counter moved meanwhile).
    public private(set) var churned = 0
    /// What each reading that was not exact said, or the error it threw.
    public private(set) var failures: [String] = []
    /// Objects the server made from before the first reading to after the last.
    public let madeDuring: Int

    /// Makes `count` readings of `server`, each with `read(reading)`, then checks each with
    /// `check`: nil when the reading was exact, else a description of what differed. A reading
    /// made while the server's counter moved (between just before `read` and just after it)
    /// churned. A reading or check that throws is a failure.
    public init<Reading>(
        _ server: LoadServerFixture, count: Int = LoadServerReadings.defaultCount, _ read: (_ reading: Int) throws -> Reading,
        check: (_ reading: Int, Reading) throws -> String?
    ) throws {
        self.count = count
        let madeBefore = try server.stats().made
        for reading in 0..<count {
            let before = try server.stats().made
            do {
                let value = try read(reading)
                if try server.stats().made > before { churned += 1 }
                if let difference = try check(reading, value) {
                    failures.append(difference)
                } else {
                    exact += 1
                }
            } catch {
                failures.append("reading \(reading): \(error)")
            }
        }
        madeDuring = try server.stats().made - madeBefore
    }
}
