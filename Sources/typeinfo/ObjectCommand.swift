import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo object`: one object of a live process or core file, with its fields' values.
struct ObjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "object",
        abstract: "Show one object of a running process (or a core file): its dynamic type and each stored property's value.",
        discussion: """
            ADDRESS is where the object starts (0x… or decimal). Values are read from the target's memory and typed by the toolchain's reflection library: integers, floating point and Bool; String contents (the first 4096 bytes); Optional and enum cases with their payloads; references as an address and a dynamic type; arrays as a count and their first 8 elements; structs and tuples field by field. What cannot be read prints as ? (null in JSON, with the reason beside it).

            Examples:
              typeinfo object 4711 0x55d0c1a2b3c0
              typeinfo object 4711 0x55d0c1a2b3c0 --depth 2 --format json
              typeinfo object core.4711 0x55d0c1a2b3c0

            \(LiveHelp.reading)

            Exit status: 0 success, 2 the target could not be read or holds no Swift object at ADDRESS.
            """
    )

    @OptionGroup var targetOptions: TargetOptions

    @Argument(help: ArgumentHelp("Where the object starts: 0x… or decimal.", valueName: "address"))
    var address: String

    @Option(
        help: ArgumentHelp(
            "Follow references this many levels (at most 64), showing the objects they lead to; each object once, at most 1000.",
            valueName: "n"))
    var depth = 0

    @OptionGroup var color: ColorOption

    @Option(help: "Output format: text (one line per property) or json.")
    var format: HeapFormat = .text

    func validate() throws {
        guard parsedAddress != nil else { throw ValidationError("'\(address)' is not an address: write 0x… or a decimal number") }
        guard (0...LiveObjectReader.maximumDepth).contains(depth) else {
            throw ValidationError(
                "--depth takes 0 to \(LiveObjectReader.maximumDepth): to follow a longer chain, run typeinfo object again on an object further down it"
            )
        }
    }

    private var parsedAddress: UInt64? {
        address.hasPrefix("0x") || address.hasPrefix("0X") ? UInt64(address.dropFirst(2), radix: 16) : UInt64(address)
    }

    func run() throws {
        let report: ObjectReport
        do {
            report = try LiveObjectReader.object(at: parsedAddress ?? 0, depth: depth, targetOptions.liveOptions)
        } catch {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
        switch format {
        case .text: Console.write(report.text())
        case .json: Console.write(try report.jsonData())
        }
    }
}
