/// The text of a `String` read from a target's memory.
public struct StringContents: Sendable, Hashable {
    /// The text, or its first ``StandardLibraryValues/stringByteLimit`` bytes when ``isTruncated``.
    public var text: String
    /// The string's length in UTF-8 bytes.
    public var utf8Count: Int
    /// Whether ``text`` is only the start of the string.
    public var isTruncated: Bool
}

/// Where an `Array`'s elements are in a target's memory.
public struct ArrayContents: Sendable, Hashable {
    /// How many elements the array holds.
    public var count: Int
    /// The address of the first element (the storage object's tail).
    public var elementsAddress: UInt64
}

/// Values of the standard library's `String` and `Array`, read from a target's memory by the
/// layout the stdlib fixes in its ABI (`@frozen`, 64-bit): `_StringObject` is a count-and-flags
/// word and a discriminated object word; an array is one reference to a storage object whose
/// header (`HeapObject`, count, capacity and flags) precedes the elements.
///
/// Only forms whose bytes are all in the target are read: small strings, native and literal large
/// strings. Shared and foreign strings (bridged from Objective-C, not made on Linux) are nil:
/// unknown, never guessed.
public enum StandardLibraryValues {
    /// The most bytes of one string read.
    public static let stringByteLimit = 4096
    /// A large string's bytes start this far past its object address (`_StringObject.nativeBias`).
    static let nativeBias: UInt64 = 32
    /// `_StringObject`'s discriminator bits in the object word: b61 is small, b60 is foreign.
    static let smallBit: UInt64 = 1 << 61
    static let foreignBit: UInt64 = 1 << 60
    static let addressMask: UInt64 = 0x0FFF_FFFF_FFFF_FFFF
    /// `CountAndFlags`: the count is the low 48 bits; b60 says the bytes are tail-allocated.
    static let countMask: UInt64 = 0x0000_FFFF_FFFF_FFFF
    static let tailAllocatedBit: UInt64 = 1 << 60
    /// An array storage object's header: `HeapObject` (16 bytes), then `count`, then capacity and flags.
    static let arrayCountOffset: UInt64 = 16
    static let arrayHeaderSize: UInt64 = 32

    /// The contents of the `String` whose two words are `countAndFlags` and `object`, or nil for a
    /// form whose bytes are not in the target (shared, foreign) or words no String holds.
    ///
    /// - Throws: ``BinaryInfoError`` when the target does not hold the bytes the string points to.
    public static func string(countAndFlags: UInt64, object: UInt64, in reader: some ByteReader) throws(BinaryInfoError) -> StringContents?
    {
        if object & smallBit != 0 {
            let count = Int((object >> 56) & 0x0F)
            guard count <= 15 else { return nil }
            var bytes: [UInt8] = []
            for index in 0..<count {
                let word = index < 8 ? countAndFlags : object
                bytes.append(UInt8(truncatingIfNeeded: word >> (UInt64(index % 8) * 8)))
            }
            return StringContents(text: String(decoding: bytes, as: UTF8.self), utf8Count: count, isTruncated: false)
        }
        guard object & foreignBit == 0, countAndFlags & tailAllocatedBit != 0 else { return nil }
        let count = countAndFlags & countMask
        let (start, overflow) = (object & addressMask).addingReportingOverflow(nativeBias)
        guard !overflow else { return nil }
        let read = Int(min(count, UInt64(stringByteLimit)))
        let bytes = try reader.bytes(at: start, count: read, what: "a String's UTF-8 bytes")
        var text = String(decoding: bytes, as: UTF8.self)
        let truncated = UInt64(read) < count
        if truncated, text.unicodeScalars.last == "\u{FFFD}", bytes.last.map({ $0 & 0x80 != 0 }) == true {
            // The limit cut a character; drop its repaired remnant rather than show a character the string does not hold.
            text.unicodeScalars.removeLast()
        }
        return StringContents(text: text, utf8Count: Int(count), isTruncated: truncated)
    }

    /// The count and elements of the array whose storage object is at `storage`, with elements of
    /// `elementAlignment`.
    ///
    /// - Throws: ``BinaryInfoError`` when the target does not hold the header, or it states a
    ///   count no array holds (negative, or above its capacity).
    public static func array(storage: UInt64, elementAlignment: Int, in reader: some ByteReader) throws(BinaryInfoError) -> ArrayContents {
        let count = try reader.read(Int64.self, at: storage &+ arrayCountOffset, what: "an array's count")
        let capacityAndFlags = try reader.read(UInt64.self, at: storage &+ arrayCountOffset &+ 8, what: "an array's capacity")
        let capacity = capacityAndFlags >> 1
        guard count >= 0, UInt64(count) <= capacity else {
            throw BinaryInfoError.malformedRecord(
                path: reader.path, what: "an array's storage", address: storage,
                detail: "count \(count) with capacity \(capacity): not an array")
        }
        let alignment = UInt64(max(elementAlignment, 1))
        let (end, overflow) = storage.addingReportingOverflow(arrayHeaderSize + alignment - 1)
        guard !overflow, alignment & (alignment - 1) == 0 else {
            throw BinaryInfoError.malformedRecord(
                path: reader.path, what: "an array's storage", address: storage, detail: "elements leave the address space")
        }
        return ArrayContents(count: Int(count), elementsAddress: end & ~(alignment - 1))
    }
}
