import BinaryFixtures
import Foundation
import Testing
@testable import BinaryInfo

/// `LoadableImage`: the loader's view of an image that TypeLowering's worker lays out in memory,
/// and the dependency information the reading process takes from `.dynamic`.
@Suite("Loadable images and their dependencies")
struct LoadableImageTests {
    @Test("DT_NEEDED and RUNPATH equal what readelf -d reports")
    func dynamicEntries() throws {
        let path = try FixtureToolchain.product(.plain)
        let info = try LoadableImage.dependencyInfo(ofFileAt: path)
        let printed = try FixtureToolchain.run("/usr/bin/env", ["readelf", "-dW", path], in: FixtureToolchain.buildDirectory)
        var needed: [String] = []
        var runPath: [String] = []
        for line in printed.split(separator: "\n") {
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]"), open < close else { continue }
            let value = String(line[line.index(after: open)..<close])
            if line.contains("(NEEDED)") { needed.append(value) }
            if line.contains("(RUNPATH)") || line.contains("(RPATH)") { runPath = value.split(separator: ":").map(String.init) }
        }
        #expect(!needed.isEmpty)
        #expect(info.needed == needed)
        #expect(info.searchPaths == runPath)
        #expect(info.isSwift)
        let image = try LoadableImage(path: path)
        #expect(image.neededLibraries == needed)
        #expect(image.swiftSections["swift5_fieldmd"] != nil)
        #expect(image.addressLimit > 0)
    }

    @Test("malformed files: one error with a one-line message, never a crash")
    func malformed() throws {
        let bytes = try MalformedInputTests.fixtureBytes()
        var inputs: [(String, [UInt8])] = [("empty", []), ("text", Array("hello\n".utf8))]
        for length in [16, 64, 200, bytes.count / 2] { inputs.append(("truncated-\(length)", Array(bytes.prefix(length)))) }
        // Corrupt the .dynamic section's entries (tags, string offsets) with a fixed seed.
        let headerOffset = Int(MalformedInputTests.load(UInt64.self, bytes, 0x28))
        let entrySize = Int(MalformedInputTests.load(UInt16.self, bytes, 0x3A))
        let count = Int(MalformedInputTests.load(UInt16.self, bytes, 0x3C))
        var dynamic: (offset: Int, size: Int)?
        for index in 0..<count where MalformedInputTests.load(UInt32.self, bytes, headerOffset + index * entrySize + 4) == 6 {
            dynamic = (
                Int(MalformedInputTests.load(UInt64.self, bytes, headerOffset + index * entrySize + 0x18)),
                Int(MalformedInputTests.load(UInt64.self, bytes, headerOffset + index * entrySize + 0x20))
            )
        }
        let section = try #require(dynamic, "the fixture has no .dynamic section")
        var state: UInt64 = 0x0D1A_3C5E
        for variant in 0..<16 {
            var corrupted = bytes
            for _ in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let position = section.offset + Int((state >> 33) % UInt64(section.size))
                corrupted[position] = UInt8(truncatingIfNeeded: state >> 20)
            }
            inputs.append(("dynamic-\(variant)", corrupted))
        }
        for (name, input) in inputs {
            let path = try MalformedInputTests.write(input, named: "loadable-" + name)
            for attempt in 0..<2 {
                do {
                    if attempt == 0 { _ = try LoadableImage.dependencyInfo(ofFileAt: path) } else { _ = try LoadableImage(path: path) }
                } catch {
                    #expect(error.description.hasPrefix(path + ": ") && !error.description.contains("\n"), "\(name): \(error)")
                }
            }
        }
    }

    @Test("an object file is refused with what to do")
    func objectFile() throws {
        let path = try FixtureToolchain.product(.object)
        #expect(throws: BinaryInfoError.unsupported(path: path, detail: "a relocatable object (.o) has no load addresses; link it first")) {
            try LoadableImage(path: path)
        }
    }
}
