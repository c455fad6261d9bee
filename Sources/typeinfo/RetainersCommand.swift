import ArgumentParser
import LayoutReading
import TypeLayout

/// `typeinfo retainers`: what holds an object of a process's (or a core file's) heap.
struct RetainersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retainers",
        abstract: "Show what holds an object of a process's (or a core file's) heap: the shortest paths from roots to it.",
        discussion: """
            Marks the heap as `typeinfo leaks` does, recording which allocation points into which, and prints the shortest paths from a root to the allocation at ADDRESS, each through a different last holder (--paths N, default 3). Each step names the holder: a global by its symbol and image, a thread's stack, register or thread-local storage, a mapping, a Swift object by its dynamic type and the stored property that holds the next (structs and tuples descended; `unowned` said), array storage by element, a closure context or malloc'd block by offset. A weak reference is never a step. Words that only look like pointers count as holders, as in `leaks`.

            The shortest path from a global (else from thread-local storage or a mapping: roots that outlast a call) is always among the paths: a stack word's path is often shorter, and may be a stale copy. Each report states the bytes the object retains (itself and what only it holds).

            With --type T instead of an address: the shortest path from such a root of every object of dynamic type T (from a stack or register for objects only those hold), grouped by shape (the steps without addresses and element indices), most objects first, with the bytes each group retains.

            The process is stopped for the reading (ptrace; nothing is written), and the report says for how long. A core file (gcore PID) is read as it was when dumped.

            Examples:
              typeinfo retainers 4711 0x5555555a1230
              typeinfo retainers 4711 0x5555555a1230 --paths 5 --format json
              typeinfo retainers core.4711 --type MyApp.Session
              typeinfo retainers 4711 0x5555555a1230 --format svg > paths.svg

            Exit status: 0 success (also when no root reaches the object), 2 the target could not be read or no allocation starts at ADDRESS.
            """
    )

    @OptionGroup var target: StoppedTargetOptions

    @Argument(
        help: ArgumentHelp(
            "The start address of an allocation (hexadecimal, 0x…), as `heap --addresses` or `leaks --addresses` list them.",
            valueName: "address"))
    var address: String?

    @Option(help: ArgumentHelp("Instead of an address: every object of this dynamic type, its paths grouped by shape.", valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("How many paths to show, each through a different last holder.", valueName: "n"))
    var paths = 3

    @Option(help: "Output format: text, json, or svg (the paths as a picture).")
    var format: HolderFormat = .text

    func validate() throws {
        switch (address, type) {
        case (nil, nil): throw ValidationError("give an allocation's address, or --type T")
        case (_?, _?): throw ValidationError("give an allocation's address or --type T, not both")
        case (let text?, nil) where Self.parse(text) == nil: throw ValidationError("'\(text)' is not a hexadecimal address (0x…)")
        default: break
        }
        if paths < 1 { throw ValidationError("--paths must be 1 or more") }
    }

    static func parse(_ text: String) -> UInt64? {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
        return digits.isEmpty ? nil : UInt64(digits, radix: 16)
    }

    func run() throws {
        let options = target.liveOptions
        do {
            if let type {
                let shapes = try LiveRetainerReader.retainers(options, type: type)
                switch format {
                case .text: Console.write(shapes.text)
                case .json: Console.write(try shapes.jsonData())
                case .svg: Console.write(shapes.svg)
                }
            } else {
                let report = try LiveRetainerReader.retainers(options, address: address.flatMap(Self.parse) ?? 0, paths: paths)
                switch format {
                case .text: Console.write(report.text)
                case .json: Console.write(try report.jsonData())
                case .svg: Console.write(report.svg)
                }
            }
        } catch let error as LiveReadingError {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
    }
}
