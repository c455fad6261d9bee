import ArgumentParser
import LayoutReading
import TypeLayout

/// `typeinfo leaks`: the allocations of a process's (or a core file's) heap that nothing reaches.
struct LeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaks",
        abstract: "List the heap allocations of a process (or a core file) that no root reaches, by type: leaks for Swift on Linux.",
        discussion: """
            Marks every allocation of the C library's heap that can be reached from a root, and lists the others by type: Swift objects by their dynamic type, closure contexts and boxes, and other malloc'd memory by size. Each row counts the unreached allocations of that kind and their bytes (malloc_usable_size).

            Roots are the threads' registers and the writable memory outside the heap: each image's data and bss, the live part of each thread's stack (from its stack pointer up), thread-local storage and other mappings. Below a stack pointer and on the stacks glibc keeps of ended threads lies stale memory, which is left out. A word counts as a pointer when it points anywhere into an allocation (interior pointers count, as C code keeps them), so a word that only looks like a pointer keeps its allocation reached: a leak can be missed, and an allocation listed is one nothing the program holds points to. A Swift weak reference does not keep its object reached.

            A process is always stopped for the reading (ptrace; nothing is written): pointers that move while its memory is read could make a reachable allocation look leaked. The report says how long it was stopped; it runs again afterwards, also when typeinfo fails or is killed. A core file (gcore PID) is read as it was when dumped.

            Examples:
              typeinfo leaks 4711
              typeinfo leaks 4711 --addresses 3      (then: typeinfo object 4711 ADDRESS)
              typeinfo leaks core.4711 --format json
              typeinfo leaks 4711 --format svg > cycles.svg   (the retain cycles, for a browser)

            Reading another process needs the same user (or root) and a Yama ptrace_scope that allows ptrace; the error says what to change. --image-path DIR names where a core's executable and libraries are when they have moved.

            Exit status: 0 success (with or without leaks), 2 the target could not be read.
            """
    )

    @OptionGroup var target: StoppedTargetOptions

    @Option(help: "Output format: text (a table, one kind per line), json, or svg (the retain cycles as a picture).")
    var format: HolderFormat = .text

    @Option(help: ArgumentHelp("List the addresses of the first N allocations of each kind (for `typeinfo object`).", valueName: "n"))
    var addresses = 0

    func validate() throws {
        if addresses < 0 { throw ValidationError("--addresses must be 0 or more") }
    }

    func run() throws {
        let options = target.liveOptions
        let report: LeakReport
        do {
            report = try LiveLeakReader.leaks(options, addressesPerType: addresses)
        } catch {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
        switch format {
        case .text: Console.write(report.text)
        case .json: Console.write(try report.jsonData())
        case .svg: Console.write(report.cyclesSVG)
        }
    }
}
