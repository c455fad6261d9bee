import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the toolchain's reflection library and typeinfo's worker that runs it are: the options
/// every command that lays out types (`dump`, `layout`, `check`…) or reads a live target (`heap`,
/// `object`) shares.
struct LoweringOptions: ParsableArguments {
    @Option(
        name: .customLong("remote-mirror"),
        help: ArgumentHelp(
            "The libswiftRemoteMirror.so that computes layouts the static metadata lacks and reads live targets (default: $TYPEINFO_REMOTE_MIRROR, else the toolchain's).",
            valueName: "file"))
    var remoteMirrorPath: String?

    @Option(
        name: .customLong("lowering-worker"),
        help: ArgumentHelp(
            "The typeinfo-lowering executable that runs the reflection library (default: $TYPEINFO_LOWERING_WORKER, else the one beside typeinfo).",
            valueName: "file"))
    var workerPath: String?

    /// The library given, else its documented environment default.
    var remoteMirror: String? { remoteMirrorPath ?? Self.environmentDefault("TYPEINFO_REMOTE_MIRROR") }
    /// The worker given, else its documented environment default.
    var worker: String? { workerPath ?? Self.environmentDefault("TYPEINFO_LOWERING_WORKER") }

    /// The documented environment default of an option: the variable's value when set and not empty.
    private static func environmentDefault(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
