import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading

/// The options every command that reads a binary shares: which sources to read, and where the
/// runtime libraries and the reflection library are.
struct ReadOptions: ParsableArguments {
    @Flag(name: .customLong("no-dwarf"), help: "Do not read DWARF: no C types, no check of the Swift metadata against DWARF.")
    var noDWARF = false

    @Option(
        name: .customLong("runtime-libraries"),
        help: ArgumentHelp(
            "The directory holding the Swift runtime libraries the binary was built against, searched after its RUNPATH (default: the toolchain this typeinfo runs on).",
            valueName: "dir"))
    var runtimeLibraryDirectory: String?

    @Option(
        name: .customLong("remote-mirror"),
        help: ArgumentHelp(
            "The libswiftRemoteMirror.so that computes layouts the static metadata lacks (default: $TYPEINFO_REMOTE_MIRROR, else the toolchain's).",
            valueName: "file"))
    var remoteMirrorPath: String?

    /// The reading options these flags describe, for a command that prints the document's notes
    /// (`dump`: the whole file is read and compared) or not (a selection then decides what is read).
    /// `TYPEINFO_COMPUTED_LAYOUTS=0` reads static metadata and DWARF only;
    /// `TYPEINFO_EAGER_SELECTION=1` reads every type and filters afterwards (Tools/bench-dump, tests).
    func readOptions(printsNotes: Bool) -> LayoutReadOptions {
        let environment = ProcessInfo.processInfo.environment
        return LayoutReadOptions(
            readsDWARF: !noDWARF,
            checksSwiftAgainstDWARF: printsNotes,
            computesLayouts: environment["TYPEINFO_COMPUTED_LAYOUTS"] != "0",
            runtimeLibraries: .resolved(toolchainDirectory: runtimeLibraryDirectory),
            remoteMirrorPath: remoteMirrorPath,
            wantsFileNotes: printsNotes,
            selectionReachesReaders: environment["TYPEINFO_EAGER_SELECTION"] != "1"
        )
    }
}
