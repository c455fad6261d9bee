import BinaryFixtures
import Foundation
import Testing
@testable import BinaryInfo

/// `FileBytes.releasePages(in:)`: a reading lets the pages it is done with leave the process's
/// resident memory. Released bytes must read the same afterwards, and bytes that are not an
/// unwritten mapping of the file (heap storage, an object file's applied relocations) must be
/// left alone. The oracle for the bytes is the file as `FileManager` reads it, and for the
/// release, the mapping's `Rss` in `/proc/self/smaps`.
@Suite("Released pages read the same")
struct ReleasedPagesTests {
    @Test("a released range of a mapped file reads the file's bytes again, and its whole pages leave the resident set")
    func mappedFile() throws {
        let page = FileBytes.pageSize
        let path = NSTemporaryDirectory() + "typeinfo-released-pages-\(getpid()).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var generator = SplitMix64(seed: 0x9A6E_5EED)
        let size = 64 * page + 123
        let written = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        try Data(written).write(to: URL(fileURLWithPath: path))
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))

        let bytes = try ImageLoader.readFile(path)
        try #require(bytes.storage == .mapped, "the file was read into heap memory: nothing to release")
        let base = try #require(bytes.buffer.baseAddress)
        #expect(try Self.all(bytes) == onDisk)
        let touched = try #require(Self.residentKilobytes(ofMappingAt: base), "no /proc/self/smaps entry for the mapping")

        // From inside page 2 to inside page 63 (the file's 65th page holds its last 123 bytes):
        // pages 3 to 62 are the whole ones, and only they leave.
        bytes.releasePages(in: UInt64(2 * page + 1)..<UInt64(size - 200))
        let released = try #require(Self.residentKilobytes(ofMappingAt: base))
        #expect(touched == 65 * page / 1024)
        #expect(released == touched - 60 * page / 1024)
        #expect(try Self.all(bytes) == onDisk)

        // Ranges past the end, empty or inside one page do nothing wrong.
        bytes.releasePages(in: UInt64(size)..<UInt64.max)
        bytes.releasePages(in: 5..<5)
        bytes.releasePages(in: 10..<20)
        #expect(try Self.all(bytes) == onDisk)
    }

    @Test("bytes held in heap memory are left as they are")
    func heapStorage() throws {
        var generator = SplitMix64(seed: 0x4EA9)
        let content = (0..<(16 * FileBytes.pageSize)).map { _ in UInt8(truncatingIfNeeded: generator.next() | 1) }
        let bytes = FileBytes(content, path: "heap")
        #expect(bytes.storage == .allocated)
        bytes.releasePages(in: 0..<UInt64(content.count))
        #expect(try Self.all(bytes) == content)
    }

    @Test("an object file's applied relocations survive a release of the whole file")
    func relocatedObjectFile() throws {
        let path = try FixtureToolchain.product(.object)
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try ImageFile(path: path)
        try #require(file.bytes.storage == .mapped, "the object file was read into heap memory: no mapping to test")
        // The static reading lays the object out, applying its relocations into the mapping.
        _ = try BinaryImage.read(file, runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(file.bytes.hasWrites)
        let relocated = try Self.all(file.bytes)
        #expect(relocated != onDisk, "no relocation changed a byte: the test could not tell a lost write")
        file.releasePages(inFileRange: 0..<UInt64(file.count))
        #expect(try Self.all(file.bytes) == relocated)
    }

    /// Every byte, through the bounds-checked copy readers use.
    static func all(_ bytes: FileBytes) throws -> [UInt8] {
        var copy = [UInt8](repeating: 0, count: bytes.count)
        try copy.withUnsafeMutableBytes { try bytes.fetch(into: $0, fromOffset: 0, what: "all") }
        return copy
    }

    /// The `Rss:` of the mapping starting at `address`, in kilobytes, from `/proc/self/smaps`.
    static func residentKilobytes(ofMappingAt address: UnsafeMutableRawPointer) -> Int? {
        // procfs reports size 0, which ImageLoader reads to the end.
        guard let file = try? ImageLoader.readFile("/proc/self/smaps") else { return nil }
        let smaps = String(decoding: UnsafeRawBufferPointer(rebasing: file.buffer[0..<file.count]), as: UTF8.self)
        let start = String(UInt(bitPattern: address), radix: 16)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), !line.hasSuffix(" kB"), line.first?.isHexDigit == true {
                inMapping = line[..<dash].drop { $0 == "0" } == start.drop { $0 == "0" }
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ")[1])
            }
        }
        return nil
    }
}
