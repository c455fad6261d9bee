import Foundation
import Synchronization

/// The per-process directories the tests build fixtures in, removed when the test process
/// exits: the fixtures are built once per process and shared by many tests, and neither Swift
/// Testing nor XCTest has an end-of-run hook, so the process's own `atexit` removes them.
/// (A process that crashes or is killed leaves its directory behind.)
public enum ScratchDirectory {
    private static let paths = Mutex<[String]>([])

    /// `$TMPDIR/<name>-<pid>`, registered for removal at exit; the caller creates it.
    public static func path(named name: String) -> String {
        let path = NSTemporaryDirectory() + "\(name)-\(ProcessInfo.processInfo.processIdentifier)"
        paths.withLock { paths in
            if paths.isEmpty { atexit { ScratchDirectory.removeAll() } }
            if !paths.contains(path) { paths.append(path) }
        }
        return path
    }

    /// Registers a directory made elsewhere (in a test root) for removal at exit.
    public static func removeAtExit(_ path: String) {
        paths.withLock { paths in
            if paths.isEmpty { atexit { ScratchDirectory.removeAll() } }
            if !paths.contains(path) { paths.append(path) }
        }
    }

    private static func removeAll() {
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
