import ArgumentParser
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
        abstract:
            "List every Swift type in ELF binaries, with sizes, fields and offsets, read from disk; or in a running process or a core file, with the generic instantiations it made.",
        discussion: """
            Reads the Swift reflection sections (swift5_*) and the static metadata of executables, shared libraries and object files (.o) without running or loading them. With no PATH, dumps the typeinfo executable itself.

            With --type, --kind or --module, only the selected types (and the types their layouts need) are laid out, and DWARF is read only as far as the selection needs; the notes then describe the selected types and the file as a whole (notes about other types, and counts over all types, are left out).

            Sizes and offsets come from the binary's own static metadata. Where the file does not hold them (generic types, types the runtime lays out at load time), they print as `?` in text and null in JSON: never a guess. Superclass fields come first in a class, with offsets from the start of the object.

            A running process (--pid PID) or a core file (a PATH whose ELF type is ET_CORE: gcore, systemd-coredump, the kernel's dumps) answers what a file leaves unknown: each Swift image it had loaded is dumped as above (its metadata read from the target's memory, its sections and debug information from the file on disk with the same build id), followed by the generic instantiations that exist in it (Box<Order>, [String: Int]), each with its exact size, alignment, stride and field offsets, laid out by the toolchain's reflection library reading the target. All of them are listed only when the process was started with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1 (its runtime then keeps a list); otherwise only those the heap shows (generic classes with live objects, and the generic types their stored fields hold), and a note says so. \(LiveHelp.reading)

            Examples:
              typeinfo dump .build/debug/MyApp
              typeinfo dump libFoo.so --type Config --kind struct
              typeinfo dump libFoo.so --type '/^Foo\\..*Error$/' --format json
              typeinfo dump libFoundationEssentials.so --module FoundationEssentials
              typeinfo dump --pid 4711 --module MyServer     (after SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1 ./MyServer)
              typeinfo dump core.4711 --image-path ~/builds/release-42

            Exit status: 0 success, 1 a file could not be read, 2 a usage error or a process or core that could not be read.
            """
    )

    @Argument(help: ArgumentHelp("ELF files or core files to read (default: this typeinfo executable).", valueName: "path"))
    var paths: [String] = []

    @Option(
        name: .customLong("pid"),
        help: ArgumentHelp("Read a running process: its images' types and the generic instantiations it made.", valueName: "pid"))
    var processID: Int32?

    @OptionGroup var access: TargetAccessOptions

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
        if processID != nil, !paths.isEmpty { throw ValidationError("give either --pid or paths, not both") }
        if let processID, processID <= 0 { throw ValidationError("'\(processID)' is not a process id") }
        if processID == nil, access.pause || !access.imageSearchPaths.isEmpty, !paths.contains(where: LiveDumpReader.isCoreFile(atPath:)) {
            throw ValidationError("--pause and --image-path are for a running process (--pid) or a core file")
        }
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
        let options = reading.readOptions(printsNotes: true)
        var documents: [LayoutDocument] = []
        var holeReports: [String] = []
        var failed = false
        if let processID {
            try readTarget(.process(processID), filter: filter, options: options, into: &documents, holes: &holeReports, failed: &failed)
        }
        let targets = processID != nil ? [] : paths.isEmpty ? [Self.ownExecutablePath()] : paths
        for path in targets {
            if LiveDumpReader.isCoreFile(atPath: path) {
                try readTarget(.core(path: path), filter: filter, options: options, into: &documents, holes: &holeReports, failed: &failed)
                continue
            }
            do {
                var result = try BinaryLayoutReader.read(path: path, selection: filter, options: options)
                append(&result, into: &documents, holes: &holeReports)
            } catch {
                Console.writeError("typeinfo: \(Self.message(for: error))\n")
                failed = true
            }
        }
        switch format {
        case .json:
            if documents.count == 1, targets.count == 1, processID == nil {
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

    /// Adds a file's reading to the output (its holes too, with --holes).
    private func append(_ result: inout LayoutReadResult, into documents: inout [LayoutDocument], holes: inout [String]) {
        result.document.image.notes += result.warnings
        documents.append(result.document)
        if showHoles {
            let alignments = result.alignments
            let analyses = result.document.types
                .filter { [.struct, .class, .tuple, .union].contains($0.kind) }
                .map { LayoutHoles($0, alignmentOf: alignments.alignment(of:), superclass: result.superclass(of: $0)) }
            holes.append(LayoutHoles.textReport(analyses, includeTight: false))
        }
    }

    /// Reads a process or a core file: each Swift image's types, then the generic instantiations.
    /// A target that cannot be read ends the command (exit status 2); an image file that cannot
    /// be read is reported and the others are printed (exit status 1).
    private func readTarget(
        _ target: TargetSpecifier, filter: TypeFilter, options: LayoutReadOptions, into documents: inout [LayoutDocument],
        holes: inout [String], failed: inout Bool
    ) throws {
        let dump: LiveDump
        do {
            dump = try LiveDumpReader.read(access.liveOptions(target, lowering: reading.lowering), selection: filter, reading: options)
        } catch {
            Console.writeError("typeinfo: \(error)\n")
            throw ExitCode(2)
        }
        for image in dump.images {
            switch image.result {
            case .success(var result): append(&result, into: &documents, holes: &holes)
            case .failure(let error):
                Console.writeError("typeinfo: \(Self.message(for: error))\n")
                failed = true
            }
        }
        documents.append(dump.instantiations)
        if showHoles {
            // Each field's alignment is the library's lowering of its type, stated on the field.
            let analyses = dump.instantiations.types
                .filter { [.struct, .class].contains($0.kind) }
                .map { LayoutHoles($0, alignmentOf: \.alignment) }
            holes.append(LayoutHoles.textReport(analyses, includeTight: false))
        }
    }

    /// What dump says about a file it cannot read: a file without Swift metadata is "not Swift"
    /// (and, when its DWARF could not be read either, what is wrong with that too, as the error says).
    private static func message(for error: LayoutReadingError) -> String { error.shortDescription }

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
