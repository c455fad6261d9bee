import Foundation
import Testing

/// The project's formatting is the toolchain's `swift-format` with the repository's
/// `.swift-format` configuration; this test is the check CI runs, so a change that is not
/// formatted fails here with the lines to fix (run `swift format -i -r Sources Tests Plugins`).
@Suite struct SourceFormattingTests {
    /// The repository root: this file is at Tests/TypeLayoutTests/SourceFormattingTests.swift.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `swift-format` from the toolchain that runs the tests, found on the PATH or beside `swift`.
    static let formatter: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift-format")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    @Test(
        "Sources, Tests and Plugins are formatted as .swift-format says",
        .enabled(if: formatter != nil, "swift-format is not on the PATH (it ships with the Swift toolchain in usr/bin)"))
    func sourcesAreFormatted() throws {
        guard let formatter = Self.formatter else { return }
        let process = Process()
        process.executableURL = formatter
        process.currentDirectoryURL = Self.root
        process.arguments = ["lint", "--strict", "--parallel", "--recursive", "Sources", "Tests", "Plugins"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let findings = text.split(separator: "\n").filter { $0.contains(": warning: ") || $0.contains(": error: ") }
        #expect(
            process.terminationStatus == 0 && findings.isEmpty,
            "swift-format lint found \(findings.count) problems; run `swift format -i -r Sources Tests Plugins`:\n\(findings.prefix(20).joined(separator: "\n"))"
        )
    }
}
