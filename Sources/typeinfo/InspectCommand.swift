import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TypeInfo
import TypeLayout

/// `typeinfo inspect`: ClassInfo at work on types compiled into this executable.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the in-process ClassInfo of typeinfo's own demo types.",
        discussion: """
            Reads the demo types compiled into this executable through the TypeInfo library,
            exactly as `ClassInfo.of(T.self)` does in your own code: kind, size/alignment/stride,
            every stored property with its offset, type, var/let and ownership, enum cases.

            To read types from a binary on disk instead, use `typeinfo dump PATH`.

            Examples:
              typeinfo inspect
              typeinfo inspect --type Circle
              typeinfo inspect --format json
            """
    )

    @Option(help: "Output format: text (one block per type) or json (the schema in docs/json-schema.md).")
    var format: InspectFormat = .text

    @Option(name: .customLong("type"), help: ArgumentHelp("Only demo types whose name contains this text.", valueName: "pattern"))
    var typePattern: String?

    @OptionGroup var color: ColorOption

    func run() throws {
        let types = inspectDemoTypes.filter { type in
            typePattern.map { String(reflecting: type).lowercased().contains($0.lowercased()) } ?? true
        }
        guard !types.isEmpty else {
            let names = inspectDemoTypes.map { String(describing: $0) }.joined(separator: ", ")
            throw ValidationError("no demo type matches '\(typePattern ?? "")'; the demo types are \(names)")
        }
        let document = LayoutDocument(inProcess: types, processName: "typeinfo (this process)")
        switch format {
        case .json:
            Console.write(try document.jsonData())
        case .text:
            let renderer = LayoutTextRenderer(.init(color: color.usesColor))
            Console.write(renderer.render(document))
        }
    }
}

/// Output formats of `typeinfo inspect`.
enum InspectFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
