#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process stopped with `SIGSTOP` for a consistent reading, and resumed whatever happens to
/// the reader.
///
/// Stopping is all it does to the target: no `ptrace`, nothing written. Resuming is guaranteed by
/// a guardian, a `/bin/sh` in its own process group (so a Ctrl-C meant for typeinfo does not reach
/// it) that waits on a pipe only typeinfo holds: ``resume()`` tells it the target was resumed; any
/// other end of typeinfo (an error, a signal, `SIGKILL`, a crash) closes the pipe unannounced, and
/// the guardian sends `SIGCONT`. A process that was already stopped is left stopped.
public final class ProcessPause {
    /// The stopped process.
    public let processID: Int32
    /// Whether this pause stopped the process (false when it was stopped already: it stays so).
    public let stoppedIt: Bool
    private var guardianInput: Int32 = -1
    private var guardian: pid_t = 0
    private var resumed = false

    /// How long the process's threads get to stop.
    static let stopLimit: Double = 5

    /// Stops the process `processID` and waits until every thread of it has stopped.
    ///
    /// - Throws: ``BinaryInfoError/noSuchProcess(path:)``,
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)`` when it may not be signalled,
    ///   ``BinaryInfoError/processExited(path:)``, or ``BinaryInfoError/unsupported(path:detail:)``
    ///   when no guardian could be started (then the process is not stopped) or its threads did not
    ///   stop in time (then it is resumed).
    public init(processID: Int32) throws(BinaryInfoError) {
        self.processID = processID
        let path = "process \(processID)"
        let states = try Self.threadStates(processID: processID)
        if states.allSatisfy({ $0 == "T" || $0 == "t" }) {
            stoppedIt = false
            return
        }
        stoppedIt = true
        try startGuardian(path: path)
        guard kill(processID, SIGSTOP) == 0 else {
            let code = errno
            finishGuardian()
            if code == ESRCH { throw .processExited(path: path) }
            throw .processAccessDenied(path: path, reason: "it may not be signalled (\(String(cString: strerror(code))))")
        }
        try waitUntilStopped()
    }

    /// Waits until every thread of the process has stopped; resumes it and throws when they do not.
    private func waitUntilStopped() throws(BinaryInfoError) {
        let path = "process \(processID)"
        let start = Self.now()
        while true {
            let states: [Character]
            do {
                states = try Self.threadStates(processID: processID)
            } catch {
                resume()
                throw .processExited(path: path)
            }
            if states.allSatisfy({ $0 == "T" || $0 == "t" || $0 == "Z" || $0 == "X" }) { break }
            guard Self.now() - start < Self.stopLimit else {
                resume()
                throw .unsupported(
                    path: path,
                    detail: "its threads did not stop within \(Int(Self.stopLimit)) s of SIGSTOP; it was resumed (read it without --pause)")
            }
            usleep(1000)
        }
    }

    /// Lets the process run for a moment and stops it again: `SIGSTOP` can catch a thread inside
    /// the allocator, with a free list half changed, and a moment's running lets it finish.
    /// Nothing happens to a process that was stopped before this pause.
    public func letRunBriefly() throws(BinaryInfoError) {
        guard stoppedIt, !resumed else { return }
        kill(processID, SIGCONT)
        usleep(5000)
        guard kill(processID, SIGSTOP) == 0 else {
            resume()
            throw .processExited(path: "process \(processID)")
        }
        try waitUntilStopped()
    }

    /// Resumes the process (if this pause stopped it) and lets the guardian go. Idempotent.
    public func resume() {
        guard !resumed else { return }
        resumed = true
        guard stoppedIt else { return }
        kill(processID, SIGCONT)
        finishGuardian()
    }

    deinit { resume() }

    /// Lets the guardian end without resuming: only for tests of what it does when typeinfo ends
    /// unannounced (closing the pipe without the line is what the kernel does when typeinfo dies).
    func abandonForTesting() {
        resumed = true
        if guardianInput >= 0 { close(guardianInput) }
        guardianInput = -1
        if guardian > 0 {
            var status: Int32 = 0
            while waitpid(guardian, &status, 0) < 0, errno == EINTR {}
        }
        guardian = 0
    }

    private func startGuardian(path: String) throws(BinaryInfoError) {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec, so no other child of typeinfo (a lowering worker) holds the pipe open.
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw .unsupported(
                path: path, detail: "could not start the guardian that resumes it: pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        // A line on the pipe means "resumed"; end of file without one means typeinfo is gone.
        let script = "if read -r line; then exit 0; fi; kill -CONT \"$1\""
        let argv: [UnsafeMutablePointer<CChar>?] = [
            strdup("sh"), strdup("-c"), strdup(script), strdup("sh"), strdup(String(processID)), nil,
        ]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environ)
        close(ends[0])
        guard status == 0 else {
            close(ends[1])
            throw .unsupported(
                path: path, detail: "could not start the guardian that resumes it: /bin/sh: \(String(cString: strerror(status)))")
        }
        guardian = child
        guardianInput = ends[1]
    }

    private func finishGuardian() {
        if guardianInput >= 0 {
            _ = "\n".withCString { write(guardianInput, $0, 1) }
            close(guardianInput)
            guardianInput = -1
        }
        if guardian > 0 {
            var status: Int32 = 0
            while waitpid(guardian, &status, 0) < 0, errno == EINTR {}
            guardian = 0
        }
    }

    /// The state letter (`R`, `S`, `T`, …) of each thread of the process.
    static func threadStates(processID: Int32) throws(BinaryInfoError) -> [Character] {
        guard let directory = opendir("/proc/\(processID)/task") else { throw .noSuchProcess(path: "process \(processID)") }
        defer { closedir(directory) }
        var states: [Character] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let stat = try? ImageLoader.readFile("/proc/\(processID)/task/\(name)/stat") else {
                continue
            }
            // The state follows the parenthesised command, which may itself hold ") ".
            let text = stat.text
            if let close = text.lastIndex(of: ")"), let state = text[close...].dropFirst(2).first { states.append(state) }
        }
        guard !states.isEmpty else { throw .processExited(path: "process \(processID)") }
        return states
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
