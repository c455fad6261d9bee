import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLowering

/// The target API as a Swift 5 language mode client calls it: a process's classes, their names
/// and a subclass's fields, against what the LiveHeap fixture prints of itself.
@Suite(
    "TargetInspector from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct TargetClientSwift5Tests {
    @Test func namesAndFieldsOfAProcess() throws {
        let configuration = LoweringConfiguration.resolved()
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let inspector = try TargetInspector(.process(fixture.processID), imageSearchPaths: [], configuration: configuration)
        let reader: any ByteReader = inspector.memory
        let metadata = fixture.report.types.map { UInt64($0.metadata.dropFirst(2), radix: 16) ?? 0 }
        // Through the existential: the first word of a class's metadata is its kind, 0.
        #expect(try reader.read(UInt64.self, at: metadata[0], what: "kind") == 0)
        #expect(inspector.classMetadata(candidates: metadata).count == metadata.count)
        // Many words judged at once, and a word that cannot be metadata never read.
        #expect(inspector.classes.classMetadata(each: metadata + [8]).map { $0?.address } == metadata + [nil])
        #expect(SwiftClassRecognizer.mayBeMetadata(metadata[0]) && !SwiftClassRecognizer.mayBeMetadata(8))
        // The heap through the allocator protocol: glibc's, its objects among its allocations.
        let heap: any TargetHeap = try TargetHeaps.open(inspector.memory, changing: false)
        #expect(heap.allocatorName.hasPrefix("glibc 2."))
        var objects = 0
        let totals = try heap.forEachChunk { chunk in if metadata.contains(chunk.firstWord) { objects += 1 } }
        #expect(objects > 0 && totals.changes == nil)
        let names = try inspector.typeNames(ofMetadata: metadata)
        #expect(fixture.report.types.allSatisfy { names[UInt64($0.metadata.dropFirst(2), radix: 16) ?? 0] == $0.type })
        let dog = try #require(fixture.report.types.first { $0.type == "LiveHeap.Dog" })
        let fields = try #require(try inspector.storedFields(ofClassAt: UInt64(dog.metadata.dropFirst(2), radix: 16) ?? 0))
        #expect(fields.map(\.name) == ["legs", "name"])
        #expect(fields.map(\.offset) == dog.fields?.map(\.offset))
        #expect(fields.map(\.typeName) == ["Swift.Int", "Swift.String"])
        #expect(fields.map(\.kind) == [.struct, .struct])
        let counter = try #require(fixture.report.contexts?.first { $0.name == "counter" })
        let box = try reader.read(UInt64.self, at: UInt64(counter.address.dropFirst(2), radix: 16) ?? 0, what: "box header")
        #expect(inspector.contextMetadata(at: box)?.captureCount == counter.captures)
    }
    /// The image map one reader hands another, written and read back, and a target opened on it.
    @Test func aTargetOpenedOnItsImageMap() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let memory = try TargetMemory(.process(fixture.processID))
        let map = memory.imageMap
        let lines: [String] = map.lines
        #expect(try TargetImageMap(lines: lines) == map)
        let opened = try TargetMemory(.process(fixture.processID), imageMap: map)
        #expect(opened.images.map(\.loadAddress) == memory.images.map(\.loadAddress))
        #expect(opened.images.map(\.filePath) == memory.images.map(\.filePath))
        #expect(opened.executable?.mappedPath == fixture.executable)
        let refused = Result { try TargetImageMap(lines: ["file /a"]) }
        guard case .failure(let error) = refused, let malformed = error as? TargetImageMap.MalformedLine else {
            Issue.record("a map without an image was read: \(refused)")
            return
        }
        #expect(malformed.line == 1)
        #expect(malformed.description == "image map line 1: no image without a file before: file /a")
    }
}
