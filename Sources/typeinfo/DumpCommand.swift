import ArgumentParser
import BinaryInfo
import DWARFInfo
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TypeLayout

/// `typeinfo dump`: every Swift type in ELF binaries, read from disk without running them.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "List every Swift type in ELF binaries, with sizes, fields and offsets, read from disk.",
        discussion: """
            Reads the Swift reflection sections (swift5_*) and the static metadata of executables, shared libraries and object files (.o) without running or loading them. With no PATH, dumps the typeinfo executable itself.

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

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "Only types whose qualified name contains PATTERN; write /REGEX/ for a regular expression. Repeatable.",
        valueName: "pattern"))
    var typePatterns: [String] = []

    @Option(name: .customLong("kind"), help: ArgumentHelp("Only types of this kind. Repeatable.", valueName: "kind"))
    var kinds: [DumpKind] = []

    @Option(name: .customLong("module"), help: ArgumentHelp("Only types declared in this module. Repeatable.", valueName: "name"))
    var modules: [String] = []

    @Flag(name: .customLong("no-color"), help: "Never colour the text output (colour is used only on a terminal).")
    var noColor = false

    @Flag(name: .customLong("mangled"), help: "Show each field's mangled type in the text output.")
    var showMangled = false

    @Flag(name: .customLong("no-dwarf"), help: "Do not read DWARF: no C types, no check of the Swift metadata against DWARF.")
    var noDWARF = false

    @Flag(name: .customLong("holes"), help: "After the types, show holes, padding and a better field order for each struct, class and tuple that has any (pahole's view; `typeinfo layout` has more).")
    var showHoles = false

    mutating func validate() throws {
        if showHoles, format == .json {
            throw ValidationError("--holes is for the text output; for holes as JSON use `typeinfo layout PATH --format json`")
        }
        _ = try DumpFilter(typePatterns: typePatterns, kinds: kinds.map(\.typeKind), modules: modules)
    }

    func run() throws {
        let filter = try DumpFilter(typePatterns: typePatterns, kinds: kinds.map(\.typeKind), modules: modules)
        let targets = paths.isEmpty ? [Self.ownExecutablePath()] : paths
        var documents: [LayoutDocument] = []
        var holeReports: [String] = []
        var failed = false
        for path in targets {
            do {
                var document = try Self.readImage(path, useDWARF: !noDWARF)
                let alignments = showHoles ? LayoutCommand.alignments(for: document) : { _ in nil }
                var byName: [String: TypeLayout] = [:]
                if showHoles {
                    for type in document.types where byName[type.name] == nil { byName[type.name] = type }
                }
                document.types = document.types.filter(filter.matches)
                documents.append(document)
                if showHoles {
                    let analyses = document.types
                        .filter { [.struct, .class, .tuple, .union].contains($0.kind) }
                        .map { LayoutHoles($0, alignmentOf: alignments, superclass: $0.superclass.flatMap { byName[$0] }) }
                    holeReports.append(LayoutHoles.textReport(analyses, includeTight: false))
                }
            } catch let error as BinaryInfoError {
                Console.writeError("typeinfo: \(path): \(error)\n")
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
            let color = !noColor && DumpOutput.standardOutputIsColorTerminal()
            let renderer = LayoutTextRenderer(.init(color: color, showMangledNames: showMangled))
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

    /// The Swift types of an image from its metadata, plus, when it has DWARF, its C and C++
    /// types and a note for every place where DWARF's description of a Swift type disagrees
    /// with the metadata (the metadata is what the runtime uses, so its numbers are kept).
    static func readImage(_ path: String, useDWARF: Bool) throws -> LayoutDocument {
        var document: LayoutDocument
        do {
            document = try ComputedLayoutReading.read(path)
        } catch BinaryInfoError.notSwift where useDWARF {
            // A C program or library: DWARF alone may still describe its types.
            guard let (cTypes, _) = try? DWARFReader(path: path).typeLayoutsByLanguage(), !cTypes.isEmpty else {
                throw BinaryInfoError.notSwift
            }
            var summary = ImageSummary(path: path, hasDebugInfo: true)
            summary.notes.append("no Swift metadata: the types below come from DWARF")
            return LayoutDocument(image: summary, types: cTypes)
        }
        guard useDWARF, document.image.hasDebugInfo != false else { return document }
        do {
            let (cTypes, swiftTypes) = try DWARFReader(path: path).typeLayoutsByLanguage()
            let known = Set(document.types.map(\.name))
            document.types += cTypes.filter { !known.contains($0.name) }
            let report = LayoutWitnessComparison.compare(metadata: document.types, dwarf: swiftTypes)
            // Plain `-g` describes Swift types without members: every field of such a type comes
            // back as "not in DWARF". One summary line says that; real disagreements are listed.
            let fieldCounts = Dictionary(document.types.map { ($0.name, $0.fields.count) }, uniquingKeysWith: { first, _ in first })
            let byType = Dictionary(grouping: report.disagreements, by: \.typeName)
            var memberless = 0
            for disagreement in report.disagreements {
                let all = byType[disagreement.typeName] ?? []
                let describedWithoutMembers = all.count == fieldCounts[disagreement.typeName]
                    && all.allSatisfy { $0.reason == .memberNotDescribed }
                if describedWithoutMembers {
                    if all.first == disagreement { memberless += 1 }
                    continue
                }
                document.image.notes.append("DWARF disagrees: \(disagreement)")
            }
            if memberless > 0 {
                document.image.notes.append(
                    "DWARF describes \(memberless) Swift types without their members (plain -g): build with -Xfrontend -gdwarf-types to check field offsets against DWARF too")
            }
        } catch .noDebugInfo {
            // Nothing to add.
        } catch {
            document.image.notes.append("DWARF not used: \(error)")
        }
        return document
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
    case `struct`, `class`, `enum`, `protocol`

    var typeKind: TypeKind {
        switch self {
        case .struct: return .struct
        case .class: return .class
        case .enum: return .enum
        case .protocol: return .protocol
        }
    }
}

// Other subcommands (snapshot, layout) take TypeKind options directly.
extension TypeKind: ExpressibleByArgument {}
