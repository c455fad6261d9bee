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

    @OptionGroup var lowering: LoweringOptions

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
            remoteMirrorPath: lowering.remoteMirror,
            workerPath: lowering.worker,
            wantsFileNotes: printsNotes,
            selectionReachesReaders: !eagerSelection,
            dwarfShortcuts: .init(
                readsSharedBytes: !dwarfFromFile, filtersUnits: !dwarfEveryUnit, readsUnitByUnit: !dwarfWholeTree,
                stopsOnceFound: !dwarfReadToEnd)
        )
    }
}
