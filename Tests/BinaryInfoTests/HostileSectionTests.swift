import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// Hostile section tables and record tables (issue 8 §4): sections with no file bytes that claim
/// huge sizes, sections past the end, overlapping and duplicate sections, and corrupt records.
/// Each is one clear error or a reading that keeps every other type's facts; never a trap or hang.
@Suite("Hostile section and record tables")
struct HostileSectionTests {
    /// The section header table of a 64-bit little-endian ELF file, editable in place.
    struct SectionTable {
        var bytes: [UInt8]
        let tableOffset: Int
        let entrySize: Int
        let count: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            tableOffset = Int(MalformedInputTests.load(UInt64.self, bytes, 0x28))
            entrySize = Int(MalformedInputTests.load(UInt16.self, bytes, 0x3A))
            count = Int(MalformedInputTests.load(UInt16.self, bytes, 0x3C))
        }

        func header(_ index: Int) -> Int { tableOffset + index * entrySize }

        /// The index of the section named `name`.
        func index(of name: String) throws -> Int {
            let names = Int(MalformedInputTests.load(UInt16.self, bytes, 0x3E))
            let namesOffset = Int(MalformedInputTests.load(UInt64.self, bytes, header(names) + 0x18))
            for index in 0..<count {
                let start = namesOffset + Int(MalformedInputTests.load(UInt32.self, bytes, header(index)))
                if String(decoding: bytes[start...].prefix { $0 != 0 }, as: UTF8.self) == name { return index }
            }
            throw FixtureError(message: "no section \(name)")
        }

        func field<T: FixedWidthInteger>(_ index: Int, _ offset: Int, as type: T.Type) -> T {
            MalformedInputTests.load(T.self, bytes, header(index) + offset)
        }

        mutating func set<T: FixedWidthInteger>(_ index: Int, _ offset: Int, _ value: T) {
            MalformedInputTests.store(value, &bytes, header(index) + offset)
        }

