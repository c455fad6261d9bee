import Foundation
import Testing
import TypeLayout
@testable import DWARFInfo

/// The C fixture compiled for other architectures, big-endian and 32-bit ones included: the compiler
/// checks the reader's numbers itself (`_Static_assert` compiled for the same target), and each
/// bitfield's position comes from the bytes the compiler emits for an initialised object.
@Suite struct CrossTargetLayoutTests {
    /// (target triple, big-endian, DWARF version). DWARF 2 exercises `DW_AT_bit_offset`, whose
    /// meaning depends on the byte order.
    static let cases: [(String, Bool, Int)] = [
        ("aarch64-unknown-linux-gnu", false, 5),
        ("powerpc64-unknown-linux-gnu", true, 4),
        ("powerpc64-unknown-linux-gnu", true, 2),
        ("s390x-unknown-linux-gnu", true, 5),
        ("i386-unknown-linux-gnu", false, 4),
        ("armv7-unknown-linux-gnueabihf", false, 4),
    ]

    static let objcopy: String = {
        let directory = (FixtureToolchain.clang as NSString).deletingLastPathComponent
        return "\(directory)/llvm-objcopy"
    }()

    /// The LLVM back ends the cases need (`clang -print-targets` names), by triple prefix.
    static let backEnds = ["aarch64": "aarch64", "powerpc64": "ppc64", "s390x": "systemz", "i386": "x86", "armv7": "arm"]

    /// The back ends this clang lacks (the Swift toolchain's clang has them all; a system clang
    /// built for fewer targets does not): the test is disabled, naming them, rather than passing.
    static let missingBackEnds: [String] = {
        guard let listing = try? FixtureToolchain.run(FixtureToolchain.clang, ["-print-targets"]) else {
            return ["(clang -print-targets failed)"]
        }
        let registered = Set(listing.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        return Set(backEnds.values).subtracting(registered).sorted()
    }()

    /// Compiles `layouts.c` for `triple`.
    static func object(triple: String, dwarfVersion: Int) throws -> String {
        let object = FixtureToolchain.workDirectory.appendingPathComponent("layouts-\(triple)-dwarf\(dwarfVersion).o").path
        try FixtureToolchain.run(
            FixtureToolchain.clang,
            [
                "--target=\(triple)", "-ffreestanding", "-g", "-gdwarf-\(dwarfVersion)", "-c",
                FixtureToolchain.cSource.path, "-o", object,
            ])
        return object
    }

    @Test(
        "sizes, alignments, offsets and bitfield positions match the compiler for other targets",
        .enabled(
            if: missingBackEnds.isEmpty,
            "\(FixtureToolchain.clang) lacks the LLVM targets \(missingBackEnds.joined(separator: ", ")): use the Swift toolchain's clang (TOOLCHAIN_DIR)"
        ),
        arguments: cases.indices)
    func crossTarget(caseIndex: Int) throws {
        let (triple, bigEndian, dwarfVersion) = Self.cases[caseIndex]
        let object = try Self.object(triple: triple, dwarfVersion: dwarfVersion)
        let reader = try DWARFReader(path: object)
        #expect(reader.isLittleEndian == !bigEndian)
        let layouts = try reader.typeLayouts()
        #expect(Set(layouts.map(\.name)) == Set(CLayoutTests.expectedMembers.keys))

        // Every non-bitfield number, asserted by the compiler for the same target.
        var checks = ["#include \"layouts.h\"", "#include <stddef.h>"]
        var probes: [(type: String, field: String, section: String)] = []
        for layout in layouts {
            let type = layout.name
            if let size = layout.size { checks.append("_Static_assert(sizeof(\(type)) == \(size), \"sizeof \(type)\");") }
            if let alignment = layout.alignment {
                checks.append("_Static_assert(_Alignof(\(type)) == \(alignment), \"_Alignof \(type)\");")
            }
            for field in layout.fields {
                let member = "((\(type) *)0)->\(field.name)"
                if field.bitWidth != nil {
                    let section = ".probe\(probes.count)"
                    checks.append("__attribute__((section(\"\(section)\"), used)) \(type) probe\(probes.count) = { .\(field.name) = -1 };")
                    probes.append((type, field.name, section))
                    continue
                }
                if let offset = field.offset {
                    checks.append("_Static_assert(offsetof(\(type), \(field.name)) == \(offset), \"offsetof \(type) \(field.name)\");")
                }
                if let size = field.size {
                    checks.append("_Static_assert(sizeof(\(member)) == \(size), \"sizeof \(type).\(field.name)\");")
                }
                if let alignment = field.alignment {
                    checks.append("_Static_assert(__alignof__(\(member)) == \(alignment), \"__alignof__ \(type).\(field.name)\");")
                }
            }
        }
        #expect(probes.count >= 8)
        let source = FixtureToolchain.workDirectory.appendingPathComponent("cross-\(triple)-\(dwarfVersion).c")
        let probeObject = FixtureToolchain.workDirectory.appendingPathComponent("cross-\(triple)-\(dwarfVersion).o").path
        try (checks.joined(separator: "\n") + "\n").write(to: source, atomically: true, encoding: .utf8)
        try FixtureToolchain.run(
            FixtureToolchain.clang,
            [
                "--target=\(triple)", "-ffreestanding", "-w", "-c", "-I", FixtureToolchain.cHeader.deletingLastPathComponent().path,
                source.path, "-o", probeObject,
            ])

        // Bitfields: the bytes of `T probe = { .field = -1 }`, as the compiler laid them out.
        var dumps: [String] = []
        for probe in probes {
            let file = FixtureToolchain.workDirectory.appendingPathComponent("\(triple)-\(dwarfVersion)-\(probe.section).bin").path
            dumps += ["--dump-section", "\(probe.section)=\(file)"]
        }
        try FixtureToolchain.run(Self.objcopy, dumps + [probeObject, "/dev/null"])
        for probe in probes {
            let file = FixtureToolchain.workDirectory.appendingPathComponent("\(triple)-\(dwarfVersion)-\(probe.section).bin")
            let bytes = [UInt8](try Data(contentsOf: file))
            // Bit i counts from the start of the object in storage order: least significant bit
            // first on little-endian targets, most significant first on big-endian ones.
            let set = (0..<bytes.count * 8).filter { bit in
                let byte = bytes[bit / 8]
                return (bigEndian ? byte >> (7 - bit % 8) : byte >> (bit % 8)) & 1 == 1
            }
            let layout = try #require(layouts.first { $0.name == probe.type })
            let field = try #require(layout.fields.first { $0.name == probe.field })
            let first = try #require(set.first)
            #expect((field.offset ?? -1) * 8 + (field.bitOffset ?? -1) == first, "\(triple): \(probe.type).\(probe.field)")
            #expect(field.bitWidth == set.count, "\(triple): width of \(probe.type).\(probe.field)")
        }
    }
}
