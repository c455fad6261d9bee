import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo heap`: a live process's or a core file's Swift objects, by dynamic type.
struct HeapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heap",
        abstract: "Count a running process's (or a core file's) Swift objects by type: jmap -histo for Swift.",
        discussion: """
            Walks every arena of the C library's allocator (the main heap, each thread's arena, mmapped chunks) and counts the live allocations whose first word is Swift class metadata, by the object's dynamic type, generic arguments included. Freed memory is never counted.

            bytes are the allocations' sizes (malloc_usable_size); instance is the size the class's metadata states (a ManagedBuffer or array storage is larger). The totals line counts the whole heap, whatever --type and --top keep.

            Leak hunting: save a census, wait, compare. --baseline lists each type's growth since the saved one, biggest first.

            --retained adds each type's retained bytes: what would become unreachable if every reference to one of its objects went away, added up over its objects that no other object of the type keeps reachable alone (the heap graph's dominator tree, pointers found conservatively as `typeinfo leaks` finds them). It stops the process while it reads the heap, as --pause does, and the report says for how long.

            Examples:
              typeinfo heap 4711
              typeinfo heap 4711 --top 20 --sort count
              typeinfo heap core.4711 --type MyApp.
              typeinfo heap 4711 --format json > before.json; sleep 600; typeinfo heap 4711 --baseline before.json
              typeinfo heap 4711 --retained --sort retained --top 10

            \(LiveHelp.reading)

            Exit status: 0 success, 2 the target could not be read, or the baseline is not a census typeinfo wrote.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @OptionGroup var color: ColorOption

    @OptionGroup var names: TypePatternOption

    @Option(help: ArgumentHelp("Show only the N largest types.", valueName: "n"))
    var top: Int?

    @Option(help: "Order types by bytes, count or retained (with --retained) (with --baseline: by their growth).")
    var sort: HeapCensus.Order = .bytes

    @Flag(
        help: "Also compute each type's retained bytes from the heap's dominator tree (stops the process while its heap is read).")
    var retained = false

    @Option(help: "Output format: text (a table, one type per line) or json (countDelta and bytesDelta with --baseline).")
    var format: HeapFormat = .text

    @Option(help: ArgumentHelp("List the addresses of the first N objects of each type shown (for `typeinfo object`).", valueName: "n"))
    var addresses = 0

    @Option(help: ArgumentHelp("A census saved earlier with --format json: show each type's growth since then.", valueName: "file"))
    var baseline: String?

    func validate() throws {
        if let top, top < 1 { throw ValidationError("--top must be at least 1") }
        if addresses < 0 { throw ValidationError("--addresses must be 0 or more") }
        if sort == .retained, !retained { throw ValidationError("--sort retained needs --retained") }
        if retained, baseline != nil {
            throw ValidationError("--retained and --baseline cannot be combined: a comparison states growth, not retained bytes")
        }
        do {
            _ = try TypeFilter(typePatterns: names.typePatterns)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let filter = try TypeFilter(typePatterns: names.typePatterns)
        // The baseline is read first: a wrong file should not cost a reading of the target.
        let earlier = try baseline.map { path throws -> HeapCensus in
            guard let data = FileManager.default.contents(atPath: path) else {
                Console.writeError("typeinfo: \(path): cannot read the baseline (no such file, or not readable)\n")
                throw ExitCode(2)
            }
            do {
                return try HeapCensus(jsonData: data)
            } catch {
                Console.writeError("typeinfo: \(path): \(error)\n")
                throw ExitCode(2)
            }
        }
        var census: HeapCensus
        do {
            census =
                try retained
                ? LiveRetainedReader.census(targetOptions.liveOptions, addressesPerType: addresses)
                : LiveHeapReader.census(targetOptions.liveOptions, addressesPerType: addresses)
        } catch {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
        if let earlier { census = census.compared(with: earlier) }
        census = census.selecting(where: filter.matches(name:), order: sort, limit: top)
        switch format {
        case .text: Console.write(census.text(baselineName: baseline))
        case .json: Console.write(try census.jsonData())
        }
    }
}

enum HeapFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// The formats of the commands that report holders (`leaks`, `retainers`): a picture too.
enum HolderFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, svg
}

extension HeapCensus.Order: ExpressibleByArgument {}
