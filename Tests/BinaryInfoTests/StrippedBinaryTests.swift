import BinaryFixtures
import Testing
import TypeLayout
@testable import BinaryInfo

/// A stripped binary has no `.symtab`: static metadata is found through dynamic relocations instead.
@Suite("Stripped binaries")
struct StrippedBinaryTests {
    @Test("layouts survive `strip`; the summary says what was lost", arguments: [FixtureBuild.plain, .packedRelocations])
    func strippedMatchesOracle(build: FixtureBuild) throws {
        let original = try FixtureToolchain.product(build)
        let stripped = FixtureToolchain.buildDirectory + "/" + build.product + "-stripped"
        try FixtureToolchain.run("/usr/bin/env", ["strip", "-o", stripped, original], in: FixtureToolchain.buildDirectory)
        if build == .packedRelocations {
            // The point of this build: no RELATIVE entries in .rela.dyn, all of them packed in .relr.dyn.
            let sections = try FixtureToolchain.run("/usr/bin/env", ["readelf", "-SW", stripped], in: FixtureToolchain.buildDirectory)
            #expect(sections.contains(".relr.dyn"))
        }
        let document = try BinaryImage.layouts(atPath: stripped, runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(document.image.hasSymbols == false)
        #expect(document.image.notes.first == .symbolTableMissing)
        let oracle = try FixtureToolchain.oracle(build)
        for expected in oracle where !expected.isPrivate {
            guard let actual = expected.find(in: document.types) else {
                Issue.record("stripped: \(expected.name) not in the dump")
                continue
            }
            FixtureDumpTests.compare(expected, actual, build: build)
        }
        // Private types are still listed, named without their file discriminator.
        let privateThing = try #require(oracle.first { $0.simpleName == "PrivateThing" })
        #expect(document.types.contains { $0.name == "Fixture.PrivateThing" && $0.size == privateThing.size })
    }
}
