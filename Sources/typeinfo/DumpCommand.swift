import ArgumentParser
import BinaryInfo
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LayoutReading
import TypeLayout

/// `typeinfo dump`: every Swift type in ELF binaries, read from disk without running them.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "List every Swift type in ELF binaries, with sizes, fields and offsets, read from disk.",
        discussion: """
            Reads the Swift reflection sections (swift5_*) and the static metadata of executables, shared libraries and object files (.o) without running or loading them. With no PATH, dumps the typeinfo executable itself.

            With --type, --kind or --module, only the selected types (and the types their layouts need) are laid out, and DWARF is read only as far as the selection needs; the notes then describe the selected types and the file as a whole (notes about other types, and counts over all types, are left out).

            Sizes and offsets come from the binary's own static metadata. Where the file does not hold them (generic types, types the runtime lays out at load time), they print as `?` in text and null in JSON: never a guess. Superclass fields come first in a class, with offsets from the start of the object.

            Examples:
              typeinfo dump .build/debug/MyApp
              typeinfo dump libFoo.so --type Config --kind struct
              typeinfo dump libFoo.so --type '/^Foo\\..*Error$/' --format json
              typeinfo dump libFoundationEssentials.so --module FoundationEssentials
            """
    )

    @Argument(help: ArgumentHelp("ELF files to read (default: this typeinfo executable).", valueName: "path"))
    var paths: [String] = []

    @Option(help: "Output format: text (one block per type) or json (the schema in docs/json-schema.md).")
    var format: DumpFormat = .text

    @OptionGroup var names: TypePatternOption

    @Option(name: .customLong("kind"), help: ArgumentHelp("Only types of this kind. Repeatable.", valueName: "kind"))
    var kinds: [DumpKind] = []

    @Option(name: .customLong("module"), help: ArgumentHelp("Only types declared in this module. Repeatable.", valueName: "name"))
    var modules: [String] = []

    @OptionGroup var color: ColorOption

    @Flag(name: .customLong("mangled"), help: "Show each field's mangled type in the text output.")
    var showMangled = false

    @OptionGroup var reading: ReadOptions

    @Flag(
        name: .customLong("holes"),
        help:
            "After the types, show holes, padding and a better field order for each struct, class and tuple that has any (pahole's view; `typeinfo layout` has more)."
    )
    var showHoles = false

    mutating func validate() throws {
        if showHoles, format == .json {
            throw ValidationError("--holes is for the text output; for holes as JSON use `typeinfo layout PATH --format json`")
        }
        _ = try selection()
    }

    private func selection() throws -> TypeFilter {
        do {
            return try TypeFilter(typePatterns: names.typePatterns, kinds: kinds.map(\.typeKind), modules: modules)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let filter = try selection()
        let targets = paths.isEmpty ? [Self.ownExecutablePath()] : paths
        let options = reading.readOptions(printsNotes: true)
        var documents: [LayoutDocument] = []
        var holeReports: [String] = []
        var failed = false
        for path in targets {
            do {
                var result = try BinaryLayoutReader.read(path: path, selection: filter, options: options)
                result.document.image.notes += result.warnings
                documents.append(result.document)
                if showHoles {
                    let alignments = result.alignments
                    let analyses = result.document.types
                        .filter { [.struct, .class, .tuple, .union].contains($0.kind) }
                        .map { LayoutHoles($0, alignmentOf: alignments.alignment(of:), superclass: result.superclass(of: $0)) }
                    holeReports.append(LayoutHoles.textReport(analyses, includeTight: false))
                }
            } catch {
                Console.writeError("typeinfo: \(Self.message(for: error))\n")
                failed = true
            }
        }
        switch format {
        case .json:
            if documents.count == 1, targets.count == 1 {
                Console.write(try documents[0].jsonData())
            } else if !documents.isEmpty {
                Console.write(try DumpOutput.jsonArray(documents))
            }
        case .text:
            let renderer = LayoutTextRenderer(.init(color: color.usesColor, showMangledNames: showMangled))
            for (index, document) in documents.enumerated() {
                if index > 0 { Console.write("\n") }
                Console.write(renderer.render(document))
                if index < holeReports.count {
                    Console.write("\n# holes and padding\n\n" + holeReports[index])
                }
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// What dump says about a file it cannot read: a file without Swift metadata is "not Swift"
    /// (and, when its DWARF could not be read either, what is wrong with that too, as the error says).
    private static func message(for error: LayoutReadingError) -> String {
        switch error {
        case .unreadable(_, let reason): return reason.description
        case .noTypes(let path): return BinaryInfoError.notSwift(path: path).description
        default: return error.description
        }
    }

    /// The running executable, so `typeinfo dump` with no argument has something to show.
    static func ownExecutablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe"
    }
}

/// The output formats of `typeinfo dump`.
enum DumpFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// The kinds of declaration a binary holds, for `--kind`.
enum DumpKind: String, ExpressibleByArgument, CaseIterable {
    /// `foreignClass`: an imported CF type (`__C.CFArrayRef`), which the runtime gives foreign class metadata.
    case `struct`, `class`, `enum`, `protocol`, foreignClass

    var typeKind: TypeKind {
        switch self {
        case .struct: return .struct
        case .class: return .class
        case .enum: return .enum
        case .protocol: return .protocol
        case .foreignClass: return .foreignClass
        }
    }
}

// Other subcommands (snapshot, layout) take TypeKind options directly.
extension TypeKind: ExpressibleByArgument {}
