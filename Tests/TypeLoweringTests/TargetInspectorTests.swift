import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLayout

@testable import TypeLowering

/// The live-heap fixture read through ``TargetInspector``: the names and fields libswiftRemoteMirror
/// reads from the target, against what the process printed of itself.
@Suite("Targets through the worker: type names and fields", .serialized, .enabled(if: canLower, "no reflection library or worker"))
struct TargetInspectorTests {
    static func address(_ hex: String) -> UInt64 { UInt64(hex.dropFirst(2), radix: 16) ?? 0 }

    /// A gcore core of `fixture`'s process (left running).
    static func dump(_ fixture: LiveHeapFixture) throws -> String { try CoreDump.make(of: fixture.processID) }

    /// Every printed type named as `String(reflecting:)` names it, and its stored fields (the
    /// superclass's first) with the names and offsets `_forEachField` states.
    static func checkNamesAndFields(_ target: TargetInspector, _ report: LiveHeapReport) throws {
        let metadata = report.types.map { address($0.metadata) }
        let names = try target.typeNames(ofMetadata: metadata + [0x10, metadata[0] + 8])
        #expect(names.count == report.types.count)
        let candidates = metadata + metadata + [0, 0x10, metadata[0] + 8, address(try #require(report.sample("root")).address)]
        #expect(Set(target.classMetadata(candidates: candidates).keys) == Set(metadata))
        for type in report.types {
            #expect(names[address(type.metadata)] == type.type)
            let fields = try #require(try target.storedFields(ofClassAt: address(type.metadata)), "\(type.type)")
            #expect(fields.map { LiveHeapReport.Field(name: $0.name, offset: $0.offset) } == type.fields, "\(type.type)")
        }
        // All classes in one worker run: the same fields.
        let batch = try target.storedFields(ofClassesAt: metadata + [0x10])
        #expect(batch.count == report.types.count)
        for type in report.types {
            #expect(batch[address(type.metadata)]?.map { LiveHeapReport.Field(name: $0.name, offset: $0.offset) } == type.fields)
        }
        let order = try #require(report.types.first { $0.type == "LiveHeap.Order" })
        let fields = try #require(try target.storedFields(ofClassAt: address(order.metadata)))
        #expect(fields.first { $0.name == "name" }?.typeName == "Swift.String")
        #expect(fields.first { $0.name == "name" }?.kind == .struct)
        #expect(fields.first { $0.name == "parent" }?.typeName == "LiveHeap.Order?")
        #expect(fields.first { $0.name == "tags" }?.typeName == "[Swift.String]")
        #expect(fields.first { $0.name == "status" }?.typeName == "LiveHeap.Status")
        // The standard library's array storage behind root.tags, reached through the object's
        // `tags` field in the target's memory, named as the process names it.
        let root = try #require(report.sample("root"))
        let tagsOffset = try #require(fields.first { $0.name == "tags" }?.offset)
        let storage = try target.memory.read(UInt64.self, at: address(root.address) + UInt64(tagsOffset), what: "tags")
        #expect(storage == address(try #require(root.tagsStorage)))
        let storageMetadata = try target.memory.read(UInt64.self, at: storage, what: "storage header")
        #expect(target.classMetadata(at: storageMetadata) != nil)
        #expect(try target.typeNames(ofMetadata: [storageMetadata])[storageMetadata] == root.tagsStorageType)
        #expect(root.tagsStorageType == "Swift._ContiguousArrayStorage<Swift.String>")
        #expect(try target.storedFields(ofClassAt: 0x10) == nil)
        #expect(try target.storedFields(ofClassAt: address(try #require(report.sample("root")).address)) == nil)
    }

    @Test(arguments: LiveHeapFixture.Linking.allCases)
    func byProcess(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let target = try TargetInspector(.process(fixture.processID), configuration: lowering)
        try Self.checkNamesAndFields(target, fixture.report)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"), arguments: LiveHeapFixture.Linking.allCases)
    func byCore(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let path = try Self.dump(fixture)
        let report = fixture.report
        fixture.finish()
        let target = try TargetInspector(.core(path: path), configuration: lowering)
        try Self.checkNamesAndFields(target, report)
    }

    @Test func aProcessThatExitsIsOneError() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let target = try TargetInspector(.process(fixture.processID), configuration: lowering)
        let metadata = Self.address(fixture.report.types[0].metadata)
        fixture.finish()
        let gone = TypeLoweringError.target(.processExited(path: "process \(fixture.processID)"))
        #expect(gone.description == "process \(fixture.processID): the process exited while it was being read")
        #expect(throws: gone) { try target.typeNames(ofMetadata: [metadata]) }
        #expect(throws: gone) { try target.storedFields(ofClassAt: metadata) }
        // The worker, asked anyway, finds no process; its failure becomes the same error.
        #expect(throws: gone) { try target.ask([.name(metadata)]) { _ in } }
    }

    @Test func missingTargetsAreOneErrorEach() throws {
        #expect(throws: TypeLoweringError.target(.noSuchProcess(path: "process 2147483647"))) {
            try TargetInspector(.process(.max), configuration: lowering)
        }
        #expect(TypeLoweringError.target(.noSuchProcess(path: "process 7")).description == "process 7: no such process")
        #expect(throws: TypeLoweringError.target(.fileNotFound(path: "/nonexistent/core"))) {
            try TargetInspector(.core(path: "/nonexistent/core"), configuration: lowering)
        }
    }

