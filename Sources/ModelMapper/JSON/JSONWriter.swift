import Foundation

/// Why a value could not be written as JSON.
public enum JSONWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An infinity or NaN, which JSON cannot express.
    case nonFiniteNumber(path: String)
    /// A value of a type that has no JSON form (found in a `[String: Any]` input, say).
    case unsupportedValue(type: String, path: String)

    /// A one-line message naming the value and where it was.
    public var description: String {
        switch self {
        case .nonFiniteNumber(let path): return "\(path): infinity or NaN has no JSON form"
        case .unsupportedValue(let type, let path): return "\(path): a value of type \(type) has no JSON form"
        }
    }
}

/// A byte-level JSON writer appending compact UTF-8 JSON to a buffer.
///
/// Commas and colons are the caller's business (the mapper knows where members go); the
/// writer escapes strings as RFC 8259 requires and writes numbers in their shortest exact form.
struct JSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    @inline(__always) mutating func byte(_ b: UInt8) { bytes.append(b) }

    @inline(__always) mutating func raw(_ text: [UInt8]) { bytes.append(contentsOf: text) }

    mutating func null() { raw(JSONWriter.nullBytes) }

    mutating func bool(_ value: Bool) { raw(value ? JSONWriter.trueBytes : JSONWriter.falseBytes) }

    private static let nullBytes = Array("null".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    /// Writes an integer in decimal.
    @inline(__always)
    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ 48)
            return
        }
        var magnitude = value.magnitude
        // 40 digits cover UInt128.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 41) { buffer in
            var i = 41
            repeat {
                let (q, r) = magnitude.quotientAndRemainder(dividingBy: 10)
                i -= 1
                buffer[i] = UInt8(truncatingIfNeeded: r) &+ 48
                magnitude = q
            } while magnitude != 0
            if value < 0 {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<41]))
        }
    }

    /// Writes a finite `Double` in its shortest round-tripping form; the caller checks finiteness.
    mutating func double(_ value: Double) {
        if value == 0 && value.sign == .minus {
            // "-0.0", not "-0": readers that turn integer text into integers would lose the sign.
            bytes.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: "0"), UInt8(ascii: "."), UInt8(ascii: "0")])
            return
        }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            integer(Int64(value))
            return
        }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The JSON text of a finite `Double`.
    static func text(for value: Double) -> String {
        var writer = JSONWriter(capacity: 24)
        writer.double(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `value` as a quoted, escaped JSON string.
    mutating func string(_ value: borrowing String) {
        // Native strings lend their UTF-8 without a copy of the string (a retain and release);
        // others (bridged, non-contiguous) are copied into contiguous UTF-8 first.
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in quoted(utf8) }
        if written == nil {
            var contiguous = copy value
            contiguous.withUTF8 { utf8 in quoted(utf8) }
        }
    }

    /// Writes UTF-8 `utf8` as a quoted, escaped JSON string.
    mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: check first, then copy them in one append.
        var clean = true
        // Non-ASCII needs no escape here, so the reader's word-at-a-time skip stops early on it;
        // the byte loop after it decides.
        for b in utf8[JSONReader.skipPlainASCII(utf8, from: 0)...]
        where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            clean = false
            break
        }
        if clean {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        var runStart = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") else { continue }
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            bytes.append(UInt8(ascii: "\\"))
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a ``JSONValue`` tree.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n):
            var text = n.text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case .string(let s): string(s)
        case .array(let elements):
            byte(UInt8(ascii: "["))
            for (k, element) in elements.enumerated() {
                if k > 0 { byte(UInt8(ascii: ",")) }
                self.value(element)
            }
            byte(UInt8(ascii: "]"))
        case .object(let object):
            byte(UInt8(ascii: "{"))
            for (k, member) in object.members.enumerated() {
                if k > 0 { byte(UInt8(ascii: ",")) }
                string(member.key)
                byte(UInt8(ascii: ":"))
                self.value(member.value)
            }
            byte(UInt8(ascii: "}"))
        }
    }

    /// Writes a Foundation-style value (`[String: Any]`, `[Any]`, `String`, numbers, `Bool`,
    /// `NSNull`, `nil`, ``JSONValue``).
    ///
    /// - Throws: ``JSONWriteError`` for non-finite numbers and values with no JSON form.
    mutating func any(_ value: Any, path: String = "$") throws {
        switch value {
        case let v as JSONValue: self.value(v)
        case is NSNull: null()
        case let v as NSNumber where type(of: value) is NSNumber.Type:
            // Checked before the Swift number types, which an NSNumber would bridge to.
            try number(v, path: path)
        case let v as String: string(v)
        case let v as Bool where type(of: value) == Bool.self: bool(v)
        case let v as Int: integer(v)
        case let v as Int64: integer(v)
        case let v as Int32: integer(v)
        case let v as Int16: integer(v)
        case let v as Int8: integer(v)
        case let v as UInt: integer(v)
        case let v as UInt64: integer(v)
        case let v as UInt32: integer(v)
        case let v as UInt16: integer(v)
        case let v as UInt8: integer(v)
        case let v as Double where type(of: value) == Double.self:
            guard v.isFinite else { throw JSONWriteError.nonFiniteNumber(path: path) }
            double(v)
        case let v as Float where type(of: value) == Float.self:
            guard v.isFinite else { throw JSONWriteError.nonFiniteNumber(path: path) }
            var text = v.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case let v as Decimal:
            guard !v.isNaN else { throw JSONWriteError.nonFiniteNumber(path: path) }
            var text = v.description
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case let v as [String: Any]:
            byte(UInt8(ascii: "{"))
            for (k, member) in v.enumerated() {
                if k > 0 { byte(UInt8(ascii: ",")) }
                string(member.key)
                byte(UInt8(ascii: ":"))
                try any(member.value, path: path + "." + member.key)
            }
            byte(UInt8(ascii: "}"))
        case let v as [Any]:
            byte(UInt8(ascii: "["))
            for (k, element) in v.enumerated() {
                if k > 0 { byte(UInt8(ascii: ",")) }
                try any(element, path: "\(path)[\(k)]")
            }
            byte(UInt8(ascii: "]"))
        default:
            // `Optional.none` inside `Any` is written as null; anything else has no JSON form.
            if let optional = value as? any OptionalProtocol {
                guard let wrapped = optional.wrappedAny else { return null() }
                return try any(wrapped, path: path)
            }
            throw JSONWriteError.unsupportedValue(type: String(describing: type(of: value)), path: path)
        }
    }

    private mutating func number(_ v: NSNumber, path: String) throws {
        switch String(cString: v.objCType) {
        case "c", "B":
            // CFBoolean-backed numbers (and char) report "c".
            if v.int64Value == 0 || v.int64Value == 1 { bool(v.boolValue) } else { integer(v.int64Value) }
        case "f", "d":
            let double = v.doubleValue
            guard double.isFinite else { throw JSONWriteError.nonFiniteNumber(path: path) }
            self.double(double)
        case "Q", "L", "I", "S", "C":
            integer(v.uint64Value)
        default:
            integer(v.int64Value)
        }
    }
}

/// Lets code holding an `Any` tell an `Optional` apart and unwrap it.
protocol OptionalProtocol {
    /// The wrapped value, or `nil`.
    var wrappedAny: Any? { get }
    /// The `Wrapped` type.
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProtocol {
    var wrappedAny: Any? { self.map { $0 } }
    static var wrappedType: Any.Type { Wrapped.self }
}
