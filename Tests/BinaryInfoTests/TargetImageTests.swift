import BinaryFixtures
import Foundation
import Testing
import TypeLayout

@testable import BinaryInfo

/// The live-heap fixture read as a target: its images matched by build id, and the metadata of
/// the classes it printed recognised from its memory alone.
@Suite("Target images and Swift class metadata", .serialized)
struct TargetImageTests {
    static func address(_ hex: String) -> UInt64 { UInt64(hex.dropFirst(2), radix: 16) ?? 0 }

    /// A gcore core of `fixture`'s process (left running).
    static func dump(_ fixture: LiveHeapFixture) throws -> String { try CoreDump.make(of: fixture.processID) }

    /// What every target of the fixture must show: the executable (and, linked dynamically, the
    /// standard library) as Swift images, each printed type's metadata a class with the instance
    /// size the runtime's reflection adds up, and other words refused.
    static func checkImagesAndClasses(_ memory: TargetMemory, _ fixture: LiveHeapFixture, _ linking: LiveHeapFixture.Linking) throws {
        let executable = try #require(memory.images.first { $0.mappedPath == fixture.executable })
        // The auxiliary vector's entry point lies in the executable, not in a library.
        #expect(memory.executable?.loadAddress == executable.loadAddress)
        #expect(executable.isSwift)
        // The build id as binutils reads it from the file, and as the target holds it.
        let readelf = try FixtureToolchain.run("/usr/bin/readelf", ["-n", executable.filePath], in: "/")
        let stated = readelf.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init)
        #expect(executable.buildID?.description == stated)
        #expect(try BuildID.loaded(in: memory, headerAt: executable.loadAddress) == executable.buildID)
        let runtime = memory.images.first { $0.mappedPath.hasSuffix("/libswiftCore.so") }
        #expect((runtime?.isSwift ?? false) == (linking == .dynamic))
        #expect(memory.images.contains { $0.mappedPath.contains("/libc.so") && !$0.isSwift })
        let recognizer = try SwiftClassRecognizer(memory: memory)
        #expect(fixture.report.types.count == 7)
        for type in fixture.report.types {
            let metadata = try #require(recognizer.classMetadata(at: address(type.metadata)), "\(type.type)")
            #expect(Int(metadata.instanceSize) == type.instanceSize, "\(type.type)")
            #expect(memory.image(containing: metadata.descriptor)?.loadAddress == metadata.imageLoadAddress)
            // Words near it, and its descriptor, are not class metadata.
            #expect(recognizer.classMetadata(at: metadata.address + 8) == nil)
            #expect(recognizer.classMetadata(at: metadata.descriptor) == nil)
        }
        // Closure contexts (a boxed variable's, a two-value closure's): their metadata is a
        // context's, with the capture count the closures' source states, and no class's.
        for context in try #require(fixture.report.contexts) {
            let metadata = try memory.read(UInt64.self, at: address(context.address), what: "context header")
            let found = try #require(recognizer.contextMetadata(at: metadata), "\(context.name)")
            #expect(found.captureCount == context.captures, "\(context.name)")
            #expect(found.imageLoadAddress == executable.loadAddress)
            #expect(recognizer.classMetadata(at: metadata) == nil)
        }
        for type in fixture.report.types { #expect(recognizer.contextMetadata(at: address(type.metadata)) == nil) }
        let root = try #require(fixture.report.sample("root"))
        // An object's own address (its first word is a metadata pointer, not the class kind).
        #expect(recognizer.classMetadata(at: address(root.address)) == nil)
        for word: UInt64 in [0, 0x10, 0x7FFF_FFFF_FFF8, executable.loadAddress, executable.loadAddress + 0x1000] {
            #expect(recognizer.classMetadata(at: word) == nil)
            #expect(recognizer.contextMetadata(at: word) == nil)
        }
        // Words judged many at once (their records read many to a system call, or words close
        // together as one copy of their span) are judged as one at a time, unreadable words among them.
        let metadata = fixture.report.types.map { address($0.metadata) }
        let near = metadata.flatMap { stride(from: $0 - 64, through: $0 + 64, by: 8) }
        let words = metadata + near + [0, 0x10, 0x7FFF_FFFF_FFF8, address(root.address), executable.loadAddress]
        let single = words.compactMap { word in recognizer.classMetadata(at: word).map { (word, $0) } }
        #expect(recognizer.classMetadata(candidates: Array(repeating: words, count: 700).joined()) == Dictionary(single) { a, _ in a })
        #expect(Set(single.map(\.0)) == Set(metadata))
    }

    @Test(arguments: LiveHeapFixture.Linking.allCases)
    func processImagesAndClasses(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        try Self.checkImagesAndClasses(try TargetMemory(.process(fixture.processID)), fixture, linking)
    }

    @Test(.enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"), arguments: LiveHeapFixture.Linking.allCases)
    func coreImagesAndClasses(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let core = try TargetMemory(.core(path: try Self.dump(fixture)))
        try Self.checkImagesAndClasses(core, fixture, linking)
        // Bytes the core left out are read from the matched files, and are the process's.
        let process = try ProcessMemory(processID: fixture.processID)
        let file = try #require(core.core)
        var checked = 0
        for image in core.images {
            for mapping in image.fileMappings {
                let address = mapping.range.lowerBound
                // Left out of the core, and readable in the process (not a `---p` gap between segments).
                guard (try? file.bytes(at: address, count: 64)) == nil, let expected = try? process.bytes(at: address, count: 64) else {
                    continue
                }
                #expect(try core.bytes(at: address, count: 64, what: "left out") == expected)
                checked += 1
            }
        }
        #expect(checked > 0, "the core left no image bytes out")
    }

    @Test(.enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func coreOfAReplacedOrRemovedExecutableIsRefusedByName() throws {
        let directory = ScratchDirectory.path(named: "live-heap-moved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/live-heap"
        let fixture = try LiveHeapFixture(.dynamic, runningCopyAt: copy)
        defer { fixture.finish() }
        let path = try Self.dump(fixture)
        let expected = try #require(try TargetMemory(.core(path: path)).images.first { $0.mappedPath == copy }?.buildID)
        // Replaced by another build (the -static-stdlib one).
        let saved = directory + "/saved"
        try FileManager.default.createDirectory(atPath: saved, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: copy, toPath: saved + "/live-heap")
        try FileManager.default.copyItem(atPath: try LiveHeapFixture.product(.staticStdlib), toPath: copy)
        let other = try #require(try BuildID.read(ofFileAt: copy))
        do {
            _ = try TargetMemory(.core(path: path))
            Issue.record("a core whose executable was replaced was read")
        } catch {
            #expect(error == .imageDiffers(path: path, image: copy, expected: "\(expected)", found: "\(other)", foundPath: copy))
            #expect(
                error.description
                    == "\(path): the target had \(copy) (build id \(expected)) mapped, but \(copy) is another build (build id \(other)); give the directory that holds the build the target ran with --image-path DIR"
            )
        }
        // Removed.
        try FileManager.default.removeItem(atPath: copy)
        do {
            _ = try TargetMemory(.core(path: path))
            Issue.record("a core whose executable was removed was read")
        } catch {
            #expect(
                error.description
                    == "\(path): the target had \(copy) (build id \(expected)) mapped, and no such file is on disk (moved or deleted); give the directory that holds it with --image-path DIR"
            )
        }
        // Found again in a search directory.
        let found = try TargetMemory(.core(path: path), imageSearchPaths: [saved])
        #expect(found.images.first { $0.mappedPath == copy }?.filePath == saved + "/live-heap")
        try Self.checkImagesAndClasses(found, fixture, .dynamic)
    }

    @Test func processWhoseExecutableWasDeletedIsReadThroughTheKernelsHandle() throws {
        let directory = ScratchDirectory.path(named: "live-heap-deleted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/live-heap"
        let fixture = try LiveHeapFixture(.dynamic, runningCopyAt: copy)
        defer { fixture.finish() }
        try FileManager.default.removeItem(atPath: copy)
        let memory = try TargetMemory(.process(fixture.processID))
        let executable = try #require(memory.images.first { $0.mappedPath == copy })
        #expect(executable.filePath.hasPrefix("/proc/\(fixture.processID)/map_files/"))
        try Self.checkImagesAndClasses(memory, fixture, .dynamic)
    }

    @Test(.enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func coreWithoutAnImagesHeaderIsRefusedByName() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let path = try Self.dump(fixture)
        let loadAddress = try #require(
            try TargetMemory(.core(path: path)).images.first { $0.mappedPath == fixture.executable }?.loadAddress)
        // The segment holding the executable's first page keeps its memory size and loses its
        // file bytes (p_filesz, 32 bytes into its Elf64_Phdr), as a dump without ELF headers has it.
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let table = Int(data[32..<40].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let count = Int(data[56..<58].withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) })
        let index = try #require(
            (0..<count).first { index in
                let entry = table + index * 56
                return data[entry..<entry + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } == 1
                    && data[entry + 16..<entry + 24].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } == loadAddress
            })
        data.replaceSubrange(table + index * 56 + 32..<table + index * 56 + 40, with: [UInt8](repeating: 0, count: 8))
        let headerless = path + ".headerless"
        try data.write(to: URL(fileURLWithPath: headerless))
        do {
            _ = try TargetMemory(.core(path: headerless))
            Issue.record("a core without the executable's header was read")
        } catch {
            #expect(error == .imageUnverifiable(path: headerless, image: fixture.executable))
            #expect(
                error.description
                    == "\(headerless): the core does not hold the ELF header of \(fixture.executable), so its build id cannot be checked against the file; make the core with ELF headers (bit 4 of /proc/PID/coredump_filter, set by default; gcore keeps them)"
            )
        }
    }
}
