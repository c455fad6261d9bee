#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why the kernel refuses to let this process read another, in words that say what to do.
///
/// Linux lets a process read another's memory when it may `ptrace` it: the same user (and the
/// target not made undumpable), or `CAP_SYS_PTRACE`; Yama's `kernel.yama.ptrace_scope` narrows it
/// further (1: only descendants, 2: only with `CAP_SYS_PTRACE`, 3: never).
enum ProcessAccess {
    /// `CAP_SYS_PTRACE`'s bit in the capability sets of `/proc/PID/status`.
    private static let systemTraceCapability: UInt64 = 1 << 19

    static func denialReason(processID: Int32) -> String {
        let scope = text(of: "/proc/sys/kernel/yama/ptrace_scope").flatMap { Int($0.filter { !$0.isWhitespace }) }
        let privileged =
            statusField("CapEff", of: "self").flatMap { UInt64($0, radix: 16) }.map { $0 & systemTraceCapability != 0 } ?? false
        let ownUser = geteuid()
        let targetUser = statusField("Uid", of: "\(processID)").flatMap { $0.split(separator: "\t").first.flatMap { UInt32($0) } }
        if scope == 3 {
            return "kernel.yama.ptrace_scope is 3, which lets no process read another's memory until the machine restarts"
        }
        if !privileged, let targetUser, targetUser != ownUser {
            return
                "the process belongs to user \(targetUser) and typeinfo runs as user \(ownUser); run it as that user, or as root (CAP_SYS_PTRACE)"
        }
        if !privileged, scope == 2 {
            return
                "kernel.yama.ptrace_scope is 2, which lets only processes with CAP_SYS_PTRACE read another's memory; run typeinfo as root"
        }
        if !privileged, scope == 1 {
            return
                "kernel.yama.ptrace_scope is 1, which lets a process read only its own descendants; run typeinfo as root (CAP_SYS_PTRACE), or set the sysctl to 0"
        }
        return
            "the kernel refused to let typeinfo read the process (it may have made itself undumpable, or run a setuid program); run typeinfo as root (CAP_SYS_PTRACE)"
    }

    /// The process tracing `processID` (a debugger), or nil when none does.
    static func tracer(of processID: Int32) -> Int32? {
        statusField("TracerPid", of: "\(processID)").flatMap { Int32($0) }.flatMap { $0 == 0 ? nil : $0 }
    }

    /// The command name of `processID` (`/proc/PID/comm`).
    static func command(of processID: Int32) -> String? {
        text(of: "/proc/\(processID)/comm").map { String($0.prefix { $0 != "\n" }) }
    }

    /// The value of `field:` in `/proc/<process>/status`, without the tab after the colon.
    private static func statusField(_ field: String, of process: String) -> String? {
        text(of: "/proc/\(process)/status")?.split(separator: "\n").first { $0.hasPrefix(field + ":") }
            .map { String($0.dropFirst(field.count + 1).drop { $0 == "\t" || $0 == " " }) }
    }

    private static func text(of path: String) -> String? {
        guard let bytes = try? ImageLoader.readFile(path) else { return nil }
        return bytes.text
    }
}
