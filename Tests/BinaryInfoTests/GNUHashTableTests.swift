import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// `GNUHashTable`: exported symbols found through `.gnu.hash` are the ones `readelf` lists, and a
/// corrupt table makes a lookup miss, never trap, hang or find a wrong symbol.
@Suite("Exported symbols through .gnu.hash")
struct GNUHashTableTests {
    static let standardLibrary = "/opt/swift/usr/lib/swift/linux/libswiftCore.so"

    /// Defined `.dynsym` symbols with a non-zero value, as `readelf --dyn-syms -W` prints them.
    static func exportedSymbols(of path: String) throws -> [(name: String, value: UInt64)] {
        let printed = try FixtureToolchain.run("/usr/bin/env", ["readelf", "--dyn-syms", "-W", path], in: FixtureToolchain.buildDirectory)
        var symbols: [(String, UInt64)] = []
        for line in printed.split(separator: "\n") {
            // Num: Value Size Type Bind Vis Ndx Name
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[0].hasSuffix(":"), fields[6] != "UND", let value = UInt64(fields[1], radix: 16), value != 0
            else { continue }
            let name = String(fields[7])
            // Versioned names (`name@VERSION`) are not Swift's; `readelf` prints the version after the name.
            guard !name.contains("@") else { continue }
            symbols.append((name, value))
        }
        return symbols
    }

    @Test(
        "every exported symbol of libswiftCore is found at readelf's value, and names it does not export are not",
        .enabled(if: FileManager.default.fileExists(atPath: standardLibrary), "needs the toolchain's libswiftCore.so")
    )
    func agreesWithReadelf() throws {
        let symbols = try Self.exportedSymbols(of: Self.standardLibrary)
        #expect(symbols.count > 10_000)
        let image = try LoadableImage(path: Self.standardLibrary, includeStaticSymbols: false, deferringTables: true)
        var mismatches: [String] = []
        for (name, value) in symbols {
            let found = image.address(ofExportedSymbol: ExportedSymbolName(name))
            if found != value {
                mismatches.append("\(name): \(found.map { String($0, radix: 16) } ?? "nil") != \(String(value, radix: 16))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, first: \(mismatches.prefix(3))")
        // Names one character longer than real ones are not exported (unless that name is too).
        let exported = Set(symbols.map(\.name))
        for (name, _) in symbols.prefix(500) where !exported.contains(name + "x") {
            #expect(image.address(ofExportedSymbol: ExportedSymbolName(name + "x")) == nil)
        }
        // The file's own table read after the deferred tables: the scan of `.dynsym` agrees.
        let scanned = image.addresses(ofSymbols: Set(symbols.prefix(500).map(\.name)), exportedOnly: true)
        for (name, value) in symbols.prefix(500) { #expect(scanned[name] == value, "\(name)") }
    }

    @Test("a corrupt .gnu.hash (seeded mutations of its header, bloom words, buckets and chain): lookups miss or find the true value")
    func corruptTables() throws {
        // The fixture library exports its Swift symbols (the executable only `_end` and the like).
        let path = try FixtureToolchain.product(.sharedLibrary)
        let clean = HostileSectionTests.SectionTable([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let section = try clean.index(of: ".gnu.hash")
        let offset = Int(clean.field(section, HostileSectionTests.SectionTable.offset, as: UInt64.self))
        let size = Int(clean.field(section, HostileSectionTests.SectionTable.size, as: UInt64.self))
        let reference = try LoadableImage(bytes: clean.bytes, name: "clean")
        let symbols = try Self.exportedSymbols(of: path)
        let names = symbols.map { ExportedSymbolName($0.name) }
        for (name, symbol) in zip(names, symbols) {
            #expect(reference.address(ofExportedSymbol: name) == symbol.value, "\(symbol.name)")
        }
        #expect(names.count > 20, "the fixture library exports \(names.count) symbols")
        var state: UInt64 = 0x6A09_E667
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 17
        }
        // Words that test the bounds: 0, 1, all ones, the section's size, and large counts.
        let awkward: [UInt32] = [0, 1, 0xFFFF_FFFF, UInt32(size), 0x8000_0000, 0x0100_0000]
        for variant in 0..<64 {
            var bytes = clean.bytes
            let edits = variant < 16 ? 1 : 6
            for _ in 0..<edits {
                // Half the edits hit the 16-byte header, the rest anywhere in the table.
                let position = next() % 2 == 0 ? offset + Int(next() % 4) * 4 : offset + Int(next() % UInt64(size / 4)) * 4
                let word = next() % 3 == 0 ? UInt32(truncatingIfNeeded: next()) : awkward[Int(next() % UInt64(awkward.count))]
                MalformedInputTests.store(word, &bytes, position)
            }
            let image = try LoadableImage(bytes: bytes, name: "corrupt-gnu-hash-\(variant)")
            for (name, symbol) in zip(names, symbols) {
                let found = image.address(ofExportedSymbol: name)
                #expect(found == nil || found == symbol.value, "variant \(variant): \(symbol.name)")
            }
        }
    }
}
