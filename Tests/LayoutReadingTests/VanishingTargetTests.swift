import BinaryFixtures
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A process that exits while it is read is one line, exit status 2, from every live command:
/// never partial output, never a description the half-read memory seemed to give ("not a Swift
/// process", a malformed heap).
@Suite(
    "a target that exits while it is read", .serialized,
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct VanishingTargetTests {
    /// Runs `command` (with the fixture's id after its first word) and kills the fixture after
    /// `delay` microseconds; returns what typeinfo said.
    static func readKilling(_ command: [String], after delay: UInt32) throws -> (DumpCommandTests.Outcome, Int32) {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let typeinfo = try #require(TypeinfoExecutable.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: typeinfo)
        var arguments = command
        arguments.insert(String(fixture.processID), at: command.first == "dump" ? 2 : 1)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        usleep(delay)
        kill(fixture.processID, SIGKILL)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            DumpCommandTests.Outcome(
                status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                errors: String(decoding: errors, as: UTF8.self)),
            fixture.processID
        )
    }

    @Test func everyOutcomeIsAFullReadingOrTheOneLine() throws {
        // 30 readings, killed at moments spread over each command's own running time.
        let commands: [(arguments: [String], span: UInt32)] = [
            (["heap", "--format", "json"], 400_000), (["dump", "--pid", "--format", "json"], 1_500_000),
            (["tasks", "--format", "json"], 600_000),
        ]
        var exited = 0
        var complete = 0
        for attempt in 0..<30 {
            let (arguments, span) = commands[attempt % commands.count]
            let delay = UInt32.random(in: 50_000...span)
            let (outcome, processID) = try Self.readKilling(arguments, after: delay)
            let context = "\(arguments) killed after \(delay / 1000) ms: status \(outcome.status), errors \(outcome.errors)"
            if outcome.status == 0 {
                complete += 1
                #expect(outcome.errors.isEmpty, "\(context)")
                // Complete JSON: the document parses.
                #expect((try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8))) != nil, "\(context)")
            } else {
                exited += 1
                #expect(outcome.status == 2, "\(context)")
                #expect(outcome.output.isEmpty, "\(context)")
                // Gone before typeinfo first looked (a loaded machine starts it slowly): no such process.
                let messages = ["the process exited while it was being read", "no such process"].map {
                    "typeinfo: process \(processID): \($0)\n"
                }
                #expect(messages.contains(outcome.errors), "\(context)")
            }
        }
        // Both outcomes were met (else the delays missed the readings).
        #expect(exited > 0, "no reading was cut short (\(complete) complete)")
    }
}
