import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading

/// The options every command that reads a binary shares: which sources to read, where the
/// runtime libraries, the reflection library and the lowering worker are, and (hidden, for tests
/// and benchmarks) the switches that turn the readers' shortcuts off.
struct ReadOptions: ParsableArguments {
    @Flag(name: .customLong("no-dwarf"), help: "Do not read DWARF: no C types, no check of the Swift metadata against DWARF.")
    var noDWARF = false

    @Flag(
        name: .customLong("no-computed-layouts"),
        help: "Do not compute layouts with the toolchain's type lowering: static metadata and DWARF only (for comparison).")
    var noComputedLayouts = false

    @Option(
        name: .customLong("runtime-libraries"),
        help: ArgumentHelp(
            "The directory holding the Swift runtime libraries the binary was built against, searched after its RUNPATH; its libswiftCore.so gives the sizes of types that reuse the runtime's value witness tables (default: the toolchain this typeinfo runs on).",
            valueName: "dir"))
    var runtimeLibraryDirectory: String?

    @Option(
        name: .customLong("remote-mirror"),
        help: ArgumentHelp(
            "The libswiftRemoteMirror.so that computes layouts the static metadata lacks (default: $TYPEINFO_REMOTE_MIRROR, else the toolchain's).",
            valueName: "file"))
    var remoteMirrorPath: String?

    @Option(
        name: .customLong("lowering-worker"),
        help: ArgumentHelp(
            "The typeinfo-lowering executable that runs the type lowering (default: $TYPEINFO_LOWERING_WORKER, else the one beside typeinfo).",
            valueName: "file"))
    var workerPath: String?

    @Flag(
        name: .customLong("eager-selection"),
        help: ArgumentHelp("Read every type and apply --type/--kind/--module afterwards (the output must not change).", visibility: .hidden)
    )
    var eagerSelection = false

    @Flag(
        name: .customLong("dwarf-every-unit"),
        help: ArgumentHelp("Read every DWARF Swift unit for a selection, not only those that can hold it.", visibility: .hidden))
    var dwarfEveryUnit = false

    @Flag(
        name: .customLong("dwarf-read-to-end"),
        help: ArgumentHelp("Read DWARF to the last unit, not only to the unit that gives the last wanted type.", visibility: .hidden))
    var dwarfReadToEnd = false

    @Flag(
        name: .customLong("dwarf-whole-tree"),
        help: ArgumentHelp("Keep every DWARF entry until the layouts are made, not one unit's at a time.", visibility: .hidden))
    var dwarfWholeTree = false

    @Flag(
        name: .customLong("dwarf-from-file"),
        help: ArgumentHelp("Let libdwarf open the file itself instead of reading the bytes already mapped.", visibility: .hidden))
    var dwarfFromFile = false

    /// The reading options these flags describe, for a command that prints the document's notes
    /// (`dump`: the whole file is read and compared) or not (a selection then decides what is read).
    func readOptions(printsNotes: Bool) -> LayoutReadOptions {
        LayoutReadOptions(
            readsDWARF: !noDWARF,
            checksSwiftAgainstDWARF: printsNotes,
            computesLayouts: !noComputedLayouts,
            runtimeLibraries: .resolved(toolchainDirectory: runtimeLibraryDirectory),
            remoteMirrorPath: remoteMirrorPath ?? Self.environmentDefault("TYPEINFO_REMOTE_MIRROR"),
            workerPath: workerPath ?? Self.environmentDefault("TYPEINFO_LOWERING_WORKER"),
            wantsFileNotes: printsNotes,
            selectionReachesReaders: !eagerSelection,
            dwarfShortcuts: .init(
                readsSharedBytes: !dwarfFromFile, filtersUnits: !dwarfEveryUnit, readsUnitByUnit: !dwarfWholeTree,
                stopsOnceFound: !dwarfReadToEnd)
        )
    }

    /// The documented environment default of an option: the variable's value when set and not empty.
    private static func environmentDefault(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
