#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Phase timestamps of a computed-layout reading, for finding where its wall-clock time goes:
/// with `TYPEINFO_LOWERING_TRACE=1`, typeinfo and its worker each print one line per phase to
/// standard error, `lowering-trace <process> <phase> <seconds>`, the seconds read from
/// `CLOCK_MONOTONIC`, which both processes (and a script that started them) share.
/// `Tools/trace-lowering` runs a reading several times and prints each phase's median.
///
/// Off (one environment lookup, then nothing) unless the variable is `1`.
public enum LoweringTrace {
    /// Whether tracing is on for this process.
    public static let isEnabled: Bool = {
        guard let value = getenv("TYPEINFO_LOWERING_TRACE") else { return false }
        return String(cString: value) == "1"
    }()

    /// Prints `phase` of `process` with the current monotonic time, when tracing is on.
    public static func mark(_ process: String, _ phase: String) {
        guard isEnabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = Int(now.tv_nsec) / 1000
        let fraction = String(microseconds)
        let padded = String(repeating: "0", count: max(0, 6 - fraction.count)) + fraction
        let line = "lowering-trace \(process) \(phase) \(now.tv_sec).\(padded)\n"
        // One write per line, so the two processes' lines do not interleave mid-line.
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// Marks `phase` of `process` when this process exits (after its output is written).
    public static func markAtExit(_ process: String, _ phase: String) {
        guard isEnabled else { return }
        exitMark.process = process
        exitMark.phase = phase
        atexit { LoweringTrace.mark(LoweringTrace.exitMark.process, LoweringTrace.exitMark.phase) }
    }

    /// What ``markAtExit(_:_:)`` prints; set once, before the exit handler can run.
    private final class ExitMark: @unchecked Sendable {
        var process = ""
        var phase = ""
    }
    private static let exitMark = ExitMark()
}
