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

            Cache lines (--cacheline, default 64 bytes) are counted from the start of the value \
            or object, as pahole does: a `cache line N starts` row marks each boundary, and a \
            last line says how many lines the type touches and which fields straddle one. \
            --sizes prints one line per type instead (size, stride, holes, wasted bytes, cache \
            lines), sorted by waste: where a module's memory goes. --expand N opens fields whose \
            type is a known struct, tuple or union, N levels deep, like pahole -E.

            Facts the binary does not hold are shown as unknown, never guessed. A field's \
            alignment (needed for the suggestion) comes from the file: the layout the binary's \
            metadata, the toolchain's type lowering or DWARF gives the field's type; the suggestion \
            is made only when those alignments reproduce the observed offsets exactly.

            Examples:
              typeinfo layout .build/debug/MyApp --type MyApp.Packet
              typeinfo layout libWire.so --type Wire.Header --format svg > header.svg
              typeinfo layout libFoundationEssentials.so | tail -1
              typeinfo layout libFoundationEssentials.so --sizes | head -20
              typeinfo layout MyApp --type MyApp.Big --cacheline 128
              typeinfo layout MyApp --type MyApp.Packet --expand 2
              typeinfo layout MyApp --type 'MyApp.Wrapper<Swift.Int>'   (an instantiation the app uses)
              typeinfo layout MyApp --type '$s5MyApp7WrapperVySSG'       (any instantiation, mangled)
            """
    )

    @Argument(help: ArgumentHelp("The ELF file to read.", valueName: "binary"))
    var binary: String

    @Option(
        name: .customLong("type"),
        help: ArgumentHelp(
            "A type to show: exact qualified name, substring or /REGEX/. Repeatable.", valueName: "name"))
    var typeNames: [String] = []

    @Option(help: "Output format: text, json, or svg (one type).")
    var format: LayoutFormat = .text

    @Flag(name: .customLong("all"), help: "Also show types without holes or padding.")
    var includeTight = false

    @Option(
        name: .customLong("cacheline"),
        help: ArgumentHelp(
            "Cache-line size in bytes for the boundary markers and the cache-line count (0: none).", valueName: "bytes"))
    var cacheLine = 64

    @Option(
        name: .customLong("expand"),
        help: ArgumentHelp(
            "Show the fields of fields whose type is a known struct, tuple or union inline, indented, at absolute offsets, to this depth (like pahole -E; text only).",
            valueName: "depth"))
    var expandDepth = 0

    @Flag(
        name: .customLong("sizes"),
        help:
            "One line per type (size, stride, holes, wasted bytes, cache lines), like pahole --sizes; every type with a known size, enums too."
    )
    var sizesOnly = false

    @Option(name: .customLong("sort"), help: "With --sizes: waste (default), size or name.")
    var order: LayoutSizes.Order = .waste

    // The report has no colour yet; the flag is taken so that every text command accepts it.
    @OptionGroup var color: ColorOption

    @OptionGroup var reading: ReadOptions

    func validate() throws {
        guard (0...(1 << 20)).contains(cacheLine) else {
            throw LayoutInput.fail("--cacheline \(cacheLine): give a size in bytes from 1 to 1048576, or 0 for no cache-line markers")
        }
        guard (0...64).contains(expandDepth) else {
            throw LayoutInput.fail("--expand \(expandDepth): give a depth from 0 (no expansion) to 64")
        }
        if expandDepth > 0, format != .text || sizesOnly {
            throw LayoutInput.fail(
                "--expand opens nested types in the text view; leave out --format \(format.rawValue)\(sizesOnly ? " and --sizes" : "")")
        }
    }

    func run() throws {
        let result: LayoutReadResult
        do {
            result = try BinaryLayoutReader.read(path: binary, typeNames: typeNames, options: reading.readOptions(printsNotes: false))
        } catch {
            throw LayoutInput.fail(error.description)
        }
        for warning in result.warnings { LayoutInput.note("warning: \(warning)") }
        let types = result.document.types
        let selected: [TypeLayout]
        if !typeNames.isEmpty {
            selected = types
        } else if sizesOnly {
            selected = types.filter { $0.kind != .class ? $0.size != nil : $0.instanceSize != nil }
        } else {
            // --all adds tight types and enums (shown with their enum layout, not counted in the total).
            selected = types.filter { [.struct, .class, .tuple, .union].contains($0.kind) || (includeTight && $0.kind == .enum) }
        }
        let alignments = result.alignments
        let analyses = selected.map { type in
            LayoutHoles(type, alignmentOf: alignments.alignment(of:), superclass: result.superclass(of: type))
        }
        let lineSize = cacheLine > 0 ? cacheLine : nil
        if sizesOnly {
            let sizes = LayoutSizes(
                Array(zip(selected, analyses)).map { (layout: $0.0, holes: $0.1) }, order: order,
                cacheLineSize: cacheLine > 0 ? cacheLine : 64)
            switch format {
            case .text: Console.write(sizes.textReport())
            case .json: Console.write(try sizes.jsonData())
            case .svg: throw LayoutInput.fail("--sizes prints text or json, not svg")
            }
            return
        }

        switch format {
        case .text:
            let explicit = !typeNames.isEmpty
            let expansion = expandDepth > 0 ? LayoutExpansion(depth: expandDepth, types: result.document.types + result.relatedTypes) : nil
            let text =
                explicit && analyses.count == 1
                ? analyses[0].textReport(cacheLineSize: lineSize, expansion: expansion)
                : LayoutHoles.textReport(analyses, includeTight: includeTight || explicit, cacheLineSize: lineSize, expansion: expansion)
            Console.write(text)
        case .json:
            Console.write(try LayoutHolesReport(analyses, image: binary).jsonData())
        case .svg:
            guard analyses.count == 1, let only = analyses.first else {
                let names = selected.prefix(10).map { "  " + $0.name }.joined(separator: "\n")
                let more = selected.count > 10 ? "\n  ... and \(selected.count - 10) more" : ""
                throw LayoutInput.fail(
                    selected.isEmpty
                        ? "--format svg draws one type: give it with --type NAME"
                        : "--format svg draws one type, but \(selected.count) match; pick one with --type:\n\(names)\(more)")
            }
            Console.write(only.svg(LayoutSVGRenderer.Options(cacheLineSize: lineSize)))
        }
    }
}

/// The output formats of `typeinfo layout`.
enum LayoutFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case svg
}

extension LayoutSizes.Order: ExpressibleByArgument {}
