import BinaryFixtures
import Testing
import TypeLayout
@testable import BinaryInfo

/// The static reader's shortcuts for a one-type question (issue 14) give what the long ways give:
/// relocated slots sorted instead of hashed, descriptor symbols sorted alone, strings found with
/// one search, the runtime's tables looked up through `.gnu.hash`. Each is compared with the
/// long way on the toolchain's own libswiftCore.so.
@Suite("Reading shortcuts agree with the long ways")
struct ReadingShortcutTests {
    static let swiftCorePath = ToolchainLibraryTests.libraryDirectory + "/libswiftCore.so"

    @Test("sorted pointer slots hold what a dictionary filled the same way holds", arguments: [UInt64(1) << 32, UInt64(1) << 62])
    func pointerSlotsMatchDictionary(addressRange: UInt64) {
        // The target's replayable generator (MalformedInputTests.swift).
        var random = SplitMix64(seed: addressRange)
        var slots = PointerSlots()
        var model: [UInt64: PointerTarget] = [:]
        // Few distinct addresses, so that records repeat: a later ordinary record replaces an
        // earlier one, a fallback fills only an empty slot.
        let addresses = (0..<64).map { _ in random.next() % addressRange }
        for step in 0..<2_000 {
            let address = addresses[Int(random.next() % 64)]
            let target: PointerTarget = random.next() % 4 == 0 ? .symbol("symbol\(step)") : .address(random.next())
            if random.next() % 3 == 0 {
                slots.recordFallback(target, at: address)
                if model[address] == nil { model[address] = target }
            } else {
                slots.record(target, at: address)
                model[address] = target
            }
        }
        slots.sort()
        #expect(slots.map(\.address) == model.keys.sorted())
        for (address, target) in model { #expect(slots[address] == target) }
        #expect(slots[addressRange] == nil)
    }

    @Test("a fallback recorded before an ordinary record of the same address gives way to it")
    func fallbackGivesWay() {
        var slots = PointerSlots()
        slots.recordFallback(.address(1), at: 8)
        slots.record(.address(2), at: 8)
        slots.recordFallback(.address(3), at: 8)
        slots.sort()
        var model: [UInt64: PointerTarget] = [8: .address(1)]
        model[8] = .address(2)
        #expect(slots[8] == model[8])
    }

    @Test("a string found in one search is the string read a byte at a time, at section ends too")
    func cStringMatchesByteWiseReading() throws {
        let bytes = try ImageLoader.readFile(Self.swiftCorePath)
        let file = try ELFFile(bytes: bytes)
        let space = try AddressSpace(file: file, bytes: bytes)
        var compared = 0
        for section in file.sections where section.isAllocated && section.size > 0 && section.address != 0 && !section.isThreadLocal {
            // Every start in the section's last 96 bytes (strings that run into the next section
            // or off the end), and its first bytes.
            let tail = section.address + section.size - min(section.size, 96)
            let starts = Array(tail..<(section.address + section.size)) + Array(section.address..<(section.address + min(section.size, 32)))
            for address in starts {
                let fast = Result { () throws(BinaryInfoError) in try space.cString(at: address, what: "string") }
                let slow = Result { () throws(BinaryInfoError) in try space.byteWiseCString(at: address, what: "string") }
                #expect("\(fast)" == "\(slow)", "at 0x\(String(address, radix: 16)) in \(section.name)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }

    @Test("descriptor symbols found by address are those the whole sorted symbol table gives")
    func descriptorSymbolsMatchSortedTable() throws {
        let bytes = try ImageLoader.readFile(Self.swiftCorePath)
        let file = try ELFFile(bytes: bytes, sortsSymbols: false)
        let image = SwiftImage(file: file, space: try AddressSpace(file: file, bytes: bytes), runtimeLibrary: ToolchainRuntime.libswiftCore)
        // The long way: every defined symbol sorted by address, the first descriptor symbol at each.
        var expected: [UInt64: String] = [:]
        for symbol in file.definedSymbols.sorted(by: { $0.value < $1.value }) where expected[symbol.value] == nil {
            guard let name = file.name(of: symbol, in: bytes), name.hasPrefix("$s"), name.hasSuffix("Mn") || name.hasSuffix("Mp") else {
                continue
            }
            expected[symbol.value] = name
        }
        #expect(expected.count > 500)
        for (address, name) in expected { #expect(image.descriptorSymbol(at: address) == name) }
        // Addresses with other symbols only name no descriptor.
        for symbol in file.definedSymbols.prefix(2_000) where expected[symbol.value] == nil {
            #expect(image.descriptorSymbol(at: symbol.value) == nil)
        }
    }

    @Test("the runtime's witness tables found through .gnu.hash are those a scan of .dynsym finds")
    func runtimeTablesThroughHashTable() throws {
        let hashed = try RuntimeWitnessTables(path: Self.swiftCorePath)
        let scanned = try RuntimeWitnessTables(path: Self.swiftCorePath, findsSymbolsThroughHashTable: false)
        let bytes = try ImageLoader.readFile(Self.swiftCorePath)
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, sortsSymbols: false)
        var tables = 0
        var metadata = 0
        for symbol in file.definedSymbols {
            guard let name = file.name(of: symbol, in: bytes), name.hasPrefix("$s") else { continue }
            if name.hasSuffix("WV") {
                #expect(hashed.table(named: name) == scanned.table(named: name), "\(name)")
                if scanned.table(named: name) != nil { tables += 1 }
            } else if name.hasSuffix("N") {
                let mangling = String(name.dropFirst(2).dropLast())
                #expect(hashed.typeLayout(mangling: mangling) == scanned.typeLayout(mangling: mangling), "\(name)")
                if scanned.typeLayout(mangling: mangling) != nil { metadata += 1 }
            }
        }
        // The builtin tables ($sBi64_WV, ...) and the standard library's value types (Si, SS, ...).
        #expect(tables > 10)
        #expect(metadata > 50)
    }
}
