import ArgumentParser

/// The `typeinfo` command: see `typeinfo --help`.
@main
struct TypeInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeinfo",
        abstract: "Inspect Swift type layouts: in this process, or in ELF binaries on disk.",
        discussion: """
            Run with no arguments to see the toolkit at work: `typeinfo dump` on the typeinfo executable itself, every Swift type it contains with sizes and field offsets read from disk. `typeinfo inspect` shows the in-process view of a few demo types.
            """,
        version: "0.1.0",
        subcommands: [DumpCommand.self, InspectCommand.self, SnapshotCommand.self, CheckCommand.self, DiffCommand.self, LayoutCommand.self],
        defaultSubcommand: DumpCommand.self
    )
}
