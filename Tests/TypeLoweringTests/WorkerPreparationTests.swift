import Foundation
import Testing
@testable import TypeLowering

/// The worker lays the images out on the preamble alone, while the client still reads the file:
/// the overlap PendingLowering exists for. (Before `prepare`, the worker waited for the first type
/// line, so nothing overlapped.)
@Suite("The worker prepares before the types arrive")
struct WorkerPreparationTests {
    @Test(
        "on `prepare` the worker loads the library and lays the images out with no type line sent",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func preparesOnPreamble() throws {
        let library = try #require(lowering.remoteMirrorPath)
        let fixture = try LoweringFixture.plain.product()
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: try #require(lowering.workerPath))
        worker.environment = ProcessInfo.processInfo.environment.merging(["TYPEINFO_LOWERING_TRACE": "1"]) { _, new in new }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        worker.standardInput = input
        worker.standardOutput = output
        worker.standardError = errors
        try worker.run()
        let dependencies = LibraryDependencies.resolve(
            forFileAt: fixture, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
        let request = LoweringRequest(libraryPath: library, imagePaths: [fixture] + dependencies.paths, manglings: [])
        let preamble = try request.encodedPreamble()
        input.fileHandleForWriting.write(Data(preamble.utf8))
        // The trace lines of the phases before the first type, read while standard input stays
        // open: the worker must reach them without a type line or `end`.
        var trace = ""
        let deadline = Date().addingTimeInterval(60)
        var descriptor = pollfd(fd: errors.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !trace.contains("lowering-trace worker context-made"), Date() < deadline {
            // Polled, so that a worker waiting for more input fails the test instead of hanging it.
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            trace += String(decoding: chunk, as: UTF8.self)
        }
        guard trace.contains("lowering-trace worker context-made") else {
            worker.terminate()
            Issue.record("the worker did not prepare on the preamble alone within 60 s: \(trace)")
            return
        }
        #expect(trace.contains("lowering-trace worker images-laid-out"), "\(trace)")
        #expect(trace.contains("lowering-trace worker context-made"), "\(trace)")
        #expect(!trace.contains("lowering-trace worker request-read"), "the request was not complete yet: \(trace)")
        input.fileHandleForWriting.write(Data("type Si\nend\n".utf8))
        try input.fileHandleForWriting.close()
        let reply = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        worker.waitUntilExit()
        #expect(worker.terminationStatus == 0)
        // Swift.Int as MemoryLayout knows it, once the types do arrive.
        let size = MemoryLayout<Int>.size
        #expect(reply.contains("begin Si\ninfo struct \(size) \(MemoryLayout<Int>.alignment) \(MemoryLayout<Int>.stride) 1\n"), "\(reply)")
    }
}
