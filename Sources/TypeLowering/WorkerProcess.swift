#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// One run of the worker executable: spawned with posix_spawn, spoken to over a socket pair
/// (a socket, so that writing to a worker that died fails with EPIPE instead of raising SIGPIPE
/// in the reading process), killed when it falls silent for longer than the time limit.
///
/// A worker either answers one request and exits (``finish(silenceLimit:onLine:)``), or is kept
/// for batch after batch (``readBatch(silenceLimit:onLine:)``) until ``end(waitLimit:)``.
///
/// Reads go through swift-system's `FileDescriptor` (interrupted calls retried there); the calls
/// swift-system lacks (`socketpair`, `posix_spawn`, `send` with `MSG_NOSIGNAL`, `poll`,
/// `waitpid`) are TypeLowering's only raw system calls, here, each retried on EINTR once.
struct WorkerProcess {
    /// How a run ended.
    enum Ending: Equatable {
        /// Exited with this status after replying.
        case exited(Int32)
        /// Killed by a signal (a crash inside the reflection library).
        case signalled(Int32)
        /// Silent past the time limit; killed.
        case timedOut
    }

    let executable: String
    /// The file the worker's standard error goes to (a crash's backtrace, tens of lines, stays
    /// off the user's terminal), nil when it could not be made (then it goes to /dev/null). It
    /// is removed when the run ends, unless ``keepsErrorOutput``.
    private(set) var errorOutputPath: String?
    /// Whether the error output file outlives the run, for ``keptErrorOutput()`` to name.
    var keepsErrorOutput = false
    /// Whether its request's preamble asked it to prepare for the whole file (`prepare whole-file`).
    var preparesWholeFile = false
    let pid: pid_t
    private let socket: Int32
    private var finished = false
    /// Bytes read after the last whole reply line.
    private var pending: [UInt8] = []

    /// How one batch of a kept worker ended.
    enum BatchEnding: Equatable {
        /// Its last reply line came; the worker waits for the next batch.
        case answered
        /// The worker ended before (it is reaped).
        case ended(Ending)
    }

