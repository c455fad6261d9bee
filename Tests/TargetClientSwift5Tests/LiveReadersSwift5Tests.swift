import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// The live readers (`typeinfo heap` and `object`'s library entry points) as a Swift 5 language
/// mode client calls them, against what the LiveHeap fixture prints of itself.
@Suite(
    "Live readers from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct LiveReadersSwift5Tests {
    @Test func censusAndObjectOfAProcess() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let options = LiveTargetOptions(target: .process(fixture.processID), pauses: true)
        let census = try LiveHeapReader.census(options, addressesPerType: 1)
        for held in fixture.report.types {
            let entry = census.types.first { $0.type == held.type }
            #expect(entry?.count == held.count, "\(held.type)")
            #expect(entry?.bytes == held.bytes, "\(held.type)")
        }
        #expect(!census.target.readWhileRunning)
        // The pause's length, stated as a typed value.
        guard case .paused(let length)? = census.target.stop else {
            Issue.record("no pause length: \(String(describing: census.target.stop))")
            return
        }
        #expect(length > .zero)
        #expect(census.target.stop?.seconds.map { $0 > 0 } == true)
        // The library's pause itself, as a Swift 5 client holds one.
        let pause = try ProcessPause(processID: fixture.processID)
        #expect(pause.stoppedIt)
        pause.resume()
        #expect(pause.stopLength != nil)
        #expect(!ProcessMemory.hasExited(processID: fixture.processID))
        // A baseline with an impossible count is refused, naming the entry.
        #expect(
            HeapCensusDocumentError.invalidEntry(index: 0, type: "A.B", detail: "the type is listed twice").description
                == "not a heap census typeinfo wrote: types[0] (A.B): the type is listed twice")
        let root = try #require(fixture.report.sample("root"))
        let object = try LiveObjectReader.object(at: UInt64(root.address.dropFirst(2), radix: 16) ?? 0, depth: 0, options)
        #expect(object.type == root.type)
        let values = Dictionary(uniqueKeysWithValues: object.fields.map { ($0.name, $0.value) })
        #expect(values["id"] == .signed(Int64(root.id ?? 0)))
        #expect(values["name"] == .string(root.orderName ?? "", truncatedFrom: nil))
        #expect(values["paid"] == .boolean(root.paid ?? false))
        #expect(values["status"] == .enumCase("cancelled", payload: .string("late", truncatedFrom: nil)))
        #expect(values["parent"] == .enumCase("none", payload: nil))
        // A wrong address is the typed error, with its message.
        let inside = (UInt64(root.address.dropFirst(2), radix: 16) ?? 0) + 8
        #expect(throws: LiveReadingError.notAnObject(target: "process \(fixture.processID)", address: inside)) {
            try LiveObjectReader.object(at: inside, depth: 0, options)
        }
    }

    @Test func cLibraryAndTheFilesBesideIt() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let memory = try TargetMemory(.process(fixture.processID))
        let library = try #require(memory.cLibrary)
        #expect(library.mappedPath.hasSuffix("/libc.so.6"))
        // A process may change while read, and its registers are only a held thread's.
        #expect(memory.processID == fixture.processID && memory.mayChange && !memory.hasGone && memory.core == nil)
        #expect(throws: BinaryInfoError.self) { try memory.threadRegisters(heldBy: nil) }
        // The one cache of target memory gives the target's own bytes.
        let cached = CachingReader(memory, policy: .reflectionReads)
        let header = library.loadAddress
        #expect(try cached.bytes(at: header, count: 64, what: "ELF header") == memory.bytes(at: header, count: 64, what: "ELF header"))
        cached.forget()
        #expect(try cached.read(UInt32.self, at: header, what: "ELF magic") == 0x464C_457F)
        let directory = String(library.mappedPath[..<(library.mappedPath.lastIndex(of: "/") ?? library.mappedPath.endIndex)])
        let paths = memory.filePathsBesideCLibrary(named: "libthread_db.so.1", searchDirectories: ["/srv/copy"])
        // The process's root first, then the path beside its libc, then below and in each directory.
        #expect(paths.first == "/proc/\(fixture.processID)/root" + directory + "/libthread_db.so.1")
        #expect(paths.contains(directory + "/libthread_db.so.1"))
        #expect(paths.suffix(2) == ["/srv/copy" + directory + "/libthread_db.so.1", "/srv/copy/libthread_db.so.1"])
        // A foreign allocator is a typed error with its message.
        let error = BinaryInfoError.foreignAllocator(path: "process 1", allocator: "jemalloc", image: "/lib/libjemalloc.so.2")
        #expect(error.description.hasPrefix("process 1: its malloc is jemalloc (/lib/libjemalloc.so.2), not glibc's;"))
    }

    @Test func censusOfARunningProcessStatesWhatChanged() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let census = try LiveHeapReader.census(LiveTargetOptions(target: .process(fixture.processID)))
        #expect(census.target.readWhileRunning)
        let changes: HeapReadChanges = try #require(census.readChanges)
        #expect(changes.arenaReadings >= 1)
        #expect(changes.text.hasPrefix("changed while read: "))
        let heap = try GlibcHeap(TargetMemory(.process(fixture.processID)), changing: true)
        #expect(heap.changing)
        let totals = try heap.forEachChunk { _ in }
        #expect(totals.changes != nil)
    }
}
