import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo snapshot`: record the layouts of a binary's types for later `typeinfo check`.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Record the layouts of a binary's types in a stable, diff-friendly JSON file.",
        discussion: """
            Writes each selected type's layout facts (size, alignment, stride, instance size for \
            classes, each field's name, offset, size and type, enum cases) sorted by name, one \
            field per line, so a layout change is a small, reviewable diff. Swift types come from \
            the binary's metadata; C types from its DWARF, when it has any. The format is \
            documented in docs/layout-checks.md.

            The --type/--kind/--module filters are stored in the snapshot, and `typeinfo check` \
            selects the same types from the binary unless it is given filters of its own.

            Examples:
              typeinfo snapshot libWire.so -o Tests/layouts.json --type Wire.
              typeinfo snapshot MyApp --type '/^MyApp\\.(Header|Packet)$/' > layouts.json
            """
    )

    @Argument(help: ArgumentHelp("The ELF file to read (executable, shared library or .o).", valueName: "binary"))
    var binary: String

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write the snapshot here instead of to standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var selection: LayoutSelectionOptions

    @OptionGroup var reading: ReadOptions

    func run() throws {
        let filter = try selection.filter()
        let document = try LayoutInput.readBinary(binary, selection: filter.binaryFilter, reading: reading).document
        var snapshot = LayoutSnapshot(types: document.types)
        snapshot.selection = selection.isEmpty ? nil : selection.stored
        let data = snapshot.jsonData()
        if let output {
            do {
                try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw LayoutInput.fail("\(output): cannot write the snapshot: \(Console.describe(fileError: error))")
            }
            LayoutInput.note("wrote \(snapshot.types.count) type layouts from \(binary) to \(output)")
        } else {
            Console.write(data)
        }
        if snapshot.types.isEmpty {
            LayoutInput.note("warning: no types matched; the snapshot is empty")
        }
    }
}

/// The `--type` option of `dump` and the layout commands: one declaration, one help text.
struct TypePatternOption: ParsableArguments {
    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(
            "Only types whose qualified name contains PATTERN; write /REGEX/ for a regular expression. Repeatable.",
            valueName: "pattern"))
    var typePatterns: [String] = []
}

/// The `--type`, `--kind` and `--module` options shared by the layout commands.
struct LayoutSelectionOptions: ParsableArguments {
    @OptionGroup var names: TypePatternOption
    var typePatterns: [String] { names.typePatterns }

    @Option(
        name: .customLong("kind"),
        help: ArgumentHelp("Only types of this kind: struct, class, enum, union, ... Repeatable.", valueName: "kind"))
    var kinds: [TypeKind] = []

    @Option(name: .customLong("module"), help: ArgumentHelp("Only types declared in this module. Repeatable.", valueName: "name"))
    var modules: [String] = []

    var isEmpty: Bool { typePatterns.isEmpty && kinds.isEmpty && modules.isEmpty }

    var stored: LayoutSnapshot.Selection {
        LayoutSnapshot.Selection(typePatterns: typePatterns, kinds: kinds, modules: modules)
    }

    /// The filter these options describe.
    func filter() throws -> LayoutSelection {
        try LayoutSelection(stored)
    }
}

/// A compiled type selection. Snapshots do not keep module names, so on the snapshot side
/// only the name and kind filters apply (the module filter was applied when it was taken).
struct LayoutSelection {
    let binaryFilter: TypeFilter
    let snapshotFilter: TypeFilter

    /// Compiles a selection; a `/regex/` that does not compile is an input error (exit 2).
    init(_ selection: LayoutSnapshot.Selection) throws {
        do {
            binaryFilter = try TypeFilter(selection)
            snapshotFilter = try TypeFilter(selection, ignoringModules: true)
        } catch {
            throw LayoutInput.fail(error.description)
        }
    }

    func matchesSnapshotType(_ type: TypeLayout) -> Bool { snapshotFilter.matches(type) }
}

/// Reading the inputs of the layout commands, with their errors (exit status 2).
enum LayoutInput {
    /// The exit status for usage and input errors.
    static let inputErrorStatus: Int32 = 2

    /// Prints `typeinfo: message` to standard error and returns the exit code to throw.
    static func fail(_ message: String) -> ExitCode {
        note(message)
        return ExitCode(inputErrorStatus)
    }

    /// Prints `typeinfo: message` to standard error.
    static func note(_ message: String) {
        Console.writeError("typeinfo: \(message)\n")
    }

    /// Reads the types of an ELF file that `filter` selects (Swift types with their computed
    /// layouts, C types from DWARF), printing a warning for a source that could not be used.
    ///
    /// DWARF's description of Swift types is not read: its member offsets are the compiler's
    /// synthesis, a second witness at best (`typeinfo dump` reports where the two disagree),
    /// never the source of a snapshot.
    static func readBinary(_ path: String, selection filter: TypeFilter = .all, reading: ReadOptions) throws -> LayoutReadResult {
        do {
            let result = try BinaryLayoutReader.read(path: path, selection: filter, options: reading.readOptions(printsNotes: false))
            for warning in result.warnings { note("warning: \(warning)") }
            return result
        } catch {
            throw fail(error.description)
        }
    }

    /// Reads a snapshot file (or a layout document).
    static func readSnapshot(_ path: String) throws -> LayoutSnapshot {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw fail("\(path): cannot read: \(Console.describe(fileError: error))")
        }
        do {
            return try LayoutSnapshot(jsonData: data)
        } catch let error as LayoutSnapshotError {
            throw fail("\(path): \(error)")
        }
    }

    /// Whether the file's first non-blank byte is `{`.
    static func isJSON(_ path: String) -> Bool {
        guard let head = Console.head(ofFile: path, count: 64) else { return false }
        return head.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == UInt8(ascii: "{")
    }
}