    /// Starts `executable` with a socket pair as its standard input and output.
    init(executable: String) throws(TypeLoweringError) {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw .workerUnavailable(path: executable, reason: "socketpair: \(String(cString: strerror(errno)))")
        }
        let ours = sockets[0]
        let theirs = sockets[1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, theirs, 0)
        posix_spawn_file_actions_adddup2(&actions, theirs, 1)
        let errorOutput = Self.makeErrorOutputFile()
        if let errorOutput {
            posix_spawn_file_actions_adddup2(&actions, errorOutput.descriptor, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        defer { if let errorOutput { close(errorOutput.descriptor) } }
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        defer { for argument in argv { free(argument) } }
        // A worker file written moments ago is "busy" (ETXTBSY) while any process forked in the
        // meantime still holds the writer's inherited descriptor; that lasts only until its exec,
        // so a few short retries start the worker instead of calling it unable to run.
        var status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        var busyRetries = 0
        while status == ETXTBSY && busyRetries < 50 {
            busyRetries += 1
            usleep(20_000)
            status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        }
        close(theirs)
        guard status == 0 else {
            close(ours)
            if let errorOutput { unlink(errorOutput.path) }
            throw .workerUnavailable(path: executable, reason: String(cString: strerror(status)))
        }
        self.errorOutputPath = errorOutput?.path
        self.executable = executable
        self.pid = pid
        self.socket = ours
    }

    /// Writes `text` to the worker's standard input (a worker that died just stops listening).
    func send(_ text: String) {
        Self.send(text, to: socket)
    }

    /// Closes the worker's standard input, feeds each reply line to `onLine`, and reaps the worker.
    ///
    /// - Parameter silenceLimit: seconds without a reply line after which the worker is killed.
    mutating func finish(silenceLimit: Double, onLine: (String) throws(TypeLoweringError) -> Void) throws(TypeLoweringError) -> Ending {
        finished = true
        defer { close(socket) }
        shutdown(socket, Int32(SHUT_WR))
        var ending: Ending?
        do {
            _ = try readLines(silenceLimit: silenceLimit) { line throws(TypeLoweringError) -> Bool in
                try onLine(line)
                return false
            }
        } catch is TimedOut {
            kill(pid, SIGKILL)
            ending = .timedOut
        } catch let error as TypeLoweringError {
            kill(pid, SIGKILL)
            reap()
            throw error
        } catch {
            kill(pid, SIGKILL)
        }
        let waited = reap()
        if !keepsErrorOutput { discardErrorOutput() }
        if let ending { return ending }
        // WIFSIGNALED / WEXITSTATUS, spelled out (the C macros do not import).
        let signal = waited & 0x7F
        return signal != 0 ? .signalled(signal) : .exited((waited >> 8) & 0xFF)
    }

    /// Feeds the reply lines of one batch to `onLine` until it returns true (the batch's last
    /// line), leaving the worker running for the next batch; or until the worker ends (then
    /// reaped) or falls silent for `silenceLimit` seconds (then killed and reaped).
    ///
    /// - Throws: what `onLine` throws, and a line longer than the format allows; the worker is
    ///   killed and reaped first.
    mutating func readBatch(silenceLimit: Double, onLine: (String) throws(TypeLoweringError) -> Bool) throws(TypeLoweringError)
        -> BatchEnding
    {
        var ending: Ending?
        do {
            if try readLines(silenceLimit: silenceLimit, onLine: onLine) { return .answered }
        } catch is TimedOut {
            kill(pid, SIGKILL)
            ending = .timedOut
        } catch let error as TypeLoweringError {
            finished = true
            kill(pid, SIGKILL)
            close(socket)
            reap()
            throw error
        } catch {
            kill(pid, SIGKILL)
        }
        finished = true
        close(socket)
        let waited = reap()
        if !keepsErrorOutput { discardErrorOutput() }
        if let ending { return .ended(ending) }
        let signal = waited & 0x7F
        return .ended(signal != 0 ? .signalled(signal) : .exited((waited >> 8) & 0xFF))
    }

    /// Ends a worker kept between batches: closes its standard input (it exits at the end of its
    /// input), waits up to `waitLimit` seconds for its output to end, kills it if it has not,
    /// reaps it and removes its error output unless `keepingErrorOutput`.
    mutating func end(waitLimit: Double, keepingErrorOutput: Bool = false) {
        guard !finished else { return }
        finished = true
        shutdown(socket, Int32(SHUT_WR))
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        var chunk = [UInt8](repeating: 0, count: 4096)
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var ended = false
        while !ended {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            let remaining = Int32(max(0, (waitLimit - elapsed) * 1000))
            let ready = poll(&descriptor, 1, remaining)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            // Anything it still writes is not wanted; the end of its output is its exit.
            let count = try? chunk.withUnsafeMutableBytes { try FileDescriptor(rawValue: socket).read(into: $0) }
            ended = (count ?? 0) <= 0
        }
        if !ended { kill(pid, SIGKILL) }
        close(socket)
        reap()
        if !keepingErrorOutput { discardErrorOutput() }
    }

    /// Whether a worker kept between batches has ended or written without being asked (its
    /// output is readable or closed): it cannot be given the next batch.
    func hasEndedOrSpoken() -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, 0)
            if ready < 0, errno == EINTR { continue }
            return ready != 0
        }
    }

    /// Kills and reaps a worker whose replies are no longer wanted.
    mutating func abandon() {
        guard !finished else { return }
        finished = true
        kill(pid, SIGKILL)
        close(socket)
        reap()
        discardErrorOutput()
    }

    /// The error output file's path when the worker wrote to it (the file is kept), or nil (it
    /// is removed).
    mutating func keptErrorOutput() -> String? {
        guard let path = errorOutputPath else { return nil }
        var status = stat()
        if stat(path, &status) == 0, status.st_size > 0 { return path }
        discardErrorOutput()
        return nil
    }

    /// Removes the error output file, unless it is `kept` (the path a message names).
    mutating func discardErrorOutputUnless(_ kept: String?) {
        if kept == nil { discardErrorOutput() }
    }

    /// Removes the error output file.
    mutating func discardErrorOutput() {
        if let path = errorOutputPath { unlink(path) }
        errorOutputPath = nil
    }

    /// A new file for a worker's standard error, in `$TMPDIR` (or /tmp), open for writing.
    private static func makeErrorOutputFile() -> (path: String, descriptor: Int32)? {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/typeinfo-lowering-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        // Not inherited by other children (the worker gets it through its dup2, which clears this).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return (template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, descriptor)
    }

    @discardableResult
    private func reap() -> Int32 {
        var waited: Int32 = 0
        while waitpid(pid, &waited, 0) < 0 && errno == EINTR {}
        return waited
    }

    /// Runs `executable` with `input` on standard input, feeding each reply line to `onLine`.
    static func run(executable: String, input: String, silenceLimit: Double, onLine: (String) throws(TypeLoweringError) -> Void)
        throws(TypeLoweringError) -> Ending
    {
        var process = try WorkerProcess(executable: executable)
        process.send(input)
        return try process.finish(silenceLimit: silenceLimit, onLine: onLine)
    }

    private struct TimedOut: Error {}

    private static func send(_ text: String, to socket: Int32) {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Glibc.send(socket, base + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                return  // the worker is gone; its ending says why
            }
            sent += count
        }
    }

    /// Feeds each reply line to `onLine` until it returns true (then true: the bytes after that
    /// line are kept for the next call) or the worker's output ends (then false).
    private mutating func readLines(silenceLimit: Double, onLine: (String) throws(TypeLoweringError) -> Bool) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let timeout = Int32(min(silenceLimit * 1000, Double(Int32.max)))
        var silentFor = 0.0
        var cpuTicks = WorkerCPUTime.ticks(of: pid)
        while true {
            var start = 0
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[start..<newline], as: UTF8.self)
                start = newline + 1
                if try onLine(line) {
                    pending.removeFirst(start)
                    return true
                }
            }
            pending.removeFirst(start)
            if pending.count > LoweringWire.maximumLineLength {
                throw TypeLoweringError.protocolViolation(detail: "reply line longer than \(LoweringWire.maximumLineLength) bytes")
            }
            let ready = poll(&descriptor, 1, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if ready == 0 {
                // Silent for a whole limit: still working if it used CPU meanwhile.
                silentFor += silenceLimit
                let now = WorkerCPUTime.ticks(of: pid)
                guard let before = cpuTicks, let now, now > before, silentFor < silenceLimit * WorkerCPUTime.busySilenceFactor else {
                    throw TimedOut()
                }
                cpuTicks = now
                continue
            }
            silentFor = 0
            cpuTicks = WorkerCPUTime.ticks(of: pid)
            // A read error is a worker that has gone; its ending says why.
            guard let count = try? chunk.withUnsafeMutableBytes({ try FileDescriptor(rawValue: socket).read(into: $0) }), count > 0
            else { return false }
            pending.append(contentsOf: chunk[0..<count])
        }
    }
}
