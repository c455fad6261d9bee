import Testing
import TypeLayout
@testable import BinaryInfo

/// A stripped binary has no `.symtab`: static metadata is found through dynamic relocations instead.
@Suite("Stripped binaries")
struct StrippedBinaryTests {
    @Test("layouts survive `strip`; the summary says what was lost")
    func strippedMatchesOracle() throws {
        let original = try FixtureToolchain.product(.plain)
        let stripped = FixtureToolchain.buildDirectory + "/fixture-stripped"
        try FixtureToolchain.run("/usr/bin/env", ["strip", "-o", stripped, original], in: FixtureToolchain.buildDirectory)
        let document = try BinaryImage.layouts(atPath: stripped)
        #expect(document.image.hasSymbols == false)
        #expect(document.image.notes.contains { $0.contains("stripped") })
        let oracle = try FixtureToolchain.oracle(.plain)
        for expected in oracle where !expected.isPrivate {
            guard let actual = FixtureDumpTests.find(expected, in: document.types) else {
                Issue.record("stripped: \(expected.name) not in the dump")
                continue
            }
            FixtureDumpTests.compare(expected, actual, build: .plain)
        }
        // Private types are still listed, named without their file discriminator.
        let privateThing = try #require(oracle.first { $0.simpleName == "PrivateThing" })
        #expect(document.types.contains { $0.name == "Fixture.PrivateThing" && $0.size == privateThing.size })
    }
}
