import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLayout

@testable import TypeLowering

/// One worker per inspector, asked in batches: the target opened once in it, a worker that ends
/// during a batch costing that batch only.
@Suite("Target worker sessions: one worker, asked in batches", .serialized, .enabled(if: canLower, "no reflection library or worker"))
struct TargetWorkerSessionTests {
    static func address(_ hex: String) -> UInt64 { UInt64(hex.dropFirst(2), radix: 16) ?? 0 }

    /// A stand-in worker that passes its input to the real worker through a FIFO, counting the
    /// workers started in `starts` beside it; with `crashInBatch`, the first of them crashes
    /// (SIGSEGV) on reading that batch's `end`, before the real worker has the whole batch.
    static func forwardingWorker(named name: String, crashInBatch: Int? = nil) throws -> (script: String, directory: String) {
        let worker = try #require(lowering.workerPath)
        let directory = ScratchDirectory.path(named: "session-\(name)")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let crash =
            crashInBatch.map { batch in
                """
                    if [ "$line" = end ]; then
                      batches=$((batches + 1))
                      if [ $batches -eq \(batch) ] && [ ! -e "$dir/crashed" ]; then : > "$dir/crashed"; kill -SEGV $$; fi
                    fi
                """
            } ?? ""
        let text = """
            #!/bin/sh
            dir="$(dirname "$0")"
            echo started >> "$dir/starts"
            fifo="$dir/fifo.$$"
            mkfifo "$fifo"
            "\(worker)" < "$fifo" &
            exec 3> "$fifo"
            rm -f "$fifo"
            batches=0
            while IFS= read -r line; do
            \(crash)
              printf '%s\\n' "$line" >&3
            done
            exec 3>&-
            wait

            """
        let script = directory + "/worker.sh"
        _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        return (script, directory)
    }

    static func starts(_ directory: String) -> Int {
        ((try? String(contentsOfFile: directory + "/starts", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    @Test func oneWorkerAnswersEveryBatch() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let (script, directory) = try Self.forwardingWorker(named: "one")
        let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: script, silenceLimit: 30)
        let target = try TargetInspector(.process(fixture.processID), configuration: configuration)
        let metadata = fixture.report.types.map { Self.address($0.metadata) }
        for _ in 0..<3 {
            let names = try target.typeNames(ofMetadata: metadata)
            #expect(fixture.report.types.allSatisfy { names[Self.address($0.metadata)] == $0.type })
        }
        let fields = try target.storedFields(ofClassesAt: metadata)
        #expect(fields.count == metadata.count)
        #expect(target.session.workersStarted == 1)
        #expect(Self.starts(directory) == 1)
    }

    /// A worker that crashes in the second batch costs its questions (one error, the crash's);
    /// the third batch is answered by a new worker, as the first was.
    @Test func aWorkerThatDiesInBatchTwoCostsBatchTwoOnly() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let (script, directory) = try Self.forwardingWorker(named: "crash-2", crashInBatch: 2)
        let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: script, silenceLimit: 30)
        let target = try TargetInspector(.process(fixture.processID), configuration: configuration)
        let metadata = fixture.report.types.map { Self.address($0.metadata) }
        let first = try target.typeNames(ofMetadata: metadata)
        #expect(first.count == metadata.count)
        #expect(throws: TypeLoweringError.workerEnded(path: "process \(fixture.processID)", reason: "crashed (signal 11)")) {
            try target.storedFields(ofClassesAt: metadata)
        }
        let third = try target.typeNames(ofMetadata: metadata)
        #expect(third == first)
        #expect(target.session.workersStarted == 2)
        #expect(Self.starts(directory) == 2)
        #expect(FileManager.default.fileExists(atPath: directory + "/crashed"))
    }

    /// A worker killed while it waited for a batch is replaced before the batch is sent: the
    /// batch is answered.
    @Test func aWorkerGoneBetweenBatchesIsReplaced() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let target = try TargetInspector(.process(fixture.processID), configuration: lowering)
        let metadata = fixture.report.types.map { Self.address($0.metadata) }
        let first = try target.typeNames(ofMetadata: metadata)
        let worker = try #require(target.session.workerProcessID)
        kill(worker, SIGKILL)
        // Its end is seen once the kernel has closed its socket.
        var waited = 0
        while kill(worker, 0) == 0 && waited < 200 {
            usleep(10_000)
            waited += 1
        }
        #expect(try target.typeNames(ofMetadata: metadata) == first)
        #expect(target.session.workersStarted == 2)
    }

    /// An image file the worker cannot open (the map names a file that is gone) is the worker's
    /// typed failure naming the image: the error names it by the path the target mapped it from.
    @Test func anImageTheWorkerCannotUseIsNamed() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let worker = try #require(lowering.workerPath)
        let directory = ScratchDirectory.path(named: "session-moved-file")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/worker.sh"
        // Every image's file moved under /nonexistent on its way to the worker.
        let text = "#!/bin/sh\nsed -u 's|^file /|file /nonexistent/|' | \"\(worker)\"\n"
        _ = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: script, silenceLimit: 30)
        let target = try TargetInspector(.process(fixture.processID), configuration: configuration)
        let image = try #require(target.images.first)
        let reason =
            "the lowering worker cannot use it: "
            + BinaryInfoError.imageMissing(
                path: "process \(fixture.processID)", image: image.mappedPath, buildID: image.buildID?.description
            )
            .description
        #expect(throws: TypeLoweringError.imageUnusable(path: image.mappedPath, reason: reason)) {
            try target.typeNames(ofMetadata: fixture.report.types.map { Self.address($0.metadata) })
        }
    }

    @Test func failuresRoundTripAndMapToErrors() throws {
        let failures: [TargetWorkerFailure] = [
            .targetGone(.exited), .targetGone(.noSuchProcess), .targetGone(.accessDenied(reason: "ptrace_scope is 3")),
            .target("core: truncated"), .image(loadAddress: 0x7f00_0000, "gone"), .library("dlopen: no such file"),
            .unverified("another build"), .request("line 3: unknown"),
        ]
        for failure in failures {
            #expect(try TargetReply.decode(TargetReply.failed(failure).encoded) == .failed(failure))
        }
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode("failed something else") }
        let target = TargetSpecifier.process(42)
        func error(_ failure: TargetWorkerFailure) -> TypeLoweringError {
            failure.error(target: target, libraryPath: "/lib/rm.so", images: [], errorOutput: nil)
        }
        #expect(error(.targetGone(.exited)) == .target(.processExited(path: "process 42")))
        #expect(error(.targetGone(.noSuchProcess)) == .target(.processExited(path: "process 42")))
        #expect(error(.targetGone(.accessDenied(reason: "r"))) == .target(.processAccessDenied(path: "process 42", reason: "r")))
        #expect(error(.library("no symbol x")) == .remoteMirrorUnavailable(path: "/lib/rm.so", reason: "no symbol x"))
        #expect(
            error(.image(loadAddress: 0x1000, "gone")) == .imageUnusable(path: "0x1000", reason: "the lowering worker cannot use it: gone"))
        #expect(error(.request("bad")) == .protocolViolation(detail: "the worker refused the request: bad"))
        #expect(error(.target("t")) == .workerEnded(path: "process 42", reason: "failed to read the target (t)"))
        #expect(
            error(.target("t")).description
                == "process 42: the lowering worker failed to read the target (t) before it answered; the target was not changed")
    }
}
