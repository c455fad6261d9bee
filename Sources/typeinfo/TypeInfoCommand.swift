import ArgumentParser
import LayoutReading
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `typeinfo` command: see `typeinfo --help`.
@main
struct TypeInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeinfo",
        abstract: "Inspect Swift types and objects: in ELF binaries on disk, in running processes and core files, or in this process.",
        discussion: """
            Run with no arguments to see the toolkit at work: `typeinfo dump` on the typeinfo executable itself, every Swift type it contains with sizes and field offsets read from disk. `typeinfo inspect` shows the in-process view of a few demo types.

            A running process (its id) or a core file is read, never written: `heap` counts its live objects by type, `object` prints one object's fields, `tasks` lists its async tasks and actors, `dump --pid` its types and the generic instantiations it made. Each takes --pause (hold the process still while it is read), --image-path and --format json.

            Exit status: 0 success; 1 a check found changes (check, diff) or a file could not be read (dump); 2 a usage or input error.
            """,
        version: "0.1.0",
        subcommands: [
            DumpCommand.self, InspectCommand.self, SnapshotCommand.self, CheckCommand.self, DiffCommand.self, LayoutCommand.self,
            HeapCommand.self, LeaksCommand.self, RetainersCommand.self, ObjectCommand.self, TasksCommand.self,
        ],
        defaultSubcommand: DumpCommand.self
    )

    /// Runs the command; usage errors exit 2 (not the parser's 64), so `check` can promise
    /// 0 unchanged, 1 changed, 2 usage or input error.
    static func main() {
        // One command, then exit: what the readers would keep only for a long-running process
        // (libdwarf's allocation record) is not worth its cost here.
        BinaryLayoutReader.tuneForShortLivedProcess()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.writeError(fullMessage(for: error) + "\n")
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