        // Section header fields: sh_name +0, sh_type +4, sh_addr +0x10, sh_offset +0x18, sh_size +0x20.
        static let name = 0x00, type = 0x04, address = 0x10, offset = 0x18, size = 0x20
        static let nobits: UInt32 = 8
    }

    static func fixture() throws -> SectionTable {
        SectionTable(try MalformedInputTests.fixtureBytes())
    }

    /// The error reading `bytes` gives, with its one-line description.
    static func error(reading bytes: [UInt8]) -> BinaryInfoError? {
        do {
            _ = try BinaryImage.layouts(of: bytes, name: "hostile", runtimeLibrary: ToolchainRuntime.libswiftCore)
            return nil
        } catch {
            return error
        }
    }

    @Test("two NOBITS swift5_fieldmd sections claiming 2^63 bytes each: one error naming them, no overflow trap")
    func nobitsFieldRecordsClaimingHalfTheAddressSpace() throws {
        var table = try Self.fixture()
        let fieldmd = try table.index(of: "swift5_fieldmd")
        let other = try table.index(of: "swift5_builtin")
        for index in [fieldmd, other] {
            table.set(index, SectionTable.name, table.field(fieldmd, SectionTable.name, as: UInt32.self))
            table.set(index, SectionTable.type, SectionTable.nobits)
            table.set(index, SectionTable.size, UInt64(1) << 63)
        }
        let error = try #require(Self.error(reading: table.bytes))
        #expect(error.description.hasPrefix("hostile: malformed ELF file: sections "), "\(error)")
        #expect(
            error.description.contains("swift5_fieldmd (#\(fieldmd))") && error.description.contains("overlap at address 0x"), "\(error)")
    }

    @Test("two NOBITS swift5_fieldmd sections past every other address: the second one's end overflows")
    func nobitsFieldRecordsWrappingTheAddressSpace() throws {
        var table = try Self.fixture()
        let fieldmd = try table.index(of: "swift5_fieldmd")
        let other = try table.index(of: "swift5_builtin")
        for (index, address) in [(fieldmd, UInt64(1) << 60), (other, (UInt64(1) << 60) + (UInt64(1) << 63))] {
            table.set(index, SectionTable.name, table.field(fieldmd, SectionTable.name, as: UInt32.self))
            table.set(index, SectionTable.type, SectionTable.nobits)
            table.set(index, SectionTable.address, address)
            table.set(index, SectionTable.size, UInt64(1) << 63)
        }
        let error = try #require(Self.error(reading: table.bytes))
        #expect(
            error
                == .outOfBounds(
                    path: "hostile", what: "section swift5_fieldmd (#\(other))", address: (UInt64(1) << 60) + (UInt64(1) << 63),
                    length: UInt64(1) << 63))
        #expect(error.description.contains("lies outside the file's data"))
    }

    @Test("a NOBITS swift5_type_metadata claiming 64 GiB is an empty table with a note, read at once")
    func nobitsTypeMetadataClaiming64GiB() throws {
        var table = try Self.fixture()
        let clean = try BinaryImage.layouts(of: table.bytes, name: "clean", runtimeLibrary: ToolchainRuntime.libswiftCore)
        let metadata = try table.index(of: "swift5_type_metadata")
        table.set(metadata, SectionTable.type, SectionTable.nobits)
        table.set(metadata, SectionTable.address, UInt64(1) << 40)  // above every other section: no overlap
        table.set(metadata, SectionTable.size, UInt64(64) << 30)
        let document = try BinaryImage.layouts(of: table.bytes, name: "hostile", runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(
            document.image.notes.contains(.sectionWithoutBytes(name: "swift5_type_metadata", index: metadata, size: 64 << 30))
                && document.image.notes.map(\.text).contains(
                    "section swift5_type_metadata (#\(metadata)) is SHT_NOBITS (no bytes in the file) but claims 68719476736 bytes: its records are not read"
                ),
            "\(document.image.notes)")
        // Without the type metadata records, types are still found through the field descriptors
        // that name them (issue 8.2) and protocols through their own table; nothing is invented.
        let cleanNames = Set(clean.types.map(\.name))
        #expect(document.types.allSatisfy { cleanNames.contains($0.name) })
        #expect(clean.types.filter { $0.kind == .protocol }.map(\.name) == document.types.filter { $0.kind == .protocol }.map(\.name))
        #expect(document.types.contains { $0.kind != .protocol })
    }

    @Test("a PROGBITS section claiming 2^63 bytes lies outside the file")
    func hugeFileSection() throws {
        var table = try Self.fixture()
        let fieldmd = try table.index(of: "swift5_fieldmd")
        let offset = table.field(fieldmd, SectionTable.offset, as: UInt64.self)
        table.set(fieldmd, SectionTable.size, UInt64(1) << 63)
        let error = try #require(Self.error(reading: table.bytes))
        #expect(error == .outOfBounds(path: "hostile", what: "section swift5_fieldmd", address: offset, length: UInt64(1) << 63))
    }

    @Test("overlapping sections are refused, naming both")
    func overlappingSections() throws {
        var table = try Self.fixture()
        let metadata = try table.index(of: "swift5_type_metadata")
        let fieldmd = try table.index(of: "swift5_fieldmd")
        let address = table.field(metadata, SectionTable.address, as: UInt64.self)
        table.set(fieldmd, SectionTable.address, address)
        let error = try #require(Self.error(reading: table.bytes))
        #expect(
            error.description
                == "hostile: malformed ELF file: sections swift5_type_metadata (#\(metadata)) and swift5_fieldmd (#\(fieldmd)) overlap at address 0x\(String(address, radix: 16))"
                || error.description
                    == "hostile: malformed ELF file: sections swift5_fieldmd (#\(fieldmd)) and swift5_type_metadata (#\(metadata)) overlap at address 0x\(String(address, radix: 16))",
            "\(error)")
    }

    @Test(
        "a second section named swift5_type_metadata (the protocol records): every type is still listed once, unchanged, the strays noted")
    func duplicateSectionName() throws {
        var table = try Self.fixture()
        let clean = try BinaryImage.layouts(of: table.bytes, name: "clean", runtimeLibrary: ToolchainRuntime.libswiftCore)
        let metadata = try table.index(of: "swift5_type_metadata")
        let protocols = try table.index(of: "swift5_protocols")
        let protocolCount = Int(table.field(protocols, SectionTable.size, as: UInt64.self) / 4)
        table.set(protocols, SectionTable.name, table.field(metadata, SectionTable.name, as: UInt32.self))
        // The rule: every section of a name is read, in header order; a record that is not a
        // type record is skipped and counted; a descriptor listed twice is listed once.
        let document = try BinaryImage.layouts(of: table.bytes, name: "hostile", runtimeLibrary: ToolchainRuntime.libswiftCore)
        let types = clean.types.filter { $0.kind != .protocol }
        #expect(document.types == types)
        #expect(
            document.image.notes.contains {
                guard case .recordsUnreadable(let count, _, let problem) = $0 else { return false }
                return count == protocolCount && problem.hasSuffix("is not a struct, class or enum")
            },
            "\(document.image.notes)")
    }

    @Test("300 seeded corruptions of the section header table: each read ends in a layout or one BinaryInfoError, within seconds")
    func corruptedSectionHeaders() throws {
        let clean = try Self.fixture()
        var generator = SplitMix64(seed: 0x5EC7_1045)
        let bounds: [UInt64] = [0, 1, 4, 1 << 63, .max, UInt64(clean.bytes.count), UInt64(clean.bytes.count) - 4, 64 << 30, 0x7FFF_FFFF]
        var outcomes: [String: Int] = [:]
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<300 {
            var table = clean
            let index = Int(generator.next() % UInt64(table.count))
            let other = Int(generator.next() % UInt64(table.count))
            switch generator.next() % 4 {
            case 0:
                table.set(
                    index, SectionTable.type,
                    [SectionTable.nobits, 1, 4, 19, table.field(other, SectionTable.type, as: UInt32.self)][Int(generator.next() % 5)])
            case 1:
                let field = [SectionTable.address, SectionTable.offset, SectionTable.size][Int(generator.next() % 3)]
                let value =
                    generator.next() % 2 == 0
                    ? bounds[Int(generator.next() % UInt64(bounds.count))] : table.field(other, field, as: UInt64.self)
                table.set(index, field, value)
            case 2: table.set(index, SectionTable.name, table.field(other, SectionTable.name, as: UInt32.self))
            default:
                // Both the NOBITS type and a huge size: what used to trap or spin.
                table.set(index, SectionTable.type, SectionTable.nobits)
                table.set(index, SectionTable.size, bounds[Int(generator.next() % UInt64(bounds.count))])
            }
            do {
                _ = try BinaryImage.layouts(of: table.bytes, name: "corrupt", runtimeLibrary: ToolchainRuntime.libswiftCore)
                outcomes["read", default: 0] += 1
            } catch {
                #expect(error.description.hasPrefix("corrupt: ") && !error.description.contains("\n"))
                outcomes[String(error.problem.prefix { $0 != ":" }), default: 0] += 1
            }
        }
        #expect(outcomes["read", default: 0] > 0, "\(outcomes)")
        #expect(outcomes.count > 2, "every corruption ended the same way: \(outcomes)")
        #expect(clock.now - start < .seconds(120), "300 reads took \(clock.now - start)")
    }
}

