import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// The pahole-like text `typeinfo dump` prints, checked against the fixture's own runtime and
/// against a golden file (regenerate with `BINARYINFO_RECORD_GOLDEN=1 swift test --filter TextRendererTests`).
@Suite("Text rendering of dumped layouts")
struct TextRendererTests {
    static let goldenPath = FixtureToolchain.fixturesDirectory + "/golden/fixture-dump.txt"

    /// The fixture's dump without private types (their discriminators hash the source file name)
    /// and with a fixed image path, so the text depends only on the compiler and the reader.
    static func stableDocument() throws -> LayoutDocument {
        var document = try BinaryImage.layouts(atPath: FixtureToolchain.product(.plain), runtimeLibrary: ToolchainRuntime.libswiftCore)
        document.image.path = "fixture-plain"
        document.types.removeAll { $0.name.contains(" in _") }
        return document
    }

    @Test("every field row shows the runtime's offset, the name and var/let")
    func rowsAgreeWithOracle() throws {
        let document = try Self.stableDocument()
        let renderer = LayoutTextRenderer()
        for expected in try FixtureToolchain.oracle(.plain) where !expected.isPrivate {
            guard let type = expected.find(in: document.types) else {
                Issue.record("\(expected.name) not in the dump")
                continue
            }
            let lines = renderer.render(type).split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("\(expected.kind) ") == true, "\(expected.name): title line")
            for field in expected.fields {
                let offset = expected.generic ? "?" : String(field.offset)
                let row = lines.first { line in
                    let words = line.split(separator: " ")
                    return words.first.map(String.init) == offset && line.contains(" \(field.name): ")
                }
                #expect(row != nil, "\(expected.name): no row with offset \(offset) for \(field.name)")
            }
            for name in expected.cases {
                #expect(lines.contains { $0.contains("case \(name)") }, "\(expected.name): case \(name)")
            }
        }
    }

    @Test("colour only when asked for")
    func colour() throws {
        let document = try Self.stableDocument()
        #expect(!LayoutTextRenderer().render(document).contains("\u{1B}["))
        #expect(LayoutTextRenderer(.init(color: true)).render(document).contains("\u{1B}["))
    }

    @Test("golden output")
    func golden() throws {
        let text = LayoutTextRenderer().render(try Self.stableDocument())
        if ProcessInfo.processInfo.environment["BINARYINFO_RECORD_GOLDEN"] != nil {
            try FileManager.default.createDirectory(
                atPath: (Self.goldenPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        if text != golden {
            let actual = text.split(separator: "\n", omittingEmptySubsequences: false)
            let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(actual.count, expected.count)).first { actual[$0] != expected[$0] } ?? min(actual.count, expected.count)
            Issue.record(
                """
                dump text differs from \(Self.goldenPath) at line \(first + 1):
                  golden: \(first < expected.count ? String(expected[first]) : "<end>")
                  actual: \(first < actual.count ? String(actual[first]) : "<end>")
                (BINARYINFO_RECORD_GOLDEN=1 regenerates it after an intended change)
                """)
        }
    }
}
