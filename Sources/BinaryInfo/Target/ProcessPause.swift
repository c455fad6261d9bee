import CPtrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A process held still for a consistent reading, and running again whatever happens to the
/// reader.
///
/// Each thread is attached with `PTRACE_SEIZE` and stopped with `PTRACE_INTERRUPT` (the threads
/// of `/proc/PID/task`, listed again until no new one appears); ``resume()`` detaches them. A
/// ptrace stop belongs to the tracer: when typeinfo ends, however it ends (an error, `SIGKILL` to
/// its whole process group, the OOM killer), the kernel detaches its tracees and they run again.
/// It is not a job-control stop either, so a shell does not report the target `Stopped`. Only
/// the four requests `CPtrace` offers are made: the target's memory and registers are never
/// written. A process that was already stopped (every thread in state `T`) is left as it was.
public final class ProcessPause {
    /// The process held still.
    public let processID: Int32
    /// Whether this pause stopped the process (false when it was stopped already: it stays so).
    public let stoppedIt: Bool
    /// How long the process was held stopped by this pause, from the moment its last thread
    /// stopped until ``resume()`` (nil before that, and when the pause did not stop it).
    public private(set) var stopLength: Duration?
    /// The threads held, each with the signal it stopped to receive (delivered when it is let go).
    private var held: [pid_t: Int32] = [:]
    private var stoppedAt: ContinuousClock.Instant?
    private var resumed = false

    /// How long the process's threads get to stop.
    static let stopLimit: Duration = .seconds(5)

