import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo tasks`: a live process's or a core file's async tasks and actors.
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks",
        abstract:
            "Show a running process's (or a core file's) async tasks and actors: where each task will resume, and what each actor is doing.",
        discussion: """
            Tasks are found on the heap by the concurrency runtime's task metadata, with the children of task groups and async let added from their parents; actors are the objects of actor classes. Each is read by the toolchain's libswiftRemoteMirror. By default tasks are grouped by state and by the function they will resume in, largest group first; --all lists every task and actor.

            A task is running (with the thread that runs it, and the actor it runs on), enqueued, suspended, or completed (a Task handle keeps it alive). Completion is read from the task's future fragment; where that cannot be read consistently (or the task is no future) the state is "suspended or completed". Threads are read with glibc's libthread_db; where it cannot answer, the report says why and running tasks have no thread. Only a libswiftRemoteMirror whose task and actor layouts typeinfo has verified is used (Swift 6.3.1's); with another, typeinfo refuses rather than misread a state.

            Examples:
              typeinfo tasks 4711
              typeinfo tasks 4711 --pause --all
              typeinfo tasks core.4711 --format json

            \(LiveHelp.reading)

            Exit status: 0 success, 2 the target could not be read, does not use Swift concurrency, or the reflection library is not a verified one.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @OptionGroup var color: ColorOption

    @Flag(help: "List every task and actor, not the summary.")
    var all = false

    @Option(help: "Output format: text or json (every task and actor).")
    var format: HeapFormat = .text

    func run() throws {
        let report: TaskReport
        do {
            report = try LiveTaskReader.report(targetOptions.liveOptions)
        } catch {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
        switch format {
        case .text: Console.write(report.text(all: all))
        case .json: Console.write(try report.jsonData())
        }
    }
}
