import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import TypeLowering

/// A long request is answered by the worker and a forked child (LoweringWorker+SharedAnswers):
/// the reply is the one process's reply, in request order; a child that dies ends the worker with
/// its signal after the answers it finished; a child hung when the worker is killed dies with it.
@Suite("A long request answered by two processes")
struct SharedAnswersTests {

    /// The real worker asked for `keys` in `file` (its dependencies beside it).
    struct Run {
        let worker = Process()
        let input = Pipe()
        let output = Pipe()
        let keys: [String]

        init(file: String, keys: [String]) throws {
            self.keys = keys
            let dependencies = LibraryDependencies.resolve(
                forFileAt: file, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
            let request = LoweringRequest(
                libraryPath: try #require(lowering.remoteMirrorPath), imagePaths: [file] + dependencies.paths, manglings: keys)
            worker.executableURL = URL(fileURLWithPath: try #require(lowering.workerPath))
            // Shared whether or not a processor happens to be idle while the suite runs.
            worker.environment = ProcessInfo.processInfo.environment.merging(["TYPEINFO_LOWERING_SHARE": "1"]) { _, new in new }
            worker.standardInput = input
            worker.standardOutput = output
            worker.standardError = FileHandle.nullDevice
            try worker.run()
            input.fileHandleForWriting.write(Data(try request.encoded().utf8))
            try input.fileHandleForWriting.close()
        }

        /// The non-generic structs, enums and classes of `file`, as a reading asks for them.
        static func manglings(in file: String) throws -> [String] {
            try BinaryImage.layouts(atPath: file).types.compactMap { type in
                type.genericParameters.isEmpty && [.struct, .enum, .class].contains(type.kind) ? type.nominalMangledName : nil
            }
        }

        /// A request long enough to be shared that keeps the child busy for a while: the toolchain's
        /// libFoundationEssentials and its hundreds of types, each lowered for the first time.
        static func busy() throws -> Run {
            let file = try #require(
                lowering.remoteMirrorPath.map { ($0 as NSString).deletingLastPathComponent + "/libFoundationEssentials.so" })
            let keys = try manglings(in: file)
            try #require(keys.count >= 4 * LoweringWorker.minimumSharedRequest, "\(keys.count) types")
            return try Run(file: file, keys: keys)
        }

        /// The mangling of each `end` line read so far, in order.
        static func ended(_ reply: String) -> [String] {
            reply.split(separator: "\n").compactMap { $0.hasPrefix("end ") ? String($0.dropFirst(4)) : nil }
        }

        /// The forked child's process id, once it exists.
        func child(within seconds: Double = 60) -> pid_t? {
            let deadline = Date().addingTimeInterval(seconds)
            let path = "/proc/\(worker.processIdentifier)/task/\(worker.processIdentifier)/children"
            while Date() < deadline {
                if let text = try? String(contentsOfFile: path, encoding: .utf8),
                    let pid = text.split(separator: " ").first.flatMap({ pid_t($0) })
                {
                    return pid
                }
                usleep(200)
            }
            return nil
        }
    }

    @Test(
        "the reply lists every type in request order, each answer the same as a short request's",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func sameAnswersInOrder() throws {
        let fixture = try LoweringFixture.plain.product()
        let once = try Run.manglings(in: fixture)
        try #require(!once.isEmpty && once.count < LoweringWorker.minimumSharedRequest)
        let copies = LoweringWorker.minimumSharedRequest / once.count + 2
        let long = try Run(file: fixture, keys: Array(Array(repeating: once, count: copies).joined()))
        let reply = String(decoding: long.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        long.worker.waitUntilExit()
        #expect(long.worker.terminationStatus == 0)
        #expect(Run.ended(reply) == long.keys)
        // One copy is a short request, answered by one process: every copy in the long reply says
        // the same about each type (the child's copies included).
        let short = try Run(file: fixture, keys: once)
        let shortReply = String(decoding: short.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        short.worker.waitUntilExit()
        let body = { (text: String) in text.split(separator: "\n").drop { !$0.hasPrefix("begin ") }.joined(separator: "\n") }
        #expect(!body(shortReply).isEmpty)
        #expect(body(reply) == Array(repeating: body(shortReply), count: copies).joined(separator: "\n"))
    }

    @Test(
        "a child killed mid-request ends the worker with its signal, after the worker's own part and the child's finished answers",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func childKilled() throws {
        let run = try Run.busy()
        let child = try #require(run.child(), "the worker forked no child for \(run.keys.count) types")
        kill(child, SIGSTOP)
        // The worker answers its own part, then waits for the stopped child's.
        var reply = ""
        let ownPart = run.keys.count / 2
        let deadline = Date().addingTimeInterval(120)
        while Run.ended(reply).count < ownPart, Date() < deadline {
            let chunk = run.output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            reply += String(decoding: chunk, as: UTF8.self)
        }
        kill(child, SIGKILL)
        reply += String(decoding: run.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.worker.waitUntilExit()
        #expect(run.worker.terminationReason == .uncaughtSignal)
        #expect(run.worker.terminationStatus == SIGKILL)
        let ended = Run.ended(reply)
        #expect(ended.count >= ownPart && ended.count < run.keys.count, "\(ended.count) of \(run.keys.count)")
        #expect(ended == Array(run.keys.prefix(ended.count)), "answers in request order, none after the child's last")
    }

    @Test(
        "a child stopped (hung) when the worker is killed dies with the worker",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func hungChildDiesWithWorker() throws {
        let run = try Run.busy()
        let child = try #require(run.child(), "the worker forked no child for \(run.keys.count) types")
        kill(child, SIGSTOP)
        kill(run.worker.processIdentifier, SIGKILL)
        run.worker.waitUntilExit()
        // Gone, or a zombie left for whoever reaps orphans: either way no longer running.
        let deadline = Date().addingTimeInterval(10)
        var state = "?"
        while Date() < deadline {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) else {
                state = "gone"
                break
            }
            state = stat.split(separator: ")").last.map { String($0.dropFirst().prefix(1)) } ?? "?"
            if state == "Z" || state == "X" { break }
            usleep(1000)
        }
        #expect(["gone", "Z", "X"].contains(state), "the child is still \(state)")
    }
}
