import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// Bad input gets one clear error, never a crash, a trap or a hang.
@Suite("Malformed and non-Swift input")
struct MalformedInputTests {
    static func write(_ bytes: [UInt8], named name: String) throws -> String {
        let path = FixtureToolchain.buildDirectory + "/malformed-" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func fixtureBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try FixtureToolchain.product(.plain))))
    }

    static func expectError(_ path: String, _ matches: (BinaryInfoError) -> Bool, _ comment: Comment) {
        do {
            _ = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
            Issue.record("\(comment): read without error")
        } catch {
            #expect(matches(error), "\(comment): got \(error)")
            #expect(error.path == path, "\(comment): \(error)")
            #expect(error.description == "\(path): \(error.problem)" && !error.description.contains("\n"), "\(comment)")
        }
    }

    /// The message `typeinfo` prints for `path` (after its `typeinfo: ` prefix), from the reader.
    static func message(reading path: String) -> String? {
        do {
            _ = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("missing file, directory, empty file, text file")
    func notAnELFFile() throws {
        let missing = "/nonexistent/definitely-not-here"
        Self.expectError(missing, { $0 == .fileNotFound(path: missing) }, "missing file")
        let directory = FixtureToolchain.buildDirectory
        Self.expectError(directory, { $0 == .isDirectory(path: directory) }, "directory")
        let empty = try Self.write([], named: "empty")
        Self.expectError(empty, { $0 == .notELF(path: empty) }, "empty file")
        let text = try Self.write(Array("hello, world\n".utf8), named: "text")
        Self.expectError(text, { $0 == .notELF(path: text) }, "text file")
    }

    @Test("each file error is one line naming the file, with the system's reason where it has one")
    func fileErrorMessages() throws {
        #expect(Self.message(reading: "/nonexistent/definitely-not-here") == "/nonexistent/definitely-not-here: no such file")
        let directory = FixtureToolchain.buildDirectory
        #expect(Self.message(reading: directory) == "\(directory): is a directory, not an ELF file")
        // Reading /proc/self/mem at offset 0 fails with EIO whoever runs the test (root included).
        #expect(Self.message(reading: "/proc/self/mem") == "/proc/self/mem: cannot read the file: \(String(cString: strerror(EIO)))")
        let truncated = try Self.write(Array(try Self.fixtureBytes().prefix(16)), named: "truncated-header")
        #expect(Self.message(reading: truncated) == "\(truncated): malformed ELF file: truncated ELF header (16 bytes)")
    }

    @Test(
        "a file without read permission names the system's reason",
        .enabled(if: getuid() != 0, "root reads files whatever their permissions")
    )
    func permissionDenied() throws {
        let path = try Self.write(try Self.fixtureBytes(), named: "no-permission")
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        #expect(Self.message(reading: path) == "\(path): cannot read the file: \(String(cString: strerror(EACCES)))")
    }

    @Test("truncated ELF files")
    func truncated() throws {
        let bytes = try Self.fixtureBytes()
        for length in [4, 16, 63, 64, 200, bytes.count / 2, bytes.count - 1] {
            let path = try Self.write(Array(bytes.prefix(length)), named: "truncated-\(length)")
            Self.expectError(path, { _ in true }, "truncated to \(length) bytes")
        }
    }

    @Test("32-bit ELF header is refused as unsupported")
    func thirtyTwoBit() throws {
        var bytes = try Self.fixtureBytes()
        bytes[4] = 1  // ELFCLASS32
        Self.expectError(
            try Self.write(bytes, named: "elf32"),
            {
                if case .unsupported = $0 { return true } else { return false }
            }, "ELFCLASS32")
    }

    @Test("a section pointing outside the file")
    func sectionOutsideFile() throws {
        var bytes = try Self.fixtureBytes()
        let document = try BinaryImage.layouts(of: bytes, name: "fixture", runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(!document.types.isEmpty)
        // Section headers: e_shoff (+0x28, 8 bytes), e_shentsize (+0x3A), e_shnum (+0x3C); sh_offset at +0x18 in each.
        let headerOffset = Int(Self.load(UInt64.self, bytes, 0x28))
        let entrySize = Int(Self.load(UInt16.self, bytes, 0x3A))
        let count = Int(Self.load(UInt16.self, bytes, 0x3C))
        // Point the last PROGBITS section (sh_type 1) far past the end of the file.
        for index in (1..<count).reversed() where Self.load(UInt32.self, bytes, headerOffset + index * entrySize + 4) == 1 {
            Self.store(UInt64(bytes.count) * 4, &bytes, headerOffset + index * entrySize + 0x18)
            break
        }
        Self.expectError(
            try Self.write(bytes, named: "section-outside"),
            { error in
                if case .outOfBounds = error { return true }
                if case .malformedELF = error { return true }
                return false
            }, "section outside the file")
    }

    @Test("an ELF file without Swift sections")
    func nonSwiftELF() throws {
        let source = FixtureToolchain.buildDirectory + "/plain.c"
        try "int main(void) { return 0; }\n".write(toFile: source, atomically: true, encoding: .utf8)
        let binary = FixtureToolchain.buildDirectory + "/plain-c"
        do {
            try FixtureToolchain.run("/usr/bin/env", ["cc", "-o", binary, source], in: FixtureToolchain.buildDirectory)
        } catch {
            // No C compiler: any system executable is a non-Swift ELF file.
            try FileManager.default.copyItem(atPath: "/bin/true", toPath: binary)
        }
        Self.expectError(binary, { $0 == .notSwift(path: binary) }, "C program")
    }

    @Test("random corruption of the Swift sections never crashes")
    func corruptedSwiftSections() throws {
        let bytes = try Self.fixtureBytes()
        // The Swift sections' file range, from the section headers.
        let headerOffset = Int(Self.load(UInt64.self, bytes, 0x28))
        let entrySize = Int(Self.load(UInt16.self, bytes, 0x3A))
        let count = Int(Self.load(UInt16.self, bytes, 0x3C))
        let names = Int(Self.load(UInt16.self, bytes, 0x3E))
        let namesOffset = Int(Self.load(UInt64.self, bytes, headerOffset + names * entrySize + 0x18))
        var ranges: [Range<Int>] = []
        for index in 0..<count {
            let header = headerOffset + index * entrySize
            let nameStart = namesOffset + Int(Self.load(UInt32.self, bytes, header))
            let name = String(decoding: bytes[nameStart...].prefix { $0 != 0 }, as: UTF8.self)
            let offset = Int(Self.load(UInt64.self, bytes, header + 0x18))
            let size = Int(Self.load(UInt64.self, bytes, header + 0x20))
            if name.hasPrefix("swift5_") || name == ".data.rel.ro" || name == ".rela.dyn", size > 0 {
                ranges.append(offset..<(offset + size))
            }
        }
        #expect(!ranges.isEmpty)
        var generator = SplitMix64(seed: 0x5EED)
        var readable = 0
        for _ in 0..<300 {
            var corrupt = bytes
            for _ in 0..<8 {
                let range = ranges[Int(generator.next() % UInt64(ranges.count))]
                let position = range.lowerBound + Int(generator.next() % UInt64(range.count))
                corrupt[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                _ = try BinaryImage.layouts(of: corrupt, name: "corrupt", runtimeLibrary: ToolchainRuntime.libswiftCore)
                readable += 1
            } catch {
                // A clear error is a fine outcome.
            }
        }
        #expect(readable > 0)
    }

    static func load<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        var value = T.zero
        for index in 0..<MemoryLayout<T>.size { value |= T(bytes[offset + index]) << (8 * index) }
        return value
    }

    static func store<T: FixedWidthInteger>(_ value: T, _ bytes: inout [UInt8], _ offset: Int) {
        for index in 0..<MemoryLayout<T>.size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}

/// A small deterministic generator, so a corruption that breaks the reader can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
