import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `LiveDumpReader` (`typeinfo dump --pid`'s library entry point) as a Swift 5 language mode
/// client calls it, against the instantiations the LiveGenerics fixture prints of itself.
@Suite(
    "Live dump from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct LiveDumpSwift5Tests {
    /// Only the three enum lowerings have a storage strategy, each its own.
    @Test func enumLoweringsNameTheirStrategy() {
        let strategies = LoweredKind.allCases.compactMap { kind in kind.enumStrategy.map { (kind, $0) } }
        #expect(strategies.map(\.0) == [.noPayloadEnum, .singlePayloadEnum, .multiPayloadEnum])
        #expect(strategies.map(\.1) == [.noPayload, .singlePayload, .multiPayload])
    }

    @Test func instantiationsAndImagesOfAProcess() throws {
        let fixture = try LiveGenericsFixture(.dynamic, listsMetadataAllocations: true)
        defer { fixture.finish() }
        let dump = try LiveDumpReader.read(
            LiveTargetOptions(target: .process(fixture.processID), pauses: true),
            selection: try TypeFilter(typePatterns: [], modules: ["LiveGenerics"]), reading: LayoutReadOptions(readsDWARF: false))
        #expect(dump.instantiations.types.map(\.name).sorted() == fixture.report.types.map(\.type).sorted())
        for expected in fixture.report.types {
            let type = dump.instantiations.types.first { $0.name == expected.type }
            #expect(type?.size == expected.size, "\(expected.type)")
            #expect(type?.stride == expected.stride, "\(expected.type)")
            #expect(type?.fields.map(\.offset) == expected.fields.map(\.offset), "\(expected.type)")
        }
        #expect(!dump.instantiations.image.notes.contains(.instantiationsReadWhileRunning))
        let executable = try #require(dump.images.first { $0.image.mappedPath == fixture.executable })
        #expect(try executable.result.get().document.types.contains { $0.name == "LiveGenerics.Holder" })
        // A process that does not exist is the typed error.
        #expect(throws: LiveReadingError.self) {
            try LiveDumpReader.read(LiveTargetOptions(target: .process(2_147_483_000)))
        }
    }
}
