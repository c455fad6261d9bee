import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// The target argument and options every command reading a live process or a core file shares
/// (`heap`, `object`, `tasks`; `dump` takes the target its own way, with the same access options).
struct TargetOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A process id, or a core file (gcore, systemd-coredump, the kernel's core dumps).", valueName: "pid|core"))
    var target: String

    @OptionGroup var access: TargetAccessOptions

    @OptionGroup var lowering: LoweringOptions

    func validate() throws {
        if TargetSpecifier(argument: target) == nil {
            throw ValidationError("'\(target)' is neither a process id nor a core file")
        }
    }

    /// A PID when the argument is all digits, else a core file's path.
    var specifier: TargetSpecifier {
        // validate() refused an argument that names neither.
        TargetSpecifier(argument: target) ?? .core(path: target)
    }

    var liveOptions: LiveTargetOptions { access.liveOptions(specifier, lowering: lowering) }
}

/// What every command reading a live process says of how it reads one, in its --help.
enum LiveHelp {
    static let reading =
        "The process is read, never written. Without --pause it keeps running, and the report says it was read while it ran; with --pause it is held still (ptrace stops) for the reading, the report says for how long, and it runs again afterwards whatever happens to typeinfo. A core file is read as it was when dumped; --image-path DIR names where its executable and libraries are when they have moved. Reading another process needs the same user (or root) and a Yama ptrace_scope that allows it; the error says what to change. A process that exits while it is read is one line: process PID: the process exited while it was being read."
}

/// How a live target is read: whether the process is stopped for it, and where moved image files are.
struct TargetAccessOptions: ParsableArguments {
    @Flag(
        help:
            "Hold the process still (ptrace stops; nothing is written) while it is read, for numbers from one instant; the report says how long. It runs again afterwards, also when typeinfo fails or is killed (the kernel ends a ptrace stop with its tracer); a process found stopped is left stopped. Without it the process keeps running and is only read."
    )
    var pause = false

    @OptionGroup var images: ImageSearchOptions

    var imageSearchPaths: [String] { images.imageSearchPaths }

    func liveOptions(_ target: TargetSpecifier, lowering: LoweringOptions) -> LiveTargetOptions {
        LiveTargetOptions(
            target: target, imageSearchPaths: imageSearchPaths, pauses: pause, remoteMirrorPath: lowering.remoteMirror,
            workerPath: lowering.worker)
    }
}

/// Where a target's image files are when they have moved: every command that reads a process or
/// a core takes it, whether or not it offers --pause.
struct ImageSearchOptions: ParsableArguments {
    @Option(
        name: .customLong("image-path"),
        help: ArgumentHelp(
            "A directory to look in for the target's executable and libraries when they are no longer where it loaded them from (matched by build id). Repeatable.",
            valueName: "dir"))
    var imageSearchPaths: [String] = []
}

/// The target argument and options of the commands that always hold a process still while they
/// read it (`leaks`): their answer needs one consistent instant, so --pause is not theirs to offer.
struct StoppedTargetOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A process id, or a core file (gcore, systemd-coredump, the kernel's core dumps).", valueName: "pid|core"))
    var target: String

    @OptionGroup var images: ImageSearchOptions

    @OptionGroup var lowering: LoweringOptions

    func validate() throws {
        if TargetSpecifier(argument: target) == nil {
            throw ValidationError("'\(target)' is neither a process id nor a core file")
        }
    }

    var liveOptions: LiveTargetOptions {
        // validate() refused an argument that names neither a process nor a core file.
        LiveTargetOptions(
            target: TargetSpecifier(argument: target) ?? .core(path: target), imageSearchPaths: images.imageSearchPaths, pauses: true,
            remoteMirrorPath: lowering.remoteMirror, workerPath: lowering.worker)
    }
}
