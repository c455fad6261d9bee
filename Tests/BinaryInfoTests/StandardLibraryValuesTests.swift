import Foundation
import Testing

@testable import BinaryInfo

/// Strings and arrays of this very process, read back through the process reader: the values
/// themselves are the oracle.
@Suite struct StandardLibraryValuesTests {
    static let memory = try! ProcessMemory(processID: getpid())

    static func words<T>(of value: T) -> [UInt64] {
        withUnsafeBytes(of: value) { Array($0.bindMemory(to: UInt64.self)) }
    }

    static func read(_ string: String) throws -> StringContents? {
        let words = Self.words(of: string)
        return try withExtendedLifetime(string) { () throws(BinaryInfoError) -> StringContents? in
            try StandardLibraryValues.string(countAndFlags: words[0], object: words[1], in: memory)
        }
    }

    @Test(arguments: [
        "", "a", "fifteen bytes!!", "sixteen bytes!!!", "émoji 🎉", "日本語のテキスト", "the root order, named at length",
        String(repeating: "native ", count: 20), String(repeating: "ü", count: 40) + "!",
    ])
    func everyFormOfStringReadsBackAsItself(_ literal: String) throws {
        // An interpolated copy is a native (heap) string when large; the literal is an immortal one.
        let native = "\(literal)\(literal.isEmpty ? "" : "")"
        if literal.utf8.count > 15 {
            // The forms this test is about: a native heap string (no discriminator bits) and, for the
            // literals, an immortal one (b63).
            #expect(Self.words(of: native)[1] >> 60 == 0x0)
            #expect(Self.words(of: "the root order, named at length")[1] >> 60 == 0x8)
        }
        for string in [literal, native] {
            let read = try #require(try Self.read(string))
            #expect(read.text == string)
            #expect(read.utf8Count == string.utf8.count)
            #expect(!read.isTruncated)
        }
    }

    @Test func aLongStringIsCutAtTheLimitAndSaysSo() throws {
        let string = String(repeating: "é", count: StandardLibraryValues.stringByteLimit)  // two bytes each
        let read = try #require(try Self.read(string))
        #expect(read.isTruncated)
        #expect(read.utf8Count == string.utf8.count)
        #expect(read.text == String(repeating: "é", count: StandardLibraryValues.stringByteLimit / 2))
        let odd = "x" + string
        let cut = try #require(try Self.read(odd))
        // The limit falls inside a character: its first byte is dropped, not shown as U+FFFD.
        #expect(cut.text == "x" + String(repeating: "é", count: StandardLibraryValues.stringByteLimit / 2 - 1))
    }

    @Test func arraysGiveTheirCountAndElements() throws {
        let numbers: [Int64] = [3, -1, 4, 1, 5, 9, 2, 6]
        let empty: [Int64] = []
        let bytes: [UInt8] = [1, 2, 3]
        for (array, alignment, expected) in [(numbers as Any, 8, numbers.count), (empty as Any, 8, 0), (bytes as Any, 1, 3)] {
            let storage: UInt64
            switch array {
            case let values as [Int64]: storage = Self.words(of: values)[0]
            default: storage = Self.words(of: array as! [UInt8])[0]
            }
            let contents = try StandardLibraryValues.array(storage: storage, elementAlignment: alignment, in: Self.memory)
            #expect(contents.count == expected)
        }
        let contents = try StandardLibraryValues.array(storage: Self.words(of: numbers)[0], elementAlignment: 8, in: Self.memory)
        let elements = try (0..<contents.count).map { index throws(BinaryInfoError) in
            try Self.memory.read(Int64.self, at: contents.elementsAddress + UInt64(index * 8), what: "element")
        }
        #expect(elements == numbers)
        numbers.withUnsafeBufferPointer { #expect(UInt64(UInt(bitPattern: $0.baseAddress)) == contents.elementsAddress) }
    }

    @Test func wordsNoStringHoldsAreUnknownOrNamed() throws {
        // A foreign (bridged) discriminator: its bytes are not in the target.
        #expect(try StandardLibraryValues.string(countAndFlags: 5 | (1 << 60), object: 0x1000_0000_0000_1000, in: Self.memory) == nil)
        // A native string whose bytes are unmapped.
        #expect(throws: BinaryInfoError.unmapped(path: "process \(getpid())", what: "a String's UTF-8 bytes", address: 0x20, length: 5)) {
            try StandardLibraryValues.string(countAndFlags: 5 | (1 << 60), object: 0, in: Self.memory)
        }
    }
}