    /// Stops every thread of the process `processID`.
    ///
    /// - Throws: ``BinaryInfoError/noSuchProcess(path:)``,
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)`` when it may not be traced (another
    ///   tracer holds it, `ptrace_scope`, another user), ``BinaryInfoError/processExited(path:)``,
    ///   or ``BinaryInfoError/unsupported(path:detail:)`` when its threads did not stop in time.
    ///   Whatever is thrown, the process runs as before.
    public init(processID: Int32) throws(BinaryInfoError) {
        self.processID = processID
        let states = try Self.threadStates(processID: processID)
        if states.allSatisfy({ $0 == "T" || $0 == "t" }) {
            stoppedIt = false
            return
        }
        stoppedIt = true
        do {
            try holdEveryThread()
        } catch {
            release()
            throw error
        }
        stoppedAt = .now
    }

    /// Seizes and stops each thread not held yet, listing the threads again until a listing finds
    /// none new (a thread made while others were being stopped is found by the next listing; once
    /// all are stopped, none can make another).
    private func holdEveryThread() throws(BinaryInfoError) {
        let path = "process \(processID)"
        let deadline = ContinuousClock.now + Self.stopLimit
        while true {
            let threads: [(id: pid_t, state: Character)]
            do {
                threads = try Self.threads(processID: processID)
            } catch {
                throw .processExited(path: path)
            }
            // A zombie thread (a main thread that called pthread_exit) never stops: it runs nothing.
            let new = threads.filter { held[$0.id] == nil && $0.state != "Z" && $0.state != "X" }
            if new.isEmpty { return }
            for thread in new {
                guard typeinfo_ptrace_seize(thread.id) == 0 else {
                    let code = errno
                    if code == ESRCH { continue }  // it exited meanwhile
                    throw .processAccessDenied(path: path, reason: Self.refusal(processID: processID, code: code))
                }
                held[thread.id] = 0
                // Failing, it is exiting: waiting collects its exit.
                _ = typeinfo_ptrace_interrupt(thread.id)
            }
            for thread in new where held[thread.id] != nil {
                try waitForStop(of: thread.id, deadline: deadline)
            }
        }
    }

    /// Waits for the seized thread's stop: the interrupt's, or a signal's delivery stop (the
    /// signal is kept, delivered when the thread is let go). A thread that exits is forgotten.
    private func waitForStop(of thread: pid_t, deadline: ContinuousClock.Instant) throws(BinaryInfoError) {
        while true {
            var status: Int32 = 0
            let result = waitpid(thread, &status, __WALL | WNOHANG)
            if result < 0 {
                if errno == EINTR { continue }
                held[thread] = nil  // ECHILD: it is gone
                return
            }
            if result == thread {
                if Self.exited(status) {
                    held[thread] = nil
                    return
                }
                if status & 0xff == 0x7f {
                    let signal = (status >> 8) & 0xff
                    let event = status >> 16
                    // An interrupt's or a group stop's report carries the event; a signal's
                    // delivery stop does not, and the signal would be lost unless delivered later.
                    held[thread] = event == TYPEINFO_PTRACE_EVENT_STOP ? 0 : signal
                    return
                }
            }
            // The stop's report can be taken by another waiter of this process (a test harness
            // reaping its children): the thread's state says it is in a tracing stop all the same.
            // (A thread that exits meanwhile is a zombie until its exit is collected above:
            // a traced thread's exit is its tracer's to reap, or it stays until typeinfo ends.)
            let state = Self.state(processID: processID, thread: thread)
            if state == "t" { return }
            // A main thread that ended (pthread_exit) stays a zombie while other threads run,
            // and its end is reported only with the process's: it runs nothing to stop.
            if thread == processID, state == "Z" || state == "X" {
                _ = typeinfo_ptrace_detach(thread, 0)
                held[thread] = nil
                return
            }
            guard ContinuousClock.now < deadline else {
                throw .unsupported(
                    path: "process \(processID)",
                    detail:
                        "thread \(thread) did not stop within \(Self.stopLimit.components.seconds) s of PTRACE_INTERRUPT (it may be in an uninterruptible wait); it was let go (read it without --pause)"
                )
            }
            usleep(200)
        }
    }

    /// Lets the process run for a moment and stops it again: a stop can catch a thread inside the
    /// allocator, with a free list half changed, and a moment's running lets it finish. Nothing
    /// happens to a process that was stopped before this pause.
    public func letRunBriefly() throws(BinaryInfoError) {
        guard stoppedIt, !resumed else { return }
        for (thread, signal) in held {
            if typeinfo_ptrace_continue(thread, signal) != 0 { Self.collectExit(of: thread) }
            held[thread] = 0
        }
        usleep(5000)
        let running = Array(held.keys)
        do {
            for thread in running { _ = typeinfo_ptrace_interrupt(thread) }
            let deadline = ContinuousClock.now + Self.stopLimit
            for thread in running where held[thread] != nil { try waitForStop(of: thread, deadline: deadline) }
            try holdEveryThread()
        } catch {
            resume()
            throw error
        }
        if held.isEmpty {
            resume()
            throw .processExited(path: "process \(processID)")
        }
    }

    /// Every thread this pause holds, with its registers, in thread id order.
    ///
    /// - Throws: ``BinaryInfoError/threadRegistersUnreadable(path:thread:reason:)`` when the process was found stopped
    ///   (this pause holds none of its threads, so their registers cannot be asked for), or a
    ///   thread's registers could not be read.
    public func threads() throws(BinaryInfoError) -> [ThreadRegisters] {
        guard stoppedIt, !resumed else {
            throw .threadRegistersUnreadable(
                path: "process \(processID)", thread: nil,
                reason:
                    "it was stopped already (job control), and typeinfo leaves a stopped process as it is rather than hold it with ptrace; let it run (kill -CONT \(processID)) and run again, or read a core of it (gcore \(processID))"
            )
        }
        var threads: [ThreadRegisters] = []
        for thread in held.keys.sorted() { threads.append(try Self.registers(ofHeldThread: thread, processID: processID)) }
        return threads
    }

    /// Lets every thread go (when this pause stopped the process). Idempotent.
    public func resume() {
        guard !resumed else { return }
        resumed = true
        if let stoppedAt { stopLength = ContinuousClock.now - stoppedAt }
        release()
    }

    deinit { resume() }

    /// Forgets the held threads without letting them go: only for tests of what happens when the
    /// tracer ends without resuming (the kernel lets them go).
    func abandonForTesting() {
        resumed = true
        held = [:]
    }

    /// Detaches every held thread, delivering the signal each stopped to receive.
    private func release() {
        for (thread, signal) in held where typeinfo_ptrace_detach(thread, signal) != 0 { Self.collectExit(of: thread) }
        held = [:]
    }

    /// Reaps a held thread that could not be let go because it is exiting (SIGKILL): a traced
    /// thread's exit is its tracer's to collect, and until then the process cannot be reaped.
    /// Waits at most 100 ms (a thread that is not exiting is not waited for).
    private static func collectExit(of thread: pid_t) {
        for _ in 0..<100 {
            var status: Int32 = 0
            let result = waitpid(thread, &status, __WALL | WNOHANG)
            if result < 0 && errno != EINTR { return }
            if result == thread && exited(status) { return }
            usleep(1000)
        }
    }

    /// Whether a wait status reports an end (an exit or a fatal signal), not a stop.
    private static func exited(_ status: Int32) -> Bool {
        status & 0x7f != 0x7f
    }

    /// Why `PTRACE_SEIZE` failed with `code`, in words that say what to do.
    static func refusal(processID: Int32, code: Int32) -> String {
        guard code == EPERM else {
            return "--pause could not attach to it with ptrace (\(String(cString: strerror(code)))); read it without --pause"
        }
        if let tracer = ProcessAccess.tracer(of: processID), tracer != getpid() {
            let name = ProcessAccess.command(of: tracer).map { " (\($0))" } ?? ""
            return
                "it is already traced by process \(tracer)\(name), a debugger or tracer, and --pause stops it with ptrace, which allows one tracer at a time; detach that tracer, or read without --pause"
        }
        return "--pause stops it with ptrace, and " + ProcessAccess.denialReason(processID: processID)
    }

    /// The state letter (`R`, `S`, `T`, …) of each thread of the process.
    static func threadStates(processID: Int32) throws(BinaryInfoError) -> [Character] {
        try threads(processID: processID).map(\.state)
    }

    /// The state letter of one thread, nil when it is gone.
    static func state(processID: Int32, thread: pid_t) -> Character? {
        guard let stat = try? ImageLoader.readFile("/proc/\(processID)/task/\(thread)/stat") else { return nil }
        return state(inStat: stat.text)
    }

    /// The state letter in a `stat` file's text: it follows the parenthesised command, which may
    /// itself hold ") ".
    private static func state(inStat text: String) -> Character? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[close...].dropFirst(2).first
    }

    /// Each thread of the process, with its state letter.
    static func threads(processID: Int32) throws(BinaryInfoError) -> [(id: pid_t, state: Character)] {
        guard let directory = opendir("/proc/\(processID)/task") else { throw .noSuchProcess(path: "process \(processID)") }
        defer { closedir(directory) }
        var threads: [(id: pid_t, state: Character)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let id = pid_t(name), let stat = try? ImageLoader.readFile("/proc/\(processID)/task/\(name)/stat") else {
                continue
            }
            if let state = state(inStat: stat.text) { threads.append((id, state)) }
        }
        guard !threads.isEmpty else { throw .processExited(path: "process \(processID)") }
        return threads
    }
}