    @Test func aWorkerThatCrashesOrHangsIsOneError() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let directory = ScratchDirectory.path(named: "target-workers")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, action, reason) in [
            ("crashing", "kill -SEGV $$", "crashed (signal 11)"), ("hanging", "exec sleep 30", "hung (killed after its time limit)"),
        ] {
            let script = directory + "/\(name)-worker.sh"
            let text =
                "#!/bin/sh\nwhile IFS= read -r line; do [ \"$line\" = end ] && break; done\necho '\(TargetWire.header)'\necho 'ready 1'\n\(action)\n"
            _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
            let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: script, silenceLimit: 1)
            let target = try TargetInspector(.process(fixture.processID), configuration: configuration)
            do {
                _ = try target.typeNames(ofMetadata: [Self.address(fixture.report.types[0].metadata)])
                Issue.record("the \(name) worker gave names")
            } catch {
                #expect(error == .workerEnded(path: "process \(fixture.processID)", reason: reason))
                #expect(
                    error.description
                        == "process \(fixture.processID): the lowering worker \(reason) before it answered; the target was not changed")
            }
        }
    }

    /// A worker that exits 0 without its closing `done` has not answered: an error naming the
    /// questions, never an empty answer. What a worker writes to its standard error stays off
    /// the terminal, in a file the message names.
    @Test func aWorkerThatEndsWithoutAnsweringIsAnError() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let directory = ScratchDirectory.path(named: "target-workers")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "process \(fixture.processID)"
        let metadata = Self.address(fixture.report.types[0].metadata)
        func inspector(_ name: String, _ action: String) throws -> TargetInspector {
            let script = directory + "/\(name)-worker.sh"
            let text =
                "#!/bin/sh\nwhile IFS= read -r line; do [ \"$line\" = end ] && break; done\necho '\(TargetWire.header)'\necho 'ready 1'\n\(action)\n"
            _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
            let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: script, silenceLimit: 5)
            return try TargetInspector(.process(fixture.processID), configuration: configuration)
        }

        let silent = try inspector("silent", "exit 0")
        #expect(throws: TypeLoweringError.workerUnanswered(path: path, question: "its 1 question (type names)", errorOutput: nil)) {
            try silent.typeNames(ofMetadata: [metadata])
        }
        #expect(
            TypeLoweringError.workerUnanswered(path: path, question: "its 1 question (type names)", errorOutput: nil).description
                == "\(path): the lowering worker exited (status 0) without answering its 1 question (type names); nothing was read from its partial answer, and the target was not changed"
        )

        let loud = try inspector("loud", "for i in 1 2 3 4 5; do echo \"backtrace line $i\" >&2; done\nkill -SEGV $$")
        do {
            _ = try loud.typeNames(ofMetadata: [metadata])
            Issue.record("the crashing worker gave names")
        } catch {
            guard case .workerEnded(path, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            let prefix = "crashed (signal 11), its error output kept in "
            #expect(reason.hasPrefix(prefix) && reason.hasSuffix(","), "\(reason)")
            let file = String(reason.dropFirst(prefix.count).dropLast())
            let kept = try String(contentsOfFile: file, encoding: .utf8)
            #expect(kept == (1...5).map { "backtrace line \($0)\n" }.joined())
            try? FileManager.default.removeItem(atPath: file)
        }
    }

    @Test func wireRoundTrips() throws {
        let map = try TargetImageMap(lines: [
            "image 0x1000 0x0 0x1000 0x3000 0a0b /lib/a b.so", "file /proc/1/map_files/1000-3000", "mapping 0x1000 0x2000 0x0",
            "section swift5_fieldmd 0x1800 0x1900", "executable 0x1000",
        ])
        let request = TargetRequest(
            libraryPath: "/lib/rm.so", target: .core(path: "/tmp/core 1"), imageSearchPaths: ["/a", "/b c"], imageMap: map)
        let lines = try request.encoded().split(separator: "\n").map(String.init)
        #expect(lines.last == "open")
        #expect(TargetRequest.decode(lines: lines) == .success(request))
        // A malformed map is refused as the request.
        #expect(
            TargetRequest.decode(lines: [TargetWire.header, "library /l", "process 9", "file /a", "open"])
                == .failure(.protocolViolation(detail: "image map line 1: no image without a file before: file /a")))
        let queries: [TargetRequest.Query] = [
            .name(0x10), .fields(0xABC), .generics, .layout("Si"), .enumCase("Sq", 0x20), .task(0x30), .actor(0x40), .threads(0x50),
            .arguments(.mangling("4main4PairVySiSSG")), .arguments(.metadata(0x60)),
        ]
        let batch = TargetRequest.encodedBatch(queries).split(separator: "\n").map(String.init)
        #expect(TargetRequest.decodeBatch(lines: batch) == .success(queries))
        #expect(TargetRequest.decodeBatch(lines: ["name 0x10"]) == .failure(.protocolViolation(detail: "batch lacks 'end'")))
        #expect(
            TargetRequest.decodeBatch(lines: ["library /l", "end"])
                == .failure(.protocolViolation(detail: "batch line 1: unknown query 'library'")))
        let replies: [TargetReply] = [
            .ready(swiftImages: 3), .failed(.targetGone(.noSuchProcess)), .failed(.image(loadAddress: 0x1000, "gone")),
            .name(0x10, mangling: "8LiveHeap3BoxCySiG"),
            .name(0x20, mangling: nil),
            .field(0x10, TargetFieldRecord(offset: 16, kind: .strongReference, mangledType: nil, name: "a b")), .fields(0x10, count: 1),
            .generics(.success(GenericsListing(count: 84))),
            .generics(.success(GenericsListing(count: 2, stops: [0x7f00, 0x8000]))),
            .generics(
                .failure(
                    TargetListingUnavailable(
                        reason: "the process was not started with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1",
                        runtimeKeepsNoList: true))),
            .generics(.failure(TargetListingUnavailable(reason: "the target's Swift runtime has no _swift_debug_allocationPoolPointer"))),
            .arguments(.mangling("4main4PairVySiSSG"), LibraryGenericArguments(type: "4main4PairVySiSSG", arguments: ["Si", "SS"])),
            .arguments(.metadata(0x60), LibraryGenericArguments(type: nil, arguments: [nil, "Si"])),
            .arguments(.metadata(0x60), LibraryGenericArguments(type: "4main4NodeC", arguments: [])),
            .arguments(.metadata(0x70), nil),
        ]
        for reply in replies { #expect(try TargetReply.decode(reply.encoded) == reply) }
        for kind in LoweredKind.allCases { #expect(LoweredKind(wireName: kind.wireName) == kind) }
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("field 0x10 -1 struct ? x") }
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("generics 3 x") }
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("generics -1") }
        // A count that is not the arguments', or no type.
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("arguments 0x60 4main4NodeC 2 Si") }
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("arguments 0xzz ?") }
        #expect(
            TargetRequest.decodeBatch(lines: ["arguments 0xzz", "end"])
                == .failure(.protocolViolation(detail: "batch line 1: '0xzz' is not a mangling or an address")))
    }
}
