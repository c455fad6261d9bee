import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo diff`: compare the layouts of two builds.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare the type layouts of two builds (binaries or snapshots); exit 1 when they differ.",
        discussion: """
            OLD and NEW are ELF files, snapshots written by `typeinfo snapshot`, or documents \
            written by `typeinfo dump --format json`, in any combination. The report is the one \
            `typeinfo check` prints: every change grouped by type, marked BREAKING or compatible.

            Exit status: 0 no differences, 1 differences (with --fail-on breaking: only \
            breaking ones count), 2 usage or input error. With --exit-status bits: 0, 4 only \
            compatible differences, 12 breaking ones, 2 error. --suppressions FILE accepts changes.

            Examples:
              typeinfo diff old/libWire.so new/libWire.so
              typeinfo diff layouts.json MyApp --type MyApp.Packet --format json
            """
    )

    // Optional so that a missing argument is reported by `run` with exit status 2.
    @Argument(help: ArgumentHelp("The older build: an ELF file or a snapshot.", valueName: "old"))
    var old: String?

    @Argument(help: ArgumentHelp("The newer build: an ELF file or a snapshot.", valueName: "new"))
    var new: String?

    @OptionGroup var report: DiffReportOptions

    // The report has no colour yet; the flag is taken so that every text command accepts it.
    @OptionGroup var color: ColorOption

    @OptionGroup var selection: LayoutSelectionOptions

    @OptionGroup var reading: ReadOptions

    func run() throws {
        guard let old, let new else {
            throw LayoutInput.fail("diff needs two builds: typeinfo diff OLD NEW")
        }
        // Read snapshots first: without filters of its own, diff selects types as a snapshot
        // recorded (the old side's, else the new side's), as check does.
        let oldSnapshot = LayoutInput.isJSON(old) ? try LayoutInput.readSnapshot(old) : nil
        let newSnapshot = LayoutInput.isJSON(new) ? try LayoutInput.readSnapshot(new) : nil
        let recorded = oldSnapshot?.selection ?? newSnapshot?.selection
        let chosen = selection.isEmpty ? (recorded ?? LayoutSnapshot.Selection()) : selection.stored
        let filter = try LayoutSelection(chosen)
        let before = try oldSnapshot.map { $0.filter(filter.matchesSnapshotType) } ?? Self.readBinary(old, filter: filter, reading: reading)
        let after = try newSnapshot.map { $0.filter(filter.matchesSnapshotType) } ?? Self.readBinary(new, filter: filter, reading: reading)
        let diff = try report.suppressions().apply(to: LayoutDiff(old: before, new: after))
        try report.finish(diff, title: "Comparing \(old) -> \(new)", old: old, new: new)
    }

    /// A binary is filtered with every option; a snapshot (above) with those it can answer,
    /// since it keeps no module names.
    private static func readBinary(_ path: String, filter: LayoutSelection, reading: ReadOptions) throws -> LayoutSnapshot {
        LayoutSnapshot(types: try LayoutInput.readBinary(path, selection: filter.binaryFilter, reading: reading).document.types)
    }
}
