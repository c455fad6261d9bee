import Foundation
import Testing
@testable import DWARFInfo

/// Every malformed input gets one typed error and never a crash, a trap or a hang.
@Suite struct BadInputTests {
    static func write(_ bytes: [UInt8], named name: String) throws -> String {
        let url = FixtureToolchain.workDirectory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    static func objectBytes() throws -> [UInt8] {
        let object = try #require(try FixtureToolchain.cObjects.get()["clang-5"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
    }

    /// Reads both steps and returns the error, or nil when reading succeeded.
    static func error(reading path: String) -> DWARFReaderError? {
        do {
            _ = try DWARFReader(path: path).typeLayouts()
            return nil
        } catch {
            return error
        }
    }

    @Test("a missing file")
    func missingFile() {
        let path = FixtureToolchain.workDirectory.appendingPathComponent("does-not-exist.o").path
        #expect(Self.error(reading: path) == .fileNotFound(path: path))
        #expect(Self.error(reading: path)?.description == "\(path): no such file")
    }

    @Test("a directory")
    func directory() {
        let path = FixtureToolchain.workDirectory.path
        #expect(Self.error(reading: path) == .notARegularFile(path: path))
    }

    @Test("an empty file and a text file are not ELF")
    func notELF() throws {
        let empty = try Self.write([], named: "empty.o")
        #expect(Self.error(reading: empty) == .notELF(path: empty))
        let text = try Self.write(Array("struct point { int x; };\n".utf8), named: "text.o")
        #expect(Self.error(reading: text) == .notELF(path: text))
    }

    @Test("a file cut inside the ELF header")
    func truncatedHeader() throws {
        let bytes = try Self.objectBytes()
        let path = try Self.write(Array(bytes.prefix(40)), named: "header-only.o")
        guard case .truncated(let reportedPath, _) = Self.error(reading: path) else {
            Issue.record("expected .truncated, got \(String(describing: Self.error(reading: path)))")
            return
        }
        #expect(reportedPath == path)
    }

    @Test("an ELF object without debug information")
    func noDebugInfo() throws {
        let object = FixtureToolchain.workDirectory.appendingPathComponent("layouts-nodebug.o").path
        try FixtureToolchain.run(FixtureToolchain.clang, ["-c", FixtureToolchain.cSource.path, "-o", object])
        #expect(Self.error(reading: object) == .noDebugInfo(path: object))
    }

    @Test("an object cut short at many lengths", arguments: [64, 200, 1000, 2000, 3000, 4000, 6000])
    func truncatedFile(length: Int) throws {
        let bytes = try Self.objectBytes()
        try #require(length < bytes.count)
        let path = try Self.write(Array(bytes.prefix(length)), named: "truncated-\(length).o")
        // Whatever libdwarf makes of it, the answer is a typed error naming the file.
        let error = try #require(Self.error(reading: path))
        #expect(error.description.hasPrefix(path))
    }

    /// The `.debug_*` sections of a 64-bit little-endian ELF file: (name, offset, size).
    static func debugSections(of bytes: [UInt8]) throws -> [(name: String, offset: Int, size: Int)] {
        func integer(_ offset: Int, _ width: Int) throws -> Int {
            guard offset >= 0, offset + width <= bytes.count else { throw FixtureError(description: "section table out of range") }
            var value = 0
            for index in (0..<width).reversed() { value = value << 8 | Int(bytes[offset + index]) }
            return value
        }
        let table = try integer(0x28, 8)
        let entrySize = try integer(0x3A, 2)
        let count = try integer(0x3C, 2)
        let namesIndex = try integer(0x3E, 2)
        let names = try integer(table + namesIndex * entrySize + 0x18, 8)
        var sections: [(String, Int, Int)] = []
        for index in 0..<count {
            let header = table + index * entrySize
            var nameStart = names + (try integer(header, 4))
            var name = ""
            while nameStart < bytes.count, bytes[nameStart] != 0 {
                name.append(Character(UnicodeScalar(bytes[nameStart])))
                nameStart += 1
            }
            if name.hasPrefix(".debug_") {
                sections.append((name, try integer(header + 0x18, 8), try integer(header + 0x20, 8)))
            }
        }
        return sections
    }

    @Test("corrupted .debug_info headers give a typed error")
    func corruptedUnitHeader() throws {
        var bytes = try Self.objectBytes()
        let info = try #require(try Self.debugSections(of: bytes).first { $0.name == ".debug_info" })
        // A unit length far past the end of the section.
        for index in 0..<4 { bytes[info.offset + index] = 0xF0 }
        let path = try Self.write(bytes, named: "bad-unit-length.o")
        let error = try #require(Self.error(reading: path))
        #expect(error.description.hasPrefix(path))
    }

    /// libdwarf 20210528 frees memory twice (and the process aborts) on a malformed
    /// .debug_rnglists unit header; the reader must refuse such a file before libdwarf reads it.
    /// Found by Tools/fuzz-dwarfinfo: a unit length past the section's end. Without the check
    /// this test takes the whole test process down.
    @Test(
        "malformed .debug_rnglists unit headers are refused before libdwarf reads them",
        arguments: ["length", "version", "addressSize", "offsetTable"])
    func malformedRangeLists(corruption: String) throws {
        let object = FixtureToolchain.workDirectory.appendingPathComponent("rnglists-\(corruption).o").path
        // Inline functions in their own sections give a C++ object DWARF 5 range lists.
        try FixtureToolchain.run(
            FixtureToolchain.clangPlusPlus,
            [
                "-g", "-gdwarf-5", "-ffunction-sections", "-c", FixtureToolchain.cPlusPlusSource.path, "-o", object,
            ])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
        let ranges = try #require(try Self.debugSections(of: bytes).first { $0.name == ".debug_rnglists" })
        switch corruption {
        case "length": bytes[ranges.offset + 1] = 0x01  // unit length + 256
        case "version": bytes[ranges.offset + 4] = 0x00
        case "addressSize": bytes[ranges.offset + 6] = 0x03
        default: bytes[ranges.offset + 11] = 0x7F  // offset_entry_count high byte
        }
        let path = try Self.write(bytes, named: "rnglists-\(corruption)-bad.o")
        guard case .malformedDebugInfo(let reported, _, let detail) = Self.error(reading: path) else {
            Issue.record("expected .malformedDebugInfo, got \(String(describing: Self.error(reading: path)))")
            return
        }
        #expect(reported == path)
        #expect(detail.hasPrefix(".debug_rnglists"))
        // The untouched object reads.
        #expect(Self.error(reading: object) == nil)
    }

    /// libdwarf sizes an allocation from a section group's size before checking it (found by
    /// Tools/fuzz-dwarfinfo); the read must still end in one typed error, not a crash.
    @Test("a section group claiming 16 GB gives a typed error")
    func hugeSectionGroup() throws {
        let object = FixtureToolchain.workDirectory.appendingPathComponent("groups.o").path
        try FixtureToolchain.run(
            FixtureToolchain.clangPlusPlus,
            [
                "-g", "-gdwarf-5", "-fdebug-types-section", "-c", FixtureToolchain.cPlusPlusSource.path, "-o", object,
            ])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
        func integer(_ offset: Int, _ width: Int) -> Int {
            (0..<width).reversed().reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
        }
        let table = integer(0x28, 8)
        let entrySize = integer(0x3A, 2)
        let count = integer(0x3C, 2)
        // SHT_GROUP is type 17; its sh_size is at 0x20 in a 64-bit section header.
        let group = try #require((0..<count).first { integer(table + $0 * entrySize + 4, 4) == 17 })
        let sizeField = table + group * entrySize + 0x20
        for (index, byte) in [0x0C, 0, 0, 0, 0x04, 0, 0, 0].enumerated() { bytes[sizeField + index] = UInt8(byte) }
        let path = try Self.write(bytes, named: "huge-group.o")
        let error = try #require(Self.error(reading: path))
        #expect(error.description.hasPrefix(path))
    }

    /// A bounded mutation run: bytes of the file or of its debug sections overwritten at random (with a fixed
    /// seed, so a failure reproduces). Each read must end in layouts or a typed error.
    @Test("random corruption of the file and its debug sections never crashes")
    func randomCorruption() throws {
        let original = try Self.objectBytes()
        let sections = try Self.debugSections(of: original)
        try #require(!sections.isEmpty)
        var generator = SplitMix64(seed: 0x5EED_D3A7)
        var outcomes = (layouts: 0, errors: 0)
        for round in 0..<300 {
            var bytes = original
            // Even rounds hit anywhere in the file (ELF and section headers too), odd rounds a debug section.
            let section =
                round % 2 == 0
                ? (name: "whole file", offset: 0, size: original.count)
                : sections[Int(generator.next() % UInt64(sections.count))]
            guard section.size > 0 else { continue }
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                let position = section.offset + Int(generator.next() % UInt64(section.size))
                bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            let path = try Self.write(bytes, named: "mutated-\(round % 4).o")
            if Self.error(reading: path) == nil { outcomes.layouts += 1 } else { outcomes.errors += 1 }
        }
        #expect(outcomes.layouts + outcomes.errors > 200)
    }
}

/// A small deterministic generator, so mutation runs reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
