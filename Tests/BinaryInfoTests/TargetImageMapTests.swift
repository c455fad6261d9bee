import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// The image map one reader of a target hands another: its text form read back as it was
/// written, a target opened on it the same as one opened by matching files, and every value of
/// a malformed map refused with the line that holds it.
@Suite("Target image maps", .serialized)
struct TargetImageMapTests {
    static func same(_ one: TargetImage, _ other: TargetImage) -> Bool {
        one.mappedPath == other.mappedPath && one.filePath == other.filePath && one.loadAddress == other.loadAddress
            && one.loadBias == other.loadBias && one.addressRange == other.addressRange && one.buildID == other.buildID
            && one.swiftSections == other.swiftSections && one.fileMappings.map(\.range) == other.fileMappings.map(\.range)
            && one.fileMappings.map(\.fileOffset) == other.fileMappings.map(\.fileOffset) && one.file.count == other.file.count
    }

    @Test(arguments: LiveHeapFixture.Linking.allCases)
    func aProcessOpenedOnItsMap(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let matched = try TargetMemory(.process(fixture.processID))
        let map = matched.imageMap
        #expect(map.images.count == matched.images.count)
        #expect(try TargetImageMap(lines: map.lines) == map)
        let opened = try TargetMemory(.process(fixture.processID), imageMap: try TargetImageMap(lines: map.lines))
        #expect(opened.images.count == matched.images.count)
        for (one, other) in zip(opened.images, matched.images) { #expect(Self.same(one, other), "\(one.mappedPath)") }
        #expect(opened.executable?.loadAddress == matched.executable?.loadAddress)
        let metadata = UInt64(fixture.report.types[0].metadata.dropFirst(2), radix: 16) ?? 0
        #expect(
            try opened.bytes(at: metadata, count: 64, what: "metadata") == (try matched.bytes(at: metadata, count: 64, what: "metadata")))
    }

    /// A file gone or of another build since the map was made: the error names the image by the
    /// path the target mapped it from.
    @Test func anImageFileGoneOrChangedIsNamed() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let map = try TargetMemory(.process(fixture.processID)).imageMap
        let index = try #require(map.images.firstIndex { $0.mappedPath == fixture.executable })
        let image = map.images[index]
        var gone = map
        gone.images[index].filePath = "/nonexistent" + image.filePath
        let path = "process \(fixture.processID)"
        #expect(throws: BinaryInfoError.imageMissing(path: path, image: image.mappedPath, buildID: image.buildID?.description)) {
            try TargetMemory(.process(fixture.processID), imageMap: gone)
        }
        var changed = map
        let other = try #require(map.images.first { $0.mappedPath.contains("/libc.so") })
        changed.images[index].filePath = other.filePath
        #expect(
            throws: BinaryInfoError.imageDiffers(
                path: path, image: image.mappedPath, expected: image.buildID?.description ?? "none",
                found: other.buildID?.description ?? "none", foundPath: other.filePath)
        ) {
            try TargetMemory(.process(fixture.processID), imageMap: changed)
        }
    }

    @Test func malformedMapsAreRefusedByLine() throws {
        let image = "image 0x1000 0x0 0x1000 0x3000 0a0b /lib/a b.so"
        #expect(
            try TargetImageMap(lines: [
                image, "file /proc/1/map_files/1000-3000", "mapping 0x1000 0x2000 0x0", "section swift5_fieldmd 0x1800 0x1900",
                "executable 0x1000",
            ])
                == TargetImageMap(
                    images: [
                        .init(
                            mappedPath: "/lib/a b.so", filePath: "/proc/1/map_files/1000-3000", loadAddress: 0x1000, loadBias: 0,
                            addressRange: 0x1000..<0x3000, buildID: BuildID([0x0a, 0x0b]), sections: ["swift5_fieldmd": 0x1800..<0x1900],
                            mappings: [.init(range: 0x1000..<0x2000, fileOffset: 0)])
                    ], executable: 0x1000))
        let cases: [([String], String)] = [
            (
                ["image 0x4000 0x0 0x1000 0x3000 - /a"],
                "line 1: not 'image 0xload 0xbias 0xlow 0xhigh build-id path' with low <= load < high"
            ),
            (["image 0x1000 0x0 0x1000 0x3000 abc /a", "file /a"], "line 1: the build id is not 1 to 64 bytes of hex"),
            (["image 0x1000 0x0 0x1000 0x3000 - a", "file /a"], "line 1: the mapped path is not an absolute path of at most 4096 bytes"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a"], "line 1: the image has no 'file' line"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "mapping 0x1000 0x4000 0x0"], "line 3: not 'mapping"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "mapping 0x1000 0x2000 0xffffffffffffffff"], "line 3: not 'mapping"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "section text 0x1000 0x2000"], "line 3: not 'section"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "executable 0x2000"], "line 3: no image is loaded there"),
            (
                ["image 0x2000 0x0 0x1000 0x3000 - /a", "file /a", "image 0x1000 0x0 0x1000 0x3000 - /b", "file /b"],
                "line 3: more than 65536 images, or not in increasing load address"
            ),
            (["mapping 0x1000 0x2000 0x0"], "line 1: no image with its file before"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "file /b"], "line 3: no image without a file before"),
            (["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a", "program /a"], "line 3: not a line of an image map"),
        ]
        for (lines, detail) in cases {
            do {
                _ = try TargetImageMap(lines: lines)
                Issue.record("accepted \(lines)")
            } catch {
                #expect(error.description.hasPrefix("image map " + detail), "\(error.description) lacks \(detail)")
            }
        }
        let many = ["image 0x1000 0x0 0x1000 0x3000 - /a", "file /a"] + (0...4096).map { _ in "mapping 0x1000 0x2000 0x0" }
        #expect(throws: TargetImageMap.MalformedLine(line: 4099, detail: "more than 4096 mappings", text: "mapping 0x1000 0x2000 0x0")) {
            try TargetImageMap(lines: many)
        }
    }
}
