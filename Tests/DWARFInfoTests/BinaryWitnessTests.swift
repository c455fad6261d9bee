import BinaryInfo
import Testing
import TypeLayout
@testable import DWARFInfo

/// The comparison as the CLI runs it: metadata read from the file by BinaryInfo, DWARF read from
/// the same file, and the report checked against the fixture program's own runtime truth.
@Suite struct BinaryWitnessTests {
    @Test("BinaryInfo's metadata and the runtime truth give the same witness report")
    func metadataFromDisk() throws {
        let built = try FixtureToolchain.swiftFixture.get()
        let truth = try SwiftRuntimeTruth.layouts(from: built.output)
        let metadata = try BinaryImage.layouts(atPath: built.executable, runtimeLibrary: ToolchainRuntime.libswiftCore).types
        let dwarf = try DWARFReader(path: built.executable).typeLayouts(languages: .swift)

        let fromDisk = LayoutWitnessComparison.compare(metadata: metadata, dwarf: dwarf)
        let fromRuntime = LayoutWitnessComparison.compare(metadata: truth, dwarf: dwarf)
        // Every fixture type is matched by name between the two readers.
        #expect(Set(fromDisk.comparedTypes).isSuperset(of: Set(truth.map(\.name))))
        #expect(fromDisk.typesWithoutDWARF.isEmpty, "\(fromDisk.typesWithoutDWARF)")
        // The metadata on disk and the running program agree, so their reports do too.
        let fixtureNames = Set(truth.map(\.name))
        #expect(Set(fromDisk.disagreements.filter { fixtureNames.contains($0.typeName) }) == Set(fromRuntime.disagreements))
        #expect(!fromRuntime.disagreements.isEmpty)
    }
}
