import Foundation
import TypeLayout

/// The testable core of the layout assertions: compares layouts with a snapshot file,
/// records it when asked (or when it is missing), and returns the failure message.
///
/// The `assertLayout` functions wrap this for XCTest and
/// Swift Testing; use the verifier directly to check layouts from elsewhere (a `LayoutDocument`
/// read from a binary, for example).
public struct LayoutSnapshotVerifier: Sendable {
    /// The environment variable that switches every assertion to record mode.
    public static let recordEnvironmentVariable = "TYPEINFO_RECORD_SNAPSHOTS"

    /// Where the snapshot file is.
    public var snapshotURL: URL
    /// When the snapshot file is written.
    public var recordMode: RecordMode

    /// When a verifier writes the snapshot file.
    public enum RecordMode: Hashable, Sendable {
        /// Never: a missing snapshot is a failure.
        case never
        /// Only when it is missing (then the assertion fails once, so it is noticed and checked in).
        case missing
        /// Always: write the current layouts and pass (`TYPEINFO_RECORD_SNAPSHOTS=1`).
        case all
    }

    /// The result of one verification.
    public enum Outcome: Hashable, Sendable {
        /// The layouts match the snapshot.
        case matched
        /// The snapshot was written (record mode); the assertion passes.
        case recorded
        /// There was no snapshot: it was written now, and the assertion fails so that a
        /// missing file never passes unnoticed in CI.
        case recordedMissing(message: String)
        /// The layouts differ from the snapshot; the message holds the readable diff.
        case mismatched(message: String, diff: LayoutDiff)
        /// The snapshot could not be read or written.
        case failed(message: String)

        /// The failure message, or `nil` when the assertion passes.
        public var failureMessage: String? {
            switch self {
            case .matched, .recorded: return nil
            case .recordedMissing(let message), .mismatched(let message, _), .failed(let message): return message
            }
        }
    }

    /// Creates a verifier for one snapshot file.
    ///
    /// - Parameters:
    ///   - snapshotURL: the snapshot file.
    ///   - record: `true` writes instead of comparing, `false` never writes (a missing snapshot
    ///     fails); `nil` (the default) records every snapshot when ``recordEnvironmentVariable``
    ///     is `1`, `true` or `yes`, and otherwise records only missing ones.
    public init(snapshotURL: URL, record: Bool? = nil) {
        self.snapshotURL = snapshotURL
        switch record {
        case true?: recordMode = .all
        case false?: recordMode = .never
        case nil: recordMode = Self.recordModeFromEnvironment()
        }
    }

    /// Creates a verifier with an explicit record mode (the environment is not read).
    ///
    /// - Parameters:
    ///   - snapshotURL: the snapshot file.
    ///   - recordMode: when to write it.
    public init(snapshotURL: URL, recordMode: RecordMode) {
        self.snapshotURL = snapshotURL
        self.recordMode = recordMode
    }

    /// Creates a verifier for the snapshot a test file keeps beside itself:
    /// `<test file's directory>/__Snapshots__/<test file name>/<name>.layout.json`.
    ///
    /// - Parameters:
    ///   - name: the snapshot's name (a type name is fine: characters unsafe in file names
    ///     become `_`).
    ///   - testFilePath: the test's `#filePath`.
    ///   - record: as in ``init(snapshotURL:record:)``.
    public init(named name: String, besideTestFile testFilePath: String, record: Bool? = nil) {
        let testFile = URL(fileURLWithPath: testFilePath)
        let directory = testFile.deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__", isDirectory: true)
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent, isDirectory: true)
        self.init(snapshotURL: directory.appendingPathComponent(Self.fileName(for: name)), record: record)
    }

    /// The record mode the environment asks for: ``RecordMode/all`` when
    /// ``recordEnvironmentVariable`` is `1`, `true` or `yes`, otherwise ``RecordMode/missing``.
    public static func recordModeFromEnvironment() -> RecordMode {
        guard let value = ProcessInfo.processInfo.environment[recordEnvironmentVariable]?.lowercased(),
            ["1", "true", "yes"].contains(value)
        else { return .missing }
        return .all
    }

    /// `Demo.Box<Swift.Int>` -> `Demo.Box_Swift.Int_.layout.json`.
    static func fileName(for name: String) -> String {
        let safe = String(
            name.unicodeScalars.map { scalar -> Character in
                let allowed =
                    (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                    || (scalar >= "0" && scalar <= "9") || scalar == "." || scalar == "-" || scalar == "_"
                return allowed ? Character(scalar) : "_"
            })
        return (safe.isEmpty ? "layout" : safe) + ".layout.json"
    }

    /// Compares layouts with the snapshot file, or records them.
    ///
    /// - Parameter layouts: the current layouts (normally one type's).
    /// - Returns: what happened; ``Outcome/failureMessage`` is what an assertion reports.
    public func verify(_ layouts: [TypeLayout]) -> Outcome {
        let current = LayoutSnapshot(types: layouts)
        let path = snapshotURL.path
        if recordMode == .all {
            return write(current).map { .failed(message: $0) } ?? .recorded
        }
        guard FileManager.default.fileExists(atPath: path) else {
            if recordMode == .never {
                return .failed(message: "No layout snapshot at \(path). Record it with \(Self.recordEnvironmentVariable)=1.")
            }
            if let problem = write(current) { return .failed(message: problem) }
            return .recordedMissing(
                message: """
                    No layout snapshot was found, so one was recorded at \(path).
                    Check it in; the next run compares against it.
                    """)
        }
        let recorded: LayoutSnapshot
        do {
            recorded = try LayoutSnapshot(jsonData: Data(contentsOf: snapshotURL))
        } catch let error as LayoutSnapshotError {
            return .failed(
                message: "Cannot read the layout snapshot \(path): \(error). Re-record it with \(Self.recordEnvironmentVariable)=1.")
        } catch {
            return .failed(message: "Cannot read the layout snapshot \(path): \(error.localizedDescription)")
        }
        let diff = LayoutDiff(old: recorded, new: current)
        if diff.isEmpty { return .matched }
        let names = current.types.map(\.name).joined(separator: ", ")
        let message = """
            Layout of \(names.isEmpty ? "the types" : names) does not match the snapshot \(path):

            \(diff.textReport())
            If the change is intended, re-record with \(Self.recordEnvironmentVariable)=1.
            """
        return .mismatched(message: message, diff: diff)
    }

    /// Writes the snapshot, creating its directory; returns a problem, or `nil` on success.
    private func write(_ snapshot: LayoutSnapshot) -> String? {
        do {
            try FileManager.default.createDirectory(
                at: snapshotURL.deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try snapshot.jsonData().write(to: snapshotURL, options: .atomic)
            return nil
        } catch {
            return "Cannot write the layout snapshot \(snapshotURL.path): \(error.localizedDescription)"
        }
    }
}
