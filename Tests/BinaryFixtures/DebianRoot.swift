import Foundation
import Synchronization

/// A Debian root with another glibc release than the host's, for running fixtures as in a
/// container (``container(_:)``): made once by `Tools/make-test-root`
/// (debootstrap, minutes) and cached across test runs under /var/cache/typeinfo-roots.
public enum DebianRoot {
    /// Debian 11: glibc 2.31 (with gcc, to compile C fixtures against it).
    public static let bullseye = "bullseye"
    /// Debian 13: glibc 2.41 (with libjemalloc2 and tcmalloc).
    public static let trixie = "trixie"

    private static let made = Mutex<[String: Result<String, FixtureError>]>([:])
    private static let making = NSLock()
    private static let installed = Mutex<Set<String>>([])

    /// The root of `release`, made now if it is not yet (the script waits for another test
    /// process making it); the reason, as the script states it, when it cannot be made.
    public static func path(_ release: String) -> Result<String, FixtureError> {
        making.lock()
        defer { making.unlock() }
        if let known = made.withLock({ $0[release] }) { return known }
        let script =
            URL(fileURLWithPath: FixtureToolchain.fixturesDirectory).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/make-test-root").path
        let result: Result<String, FixtureError>
        do {
            let line = try FixtureToolchain.run(script, [release], in: "/").trimmingCharacters(in: .whitespacesAndNewlines)
            result = .success(line)
        } catch {
            result = .failure(FixtureError(message: "no Debian \(release) root: \(error)"))
        }
        made.withLock { $0[release] = result }
        return result
    }

    /// The program and arguments that run an executable (its path in `root`, appended) as a
    /// container does: in a mount namespace of its own whose root is `root` (`pivot_root`), so
    /// its memory map names files by their paths in the root (`/usr/lib/x86_64-linux-gnu/libc.so.6`,
    /// a path where the host has its own file), which only `/proc/PID/root` and
    /// `/proc/PID/map_files` reach from the host. It has a `/proc` (the Swift runtime's thread
    /// pool reads it), as containers do. The process keeps the launcher's id.
    public static func container(_ root: String) -> [String] {
        [
            "/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c",
            #"mount --bind "$0" "$0" && mount -t proc proc "$0/proc" && cd "$0" && mkdir -p .host && pivot_root . .host && exec "$@""#,
            root,
        ]
    }

    /// A C fixture (`Fixtures/NAME.c`) compiled inside the `release` root with its own gcc, at its
    /// path in the root: for releases older than any Swift program runs on.
    public static func compiled(_ name: String, in release: String) -> Result<(root: String, executable: String), FixtureError> {
        path(release).flatMap { root in
            do {
                let inside = try install(FixtureToolchain.fixturesDirectory + "/\(name).c", in: root)
                let executable = String(inside.dropLast(2))
                try FixtureToolchain.run("/usr/sbin/chroot", [root, "gcc", "-O1", "-pthread", inside, "-o", executable], in: "/")
                return .success((root, executable))
            } catch {
                return .failure(FixtureError(message: "\(name).c does not compile in \(root): \(error)"))
            }
        }
    }

    /// The host's build of a fixture (`built`), copied into the `release` root.
    public static func installed(_ built: Result<String, FixtureError>, in release: String) -> Result<
        (root: String, executable: String), FixtureError
    > {
        path(release).flatMap { root in
            do {
                return .success((root, try install(try built.get(), in: root)))
            } catch {
                return .failure(FixtureError(message: "\(error)"))
            }
        }
    }

    /// Copies `executable` into `root` (under /tmp, removed when this process exits) and returns
    /// its path inside the root.
    /// Copied once per test process: a copy made again while another test runs the first would
    /// be replaced under it.
    public static func install(_ executable: String, in root: String) throws -> String {
        making.lock()
        defer { making.unlock() }
        let inside = "/tmp/typeinfo-fixtures-\(ProcessInfo.processInfo.processIdentifier)"
        let path = inside + "/" + URL(fileURLWithPath: executable).lastPathComponent
        if installed.withLock({ $0.contains(root + path) }) { return path }
        try FileManager.default.createDirectory(atPath: root + inside, withIntermediateDirectories: true)
        ScratchDirectory.removeAtExit(root + inside)
        try? FileManager.default.removeItem(atPath: root + path)
        _ = try FixtureToolchain.run("/bin/cp", [executable, root + path], in: "/")
        installed.withLock { _ = $0.insert(root + path) }
        return path
    }
}
