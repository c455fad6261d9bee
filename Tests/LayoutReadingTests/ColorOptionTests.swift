import BinaryFixtures
import Foundation
import Testing

/// `--no-color` and `NO_COLOR` on every command with text output, run on a real terminal
/// (util-linux `script` gives the command a pseudo-terminal, where colour is on by default).
@Suite(
    "--no-color and NO_COLOR on every text command",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is missing"))
struct ColorOptionTests {
    static let escape = "\u{1B}["

    /// Runs typeinfo on a pseudo-terminal with `TERM=xterm` and no `NO_COLOR` unless `environment`
    /// says otherwise; returns what the terminal showed (both streams), with its `\r\n` made `\n`.
    static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, text: String) {
        let executable = try #require(TypeinfoExecutable.path)
        let command = ([executable] + arguments).map(shellQuoted).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        var inherited = ProcessInfo.processInfo.environment
        inherited["NO_COLOR"] = nil
        inherited["TERM"] = "xterm"
        process.environment = inherited.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return (process.terminationStatus, text)
    }

    static func shellQuoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Text with its SGR escape sequences (`ESC [ … m`) removed.
    static func withoutEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Each text command, with whether it colours its output on a terminal.
    static func commands() throws -> [(arguments: [String], colours: Bool)] {
        let fixture = try FixtureToolchain.product(.plain)
        let directory = ScratchDirectory.path(named: "color-option")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let snapshot = directory + "/layouts.json"
        let written = try DumpCommandTests.run(["snapshot", fixture, "--type", "Fixture.", "-o", snapshot])
        try #require(written.status == 0, "\(written.errors)")
        return [
            (["dump", fixture, "--type", "Fixture.Inner"], true),
            (["inspect", "--type", "Circle"], true),
            (["layout", fixture, "--type", "Fixture.MixedScalars"], false),
            (["check", fixture, "--against", snapshot], false),
            (["diff", snapshot, fixture], false),
        ]
    }

    @Test("on a terminal: --no-color and a non-empty NO_COLOR give the piped text without escapes; colour is the only difference")
    func everyCommand() throws {
        for (arguments, colours) in try Self.commands() {
            let name = arguments[0]
            let piped = try DumpCommandTests.run(arguments)
            #expect(piped.status == 0, "\(name): \(piped.errors)")
            #expect(piped.errors.isEmpty, "\(name): \(piped.errors)")
            #expect(!piped.output.contains(Self.escape), "\(name)")
            let coloured = try Self.runOnTerminal(arguments)
            let flag = try Self.runOnTerminal(arguments + ["--no-color"])
            let variable = try Self.runOnTerminal(arguments, environment: ["NO_COLOR": "1"])
            let dumb = try Self.runOnTerminal(arguments, environment: ["TERM": "dumb"])
            for refused in [flag, variable, dumb] {
                #expect(refused.status == 0, "\(name)")
                #expect(refused.text == piped.output, "\(name): the refused-colour text differs from the piped text")
            }
            #expect(coloured.status == 0, "\(name)")
            #expect(coloured.text.contains(Self.escape) == colours, "\(name)")
            #expect(Self.withoutEscapes(coloured.text) == piped.output, "\(name): colour changed more than colour")
        }
    }

    @Test("NO_COLOR set but empty does not turn colour off (https://no-color.org)")
    func emptyVariable() throws {
        let result = try Self.runOnTerminal(["inspect", "--type", "Circle"], environment: ["NO_COLOR": ""])
        #expect(result.status == 0)
        #expect(result.text.contains(Self.escape))
    }

    @Test("every text command's --help documents --no-color and NO_COLOR")
    func help() throws {
        for command in ["dump", "inspect", "layout", "check", "diff", "heap", "object", "tasks"] {
            let result = try DumpCommandTests.run([command, "--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.output.contains("--no-color"), "\(command)")
            // The help is wrapped to the terminal's width: compare with its words re-joined.
            let words = result.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("NO_COLOR environment variable is set and not empty"), "\(command)")
        }
    }
}
