import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
            lines), sorted by waste: where a module's memory goes.

            Facts the binary does not hold are shown as unknown, never guessed. A field's \
            alignment (needed for the suggestion) comes from the type's own layout in the binary, \
            or for standard library types from this typeinfo's runtime; the suggestion is made \
            only when those alignments reproduce the observed offsets exactly.

            Examples:
              typeinfo layout .build/debug/MyApp --type MyApp.Packet
              typeinfo layout libWire.so --type Wire.Header --format svg > header.svg
              typeinfo layout libFoundationEssentials.so | tail -1
              typeinfo layout libFoundationEssentials.so --sizes | head -20
              typeinfo layout MyApp --type MyApp.Big --cacheline 128
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

    @Option(name: .customLong("cacheline"), help: ArgumentHelp(
        "Cache-line size in bytes for the boundary markers and the cache-line count (0: none).", valueName: "bytes"))
    var cacheLine = 64

    @Flag(name: .customLong("sizes"), help: "One line per type (size, stride, holes, wasted bytes, cache lines), like pahole --sizes; every type with a known size, enums too.")
    var sizesOnly = false

    @Option(name: .customLong("sort"), help: "With --sizes: waste (default), size or name.")
    var order: LayoutSizes.Order = .waste

    func validate() throws {
        guard (0...(1 << 20)).contains(cacheLine) else {
            throw LayoutInput.fail("--cacheline \(cacheLine): give a size in bytes from 1 to 1048576, or 0 for no cache-line markers")
        }
    }

    func run() throws {
        let document = try LayoutInput.readBinary(binary)
        let selected = sizesOnly && typeNames.isEmpty
            ? document.types.filter { $0.kind != .class ? $0.size != nil : $0.instanceSize != nil }
            : try select(from: document.types, document: document)
        let alignments = Self.alignments(for: document)
        var byName: [String: TypeLayout] = [:]
        for type in document.types where byName[type.name] == nil { byName[type.name] = type }
        let analyses = selected.map { type in
            LayoutHoles(type, alignmentOf: alignments, superclass: type.superclass.flatMap { byName[$0] })
        }
        let lineSize = cacheLine > 0 ? cacheLine : nil
        if sizesOnly {
            let sizes = LayoutSizes(Array(zip(selected, analyses)).map { (layout: $0.0, holes: $0.1) }, order: order, cacheLineSize: cacheLine > 0 ? cacheLine : 64)
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
            let text = explicit && analyses.count == 1
                ? analyses[0].textReport(cacheLineSize: lineSize)
                : LayoutHoles.textReport(analyses, includeTight: includeTight || explicit, cacheLineSize: lineSize)
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
            Console.write(only.svg(LayoutSVGRenderer.Options(cacheLineSize: lineSize)))
        }
    }

    /// The types to analyse: exact names first, then substrings or regexes; without `--type`,
    /// every struct, class, tuple and union.
    private func select(from types: [TypeLayout], document: LayoutDocument) throws -> [TypeLayout] {
        guard !typeNames.isEmpty else {
            return types.filter { [.struct, .class, .tuple, .union].contains($0.kind) }
        }
        var chosen: [TypeLayout] = []
        for name in typeNames {
            var matches = types.filter { $0.name == name }
            if matches.isEmpty {
                let filter = try LayoutSelection(LayoutSnapshot.Selection(typePatterns: [name]))
                matches = types.filter(filter.matchesBinaryType)
            }
            if matches.isEmpty, name.hasPrefix("$s") || name.contains("<") || name.hasSuffix("?") {
                // An instantiation the file does not define but can lay out (`Module.Wrapper<Swift.Int>`).
                let (instantiation, reason) = ComputedLayoutReading.instantiation(named: name, path: binary, document: document)
                guard let instantiation else {
                    throw LayoutInput.fail("\(binary): cannot lay out '\(name)': \(reason)")
                }
                matches = [instantiation]
            }
            if matches.isEmpty {
                throw LayoutInput.fail("\(binary): no type matches '\(name)'; `typeinfo dump \(binary)` lists them")
            }
            chosen += matches.filter { match in !chosen.contains(match) }
        }
        return chosen
    }

    /// Field alignments: a type defined in the binary answers with its own layout; a standard
    /// library type (mangled `S...`/`s...`) with this process's runtime, whose standard library
    /// has the same layouts on the same architecture.
    static func alignments(for document: LayoutDocument) -> (FieldLayout) -> Int? {
        let table = LayoutAlignments(document.types)
        let sameArchitecture = document.image.architecture.map { $0 == hostArchitecture } ?? false
        return { field in
            if let known = table.alignment(of: field) { return known }
            guard sameArchitecture, let mangled = field.mangledType, isStandardLibrary(mangled),
                  let type = _typeByName(mangled) else { return nil }
            func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.alignment }
            return _openExistential(type, do: measure)
        }
    }

    /// Only printable, stdlib-rooted mangled names are handed to the runtime: no symbolic
    /// references (they are pointers relative to the string) and nothing from other modules.
    private static func isStandardLibrary(_ mangled: String) -> Bool {
        guard let first = mangled.utf8.first, first == UInt8(ascii: "S") || first == UInt8(ascii: "s") else { return false }
        // `So`/`SC` name imported C and Objective-C types, which are not the standard library's.
        if mangled.hasPrefix("So") || mangled.hasPrefix("SC") { return false }
        return mangled.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F }
    }

    private static var hostArchitecture: String {
        #if arch(x86_64)
        return "x86_64"
        #elseif arch(arm64)
        return "aarch64"
        #else
        return "unknown"
        #endif
    }
}

/// The output formats of `typeinfo layout`.
enum LayoutFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case svg
}

extension LayoutSizes.Order: ExpressibleByArgument {}