/// A corrupt field record of one type must never move fields between other, unrelated types.
@Suite("Corrupt records stay local")
struct CorruptRecordLocalityTests {
    static let source = """
        struct Corruptible { var onlyInCorruptible: Int = 1 }
        class Base { var b = 2 }
        class Child: Base { var c = 3 }
        final class Other { var o = 4 }
        print(Corruptible(), Child(), Other())
        """

    static let program: Result<[UInt8], any Error> = Result {
        let directory = FixtureToolchain.buildDirectory
        let sourcePath = directory + "/corruptible.swift"
        let output = directory + "/corruptible"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        try FixtureToolchain.run(FixtureToolchain.swiftc, ["-O", "-module-name", "Corruptible", sourcePath, "-o", output], in: directory)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// The file offset of the record-size field of the field descriptor whose only field is `field`.
    static func recordSizeOffset(ofFieldDescriptorWith field: String, in bytes: [UInt8]) throws -> Int {
        let file = FileBytes(bytes, path: "corruptible")
        let elf = try ELFFile(bytes: file)
        let space = try AddressSpace(file: elf, bytes: file)
        let image = SwiftImage(file: elf, space: space, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let section = try #require(image.sections["swift5_fieldmd"]?.first)
        var address = section.address
        while address < section.address + section.size {
            let descriptor = try image.fieldDescriptor(at: address)
            let recordSize = try space.read(UInt16.self, at: address + 10, what: "record size")
            if descriptor.records.map(\.name) == [field] {
                let region = try #require(space.region(containing: address))
                return Int(region.fileOffset + (address - region.start) + 10)
            }
            address += 16 + UInt64(descriptor.records.count) * UInt64(recordSize)
        }
        throw FixtureError(message: "no field descriptor with the single field \(field)")
    }

    @Test("a struct's unreadable field descriptor leaves Child with its inherited field and Other alone")
    func corruptRecordMovesNothing() throws {
        let bytes = try Self.program.get()
        let clean = try BinaryImage.layouts(of: bytes, name: "clean", runtimeLibrary: ToolchainRuntime.libswiftCore)
        let cleanChild = try #require(clean.types.first { $0.name == "Corruptible.Child" })
        #expect(cleanChild.fields.map(\.name) == ["b", "c"])

        var corrupt = bytes
        MalformedInputTests.store(UInt16(0), &corrupt, try Self.recordSizeOffset(ofFieldDescriptorWith: "onlyInCorruptible", in: bytes))
        let document = try BinaryImage.layouts(of: corrupt, name: "corrupt", runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(!document.types.contains { $0.name == "Corruptible.Corruptible" })
        #expect(
            document.image.notes.contains {
                guard case .recordsUnreadable(_, _, let problem) = $0 else { return false }
                return problem.hasSuffix("record size 0 is below the 12 bytes of a field record")
            },
            "\(document.image.notes)")
        for name in ["Corruptible.Base", "Corruptible.Child", "Corruptible.Other"] {
            let before = try #require(clean.types.first { $0.name == name })
            let after = try #require(document.types.first { $0.name == name })
            #expect(after.fields == before.fields, "\(name): fields moved")
        }
    }
}
