/// The spelling of a bit mask over a value's bytes (``TypeLayout/enumTagSpareBits``): lowercase
/// hexadecimal, two digits per byte, bytes in memory order (`"0000000000000080"`: the top bit
/// of the eighth byte).
public enum SpareBitMask {
    /// The mask's text.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xf)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a mask's text; nil for anything but pairs of hexadecimal digits.
    public static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index + 1 < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The number of bits set.
    public static func bitCount(_ bytes: [UInt8]) -> Int { bytes.reduce(0) { $0 + $1.nonzeroBitCount } }
}
