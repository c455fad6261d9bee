import BinaryFixtures
import Foundation
import Testing
import TypeLayout

#if canImport(Glibc)
import Glibc
#endif

/// `typeinfo dump --pid PID` and `typeinfo dump CORE`: the LiveGenerics fixture prints each
/// generic instantiation it made as its runtime lays it out (`MemoryLayout`, `_forEachField`),
/// and whether the heap reaches it; those numbers are the oracle, by PID and from a gcore core of
/// the same process, with the runtime's list of metadata allocations and without it.
@Suite("typeinfo dump --pid and dump CORE", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct DumpTargetCommandTests {
    /// The documents `dump` prints for a target: one per Swift image, then the instantiations.
    static func documents(_ arguments: [String]) throws -> [LayoutDocument] {
        let result = try DumpCommandTests.run(["dump"] + arguments + ["--format", "json", "--no-dwarf"])
        #expect(result.status == 0, "\(result.errors)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [Any])
        return try array.map { try LayoutDocument(jsonData: JSONSerialization.data(withJSONObject: $0)) }
    }

    static let heapOnlyNote =
        "only what the heap shows: the process was not started with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1"

    /// Each instantiation `expected` holds is listed with exactly the fixture's numbers, and no other of the fixture's.
    static func expectInstantiations(
        _ document: LayoutDocument, _ expected: [LiveGenericsReport.Instantiation], _ source: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let listed = document.types.filter { $0.module == "LiveGenerics" }
        #expect(Set(listed.map(\.name)) == Set(expected.map(\.type)), "\(source)", sourceLocation: sourceLocation)
        for instantiation in expected {
            guard let type = listed.first(where: { $0.name == instantiation.type }) else { continue }
            #expect(type.kind.rawValue == instantiation.kind, "\(source): \(type.name)", sourceLocation: sourceLocation)
            #expect(type.size == instantiation.size, "\(source): \(type.name)", sourceLocation: sourceLocation)
            #expect(type.alignment == instantiation.alignment, "\(source): \(type.name)", sourceLocation: sourceLocation)
            #expect(type.stride == instantiation.stride, "\(source): \(type.name)", sourceLocation: sourceLocation)
            #expect(type.instanceSize == instantiation.instanceSize, "\(source): \(type.name)", sourceLocation: sourceLocation)
            let fields = type.fields.map { LiveHeapReport.Field(name: $0.name, offset: $0.offset ?? -1) }
            #expect(fields == instantiation.fields.map(\.placement), "\(source): \(type.name)", sourceLocation: sourceLocation)
            if instantiation.kind == "enum" {
                #expect(
                    type.cases.map(\.name).sorted() == ["empty", "one", "two"], "\(source): \(type.name)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: FixtureLinking.allCases)
    func everyInstantiationWhenTheRuntimeListsThem(_ linking: FixtureLinking) throws {
        let fixture = try LiveGenericsFixture(linking, listsMetadataAllocations: true)
        defer { fixture.finish() }
        let live = try Self.documents(["--pid", String(fixture.processID)])
        let instantiations = try #require(live.last)
        #expect(instantiations.image.path == "generic instantiations in process \(fixture.processID)")
        #expect(instantiations.image.fileType == .process)
        Self.expectInstantiations(instantiations, fixture.report.types, "process")
        #expect(!instantiations.image.notes.contains { $0.text.hasPrefix("only what the heap shows") })
        // Beyond the fixture's own: the standard library's, laid out too.
        #expect(instantiations.types.contains { $0.name == "[Swift.String]" && $0.size == 8 })

        // The images' types are those `dump FILE` gives for the file.
        let executable = try #require(live.first { $0.image.path == fixture.executable })
        let file = try LayoutDocument(
            jsonData: Data(try DumpCommandTests.run(["dump", fixture.executable, "--format", "json", "--no-dwarf"]).output.utf8))
        #expect(executable == file)
        #expect(executable.types.contains { $0.name == "LiveGenerics.Holder" })

        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let dumped = try #require(try Self.documents([core]).last)
        #expect(dumped.image.path == "generic instantiations in \(core)")
        #expect(dumped.image.fileType == .core)
        // Nothing to note but the field types the reflection library does not name (each with why).
        #expect(
            dumped.image.notes.allSatisfy {
                $0.text.contains(": its type is unknown (?): ") && $0.text.contains("parameterized existential")
            },
            "\(dumped.image.notes.map(\.text))")
        Self.expectInstantiations(dumped, fixture.report.types, "core")
    }

    @Test(arguments: FixtureLinking.allCases)
    func onlyWhatTheHeapShowsOtherwiseAndSaysSo(_ linking: FixtureLinking) throws {
        let fixture = try LiveGenericsFixture(linking, listsMetadataAllocations: false)
        defer { fixture.finish() }
        let reached = fixture.report.types.filter(\.reachedFromHeap)
        #expect(reached.count < fixture.report.types.count)
        let live = try #require(try Self.documents(["--pid", String(fixture.processID), "--pause"]).last)
        Self.expectInstantiations(live, reached, "process")
        #expect(live.image.notes.map(\.text).contains { $0.hasPrefix(Self.heapOnlyNote) })
        #expect(!live.image.notes.contains { $0.text.hasPrefix("read while the process ran") })

        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let dumped = try #require(try Self.documents([core]).last)
        Self.expectInstantiations(dumped, reached, "core")
        #expect(dumped.image.notes.map(\.text).contains { $0.hasPrefix(Self.heapOnlyNote) })

        // Text: the header, the note, each type with its numbers.
        let text = try DumpCommandTests.run(["dump", "--pid", String(fixture.processID), "--module", "LiveGenerics", "--no-dwarf"])
        #expect(text.status == 0)
        let block = try #require(text.output.components(separatedBy: "# generic instantiations in process ").last)
        #expect(block.hasPrefix("\(fixture.processID): process, x86_64, \(reached.count) types\n"))
        #expect(block.contains("# note: " + Self.heapOnlyNote))
        #expect(block.contains("struct LiveGenerics.Pair<Swift.Int, Swift.String>  size 24  align 8  stride 24\n"))
    }

    @Test func failuresAreOneLineWithExitStatusTwo() throws {
        let gone = try DumpCommandTests.run(["dump", "--pid", "2147483000"])
        #expect(gone.status == 2)
        #expect(gone.errors == "typeinfo: process 2147483000: no such process\n")
        #expect(gone.output.isEmpty)

        let sleeper = HeapCommandFailureTests.spawnUnreaped("/bin/sleep", ["100"])
        defer {
            kill(sleeper, SIGKILL)
            waitpid(sleeper, nil, 0)
        }
        let notSwift = try DumpCommandTests.run(["dump", "--pid", String(sleeper)])
        #expect(notSwift.status == 2)
        #expect(
            notSwift.errors == "typeinfo: process \(sleeper): not a Swift process: none of the images it has loaded holds Swift metadata\n")

        let plainFile = try FixtureToolchain.product(.plain)
        let misuse = try DumpCommandTests.run(["dump", plainFile, "--pause"])
        #expect(misuse.status == 2)
        #expect(misuse.errors.contains("--pause and --image-path are for a running process (--pid) or a core file"))
        let both = try DumpCommandTests.run(["dump", plainFile, "--pid", "1"])
        #expect(both.errors.contains("give either --pid or paths, not both"))
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func aCoreWhoseExecutableMovedNeedsItsDirectory() throws {
        let directory = ScratchDirectory.path(named: "dump-core-failures")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/server"
        let fixture = try LiveGenericsFixture(listsMetadataAllocations: true, runningCopyAt: copy)
        defer { fixture.finish() }
        let core = try CoreDump.make(of: fixture.processID)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: core))
        let truncated = directory + "/truncated.core"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let cut = try DumpCommandTests.run(["dump", truncated])
        #expect(cut.status == 2)
        #expect(cut.errors.hasPrefix("typeinfo: \(truncated): truncated core file: "), "\(cut.errors)")
        #expect(cut.errors.split(separator: "\n").count == 1 && cut.output.isEmpty)

        let moved = directory + "/moved"
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: copy, toPath: moved + "/server")
        let missing = try DumpCommandTests.run(["dump", core])
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("typeinfo: \(core): the target had \(copy) (build id "), "\(missing.errors)")
        #expect(
            missing.errors.hasSuffix(
                "mapped, and no such file is on disk (moved or deleted); give the directory that holds it with --image-path DIR\n"))
        #expect(missing.output.isEmpty)
        let found = try #require(try Self.documents([core, "--image-path", moved]).last)
        Self.expectInstantiations(found, fixture.report.types, "core with --image-path")
    }
}
