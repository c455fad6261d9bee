import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo layout`: pahole's view of a binary's types, as text, JSON or an SVG picture.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Show holes, padding and a better field order for a binary's types (like pahole).",
        discussion: """
            For each struct, class, tuple or C struct/union: every field with its offset and size, \
            `hole` rows where alignment leaves bytes unused, tail padding, the bytes wasted, and \
            the declaration order that would remove holes with the bytes it would save. Swift lays \
            out struct fields in declaration order, so reordering them is a change you can make.

            With --type, NAME is an exact qualified name, a substring, or /REGEX/. Without it, \
            every type that wastes bytes is shown, then the total across the binary (--all shows \
            tight types too). --format svg draws one type as a picture for a browser.

            Facts the binary does not hold are shown as unknown, never guessed. A field's \
            alignment (needed for the suggestion) comes from the file: the layout the binary's \
            metadata, the toolchain's type lowering or DWARF gives the field's type; the suggestion \
            is made only when those alignments reproduce the observed offsets exactly.

            Examples:
              typeinfo layout .build/debug/MyApp --type MyApp.Packet
              typeinfo layout libWire.so --type Wire.Header --format svg > header.svg
              typeinfo layout libFoundationEssentials.so | tail -1
              typeinfo layout MyApp --type 'MyApp.Wrapper<Swift.Int>'   (an instantiation the app uses)
              typeinfo layout MyApp --type '$s5MyApp7WrapperVySSG'       (any instantiation, mangled)
            """
    )

    @Argument(help: ArgumentHelp("The ELF file to read.", valueName: "binary"))
    var binary: String

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "A type to show: exact qualified name, substring or /REGEX/. Repeatable.", valueName: "name"))
    var typeNames: [String] = []

    @Option(help: "Output format: text, json, or svg (one type).")
    var format: LayoutFormat = .text

    @Flag(name: .customLong("all"), help: "Also show types without holes or padding.")
    var includeTight = false

    @OptionGroup var reading: ReadOptions

    func run() throws {
        let result: LayoutReadResult
        do {
            result = try BinaryLayoutReader.read(path: binary, typeNames: typeNames, options: reading.readOptions(printsNotes: false))
        } catch {
            throw LayoutInput.fail(error.description)
        }
        for warning in result.warnings { LayoutInput.note("warning: \(warning)") }
        let selected = typeNames.isEmpty
            ? result.document.types.filter { [.struct, .class, .tuple, .union].contains($0.kind) }
            : result.document.types
        let alignments = result.alignments
        let analyses = selected.map { type in
            LayoutHoles(type, alignmentOf: alignments.alignment(of:), superclass: result.superclass(of: type))
        }

        switch format {
        case .text:
            let explicit = !typeNames.isEmpty
            let text = explicit && analyses.count == 1
                ? analyses[0].textReport()
                : LayoutHoles.textReport(analyses, includeTight: includeTight || explicit)
            Console.write(text)
        case .json:
            Console.write(try LayoutHolesReport(analyses, image: binary).jsonData())
        case .svg:
            guard analyses.count == 1, let only = analyses.first else {
                let names = selected.prefix(10).map { "  " + $0.name }.joined(separator: "\n")
                let more = selected.count > 10 ? "\n  ... and \(selected.count - 10) more" : ""
                throw LayoutInput.fail(selected.isEmpty
                    ? "--format svg draws one type: give it with --type NAME"
                    : "--format svg draws one type, but \(selected.count) match; pick one with --type:\n\(names)\(more)")
            }
            Console.write(only.svg())
        }
    }
}

/// The output formats of `typeinfo layout`.
enum LayoutFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case svg
}
