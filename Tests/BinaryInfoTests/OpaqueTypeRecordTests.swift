import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// Opaque result types (`some P`, context kind 4) are valid records of `swift5_type_metadata`
/// in an -Onone build: they are read without a note, while a record that really is malformed
/// keeps its note (issue 23, section 4).
@Suite("Opaque type descriptors in the type metadata records")
struct OpaqueTypeRecordTests {
    /// The nominal types of Fixtures/OpaqueTypes, and its protocol.
    static let types: Set<String> = ["main.Square", "main.Circle", "main.Holder", "main.Shape"]

    static func build(_ optimization: String) throws -> String {
        let path = FixtureToolchain.buildDirectory + "/opaque-types" + optimization
        try FixtureToolchain.run(
            FixtureToolchain.swiftc,
            [optimization, "-g", FixtureToolchain.fixturesDirectory + "/OpaqueTypes/main.swift", "-o", path],
            in: FixtureToolchain.buildDirectory)
        return path
    }

    /// The addresses of the opaque type descriptors, from the symbol table (`$s…MQ`, which
    /// `swift-demangle` prints as "opaque type descriptor for …").
    static func opaqueDescriptorSymbols(in path: String) throws -> Set<UInt64> {
        let listing = try FixtureToolchain.run("/usr/bin/nm", [path], in: FixtureToolchain.buildDirectory)
        var addresses: Set<UInt64> = []
        for line in listing.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[2].hasSuffix("MQ"), let address = UInt64(parts[0], radix: 16) else { continue }
            addresses.insert(address)
        }
        return addresses
    }

    /// Each `swift5_type_metadata` record's address and the descriptor it points at (a direct
    /// relative pointer, whose low two bits are the reference kind), decoded from the section bytes.
    static func typeMetadataRecords(_ table: HostileSectionTests.SectionTable) throws -> [(record: UInt64, target: UInt64)] {
        let section = try table.index(of: "swift5_type_metadata")
        let address = table.field(section, HostileSectionTests.SectionTable.address, as: UInt64.self)
        let offset = Int(table.field(section, HostileSectionTests.SectionTable.offset, as: UInt64.self))
        let size = Int(table.field(section, HostileSectionTests.SectionTable.size, as: UInt64.self))
        return stride(from: 0, to: size, by: 4).map { position in
            let raw = MalformedInputTests.load(Int32.self, table.bytes, offset + position)
            let record = address + UInt64(position)
            return (record, UInt64(Int64(record) + Int64(raw & ~3)))
        }
    }

    /// The file offset of `address`, through the section that holds it.
    static func fileOffset(of address: UInt64, in table: HostileSectionTests.SectionTable) throws -> Int {
        for index in 0..<table.count {
            let start = table.field(index, HostileSectionTests.SectionTable.address, as: UInt64.self)
            let size = table.field(index, HostileSectionTests.SectionTable.size, as: UInt64.self)
            if start != 0, address >= start, address < start + size {
                return Int(table.field(index, HostileSectionTests.SectionTable.offset, as: UInt64.self) + (address - start))
            }
        }
        throw FixtureError(message: "no section holds 0x\(String(address, radix: 16))")
    }

    @Test("an -Onone build lists its opaque types' descriptors as records; they are read without a note", arguments: ["-Onone", "-O"])
    func healthyBuild(optimization: String) throws {
        let path = try Self.build(optimization)
        let opaque = try Self.opaqueDescriptorSymbols(in: path)
        try #require(opaque.count == 4, "the fixture declares four opaque result types: \(opaque)")
        let records = try Self.typeMetadataRecords(
            HostileSectionTests.SectionTable([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        let opaqueRecords = records.filter { opaque.contains($0.target) }
        if optimization == "-Onone" {
            // What makes this build the case in question: every opaque descriptor has a record.
            #expect(Set(opaqueRecords.map(\.target)) == opaque)
        }
        let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(Set(document.types.map(\.name)) == Self.types)
        #expect(!document.image.notes.contains(where: isUnreadableNote), "\(document.image.notes)")
    }

    @Test("an opaque type's record whose descriptor is made anonymous (kind 2) is still one malformed record, named")
    func corruptedOpaqueDescriptor() throws {
        let path = try Self.build("-Onone")
        let opaque = try Self.opaqueDescriptorSymbols(in: path)
        var table = HostileSectionTests.SectionTable([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let records = try Self.typeMetadataRecords(table)
        let (record, descriptor) = try #require(records.first { opaque.contains($0.target) })
        let flags = try Self.fileOffset(of: descriptor, in: table)
        // The context kind is the low five bits of the flags.
        table.bytes[flags] = (table.bytes[flags] & ~0x1F) | 2
        let document = try BinaryImage.layouts(of: table.bytes, name: "corrupted", runtimeLibrary: ToolchainRuntime.libswiftCore)
        let hex = { (value: UInt64) in "0x" + String(value, radix: 16) }
        #expect(
            document.image.notes.map(\.text).contains(
                "1 records could not be read; the first, at \(hex(record)): malformed Swift metadata: type descriptor at \(hex(descriptor)): context kind 2 is not a struct, class or enum"
            ),
            "\(document.image.notes)")
        #expect(Set(document.types.map(\.name)) == Self.types)
    }
}
