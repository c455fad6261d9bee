import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo check`: compare a binary's layouts with a recorded snapshot.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a binary's type layouts against a snapshot; exit 1 when they changed.",
        discussion: """
            Compares the layouts of the binary's types with a snapshot written by \
            `typeinfo snapshot` (or a `typeinfo dump --format json` document) and prints every \
            change, grouped by type, each marked BREAKING or compatible: types added or removed; \
            size, alignment, stride or instance size changed; fields added, removed, moved, \
            retyped, resized, renamed or reordered; enum cases added, removed or renumbered; \
            superclass changed. docs/layout-checks.md explains how each change is classified.

            Types are selected as the snapshot recorded (its --type/--kind/--module filters) \
            unless filters are given here.

            Accepted changes are listed in a suppressions file (--suppressions FILE; \
            SNAPSHOT.suppressions beside a SNAPSHOT.json is read without being named): they are \
            shown with their reason and do not fail the check.

            Exit status: 0 nothing changed, 1 something changed (with --fail-on breaking: only \
            breaking changes count), 2 usage or input error. With --exit-status bits: 0 nothing \
            changed, 4 only compatible changes, 12 breaking changes, 2 usage or input error.

            Examples:
              typeinfo check libWire.so --against Tests/layouts.json
              typeinfo check MyApp --against layouts.json --format json --fail-on breaking
              typeinfo check MyApp --against layouts.json --format markdown >> "$GITHUB_STEP_SUMMARY"
              typeinfo check MyApp --against layouts.json --exit-status bits; [ $(( $? & 8 )) = 0 ]
            """
    )

    // Optional so that a missing argument is reported by `run` with exit status 2, as the
    // check's contract says, rather than by the parser with its own status.
    @Argument(help: ArgumentHelp("The ELF file to check.", valueName: "binary"))
    var binary: String?

    @Option(name: .customLong("against"), help: ArgumentHelp("The snapshot to compare with.", valueName: "snapshot"))
    var snapshotPath: String?

    @OptionGroup var report: DiffReportOptions

    // The report has no colour yet; the flag is taken so that every text command accepts it.
    @OptionGroup var color: ColorOption

    @OptionGroup var selection: LayoutSelectionOptions

    @OptionGroup var reading: ReadOptions

    func run() throws {
        guard let binary else {
            throw LayoutInput.fail("check needs BINARY: typeinfo check BINARY --against SNAPSHOT")
        }
        guard let snapshotPath else {
            throw LayoutInput.fail("check needs --against SNAPSHOT (a file written by `typeinfo snapshot`)")
        }
        var recorded = try LayoutInput.readSnapshot(snapshotPath)
        let chosen = selection.isEmpty ? (recorded.selection ?? LayoutSnapshot.Selection()) : selection.stored
        let filter = try LayoutSelection(chosen)
        let document = try LayoutInput.readBinary(binary, selection: filter.binaryFilter, reading: reading).document
        let current = LayoutSnapshot(types: document.types)
        if !selection.isEmpty {
            recorded = recorded.filter(filter.matchesSnapshotType)
        }
        let suppressions = try report.suppressions(beside: DiffReportOptions.suppressionsPath(besideSnapshot: snapshotPath))
        let diff = suppressions.apply(to: LayoutDiff(old: recorded, new: current))
        try report.finish(diff, title: "Checking \(binary) against \(snapshotPath)", old: snapshotPath, new: binary)
    }
}
