import ArgumentParser
import BinaryInfo
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLowering

/// The target argument and options every command reading a live process or a core file shares
/// (`heap`, `object`, `tasks`; `dump` takes the target its own way, with the same access options).
struct TargetOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A process id, or a core file (gcore, systemd-coredump, the kernel's core dumps).", valueName: "pid|core"))
    var target: String

    @OptionGroup var access: TargetAccessOptions

    @OptionGroup var lowering: LoweringOptions

    func validate() throws {
        if target.isEmpty || (target.allSatisfy(\.isNumber) && Int32(target) == nil) {
            throw ValidationError("'\(target)' is neither a process id nor a core file")
        }
    }

    /// A PID when the argument is all digits, else a core file's path.
    var specifier: TargetSpecifier {
        if target.allSatisfy(\.isNumber), let processID = Int32(target) { return .process(processID) }
        return .core(path: target)
    }

    var liveOptions: LiveTargetOptions { access.liveOptions(specifier, lowering: lowering) }
}

/// How a live target is read: whether the process is stopped for it, and where moved image files are.
struct TargetAccessOptions: ParsableArguments {
    @Flag(
        help:
            "Stop the process (SIGSTOP) while it is read, for numbers from one instant; it is resumed afterwards, also when typeinfo fails or is killed. Without it the process keeps running and is only read."
    )
    var pause = false

    @Option(
        name: .customLong("image-path"),
        help: ArgumentHelp(
            "A directory to look in for the target's executable and libraries when they are no longer where it loaded them from (matched by build id). Repeatable.",
            valueName: "dir"))
    var imageSearchPaths: [String] = []

    func liveOptions(_ target: TargetSpecifier, lowering: LoweringOptions) -> LiveTargetOptions {
        LiveTargetOptions(
            target: target, imageSearchPaths: imageSearchPaths, pauses: pause,
            lowering: .resolved(remoteMirrorPath: lowering.remoteMirror, workerPath: lowering.worker))
    }
}
