import Foundation

/// A read-only view of a parsed document: the input bytes and the reader's nodes.
///
/// Borrowed storage: both buffers belong to ``JSONReader/withTape(_:options:_:)``'s caller
/// and are valid only inside its closure. Node indices come from the reader, which made
/// every `start`/`end` point inside `bytes` and every container `end` inside `nodes`.
struct JSONTape {
    let bytes: UnsafeBufferPointer<UInt8>
    let nodes: UnsafeBufferPointer<JSONNode>

    @inline(__always) func kind(_ i: Int) -> JSONNode.Kind { nodes[i].kind }

    /// The index of the node after the value at `i` (skipping a container's children).
    @inline(__always)
    func next(after i: Int) -> Int {
        let node = nodes[i]
        return node.kind == .array || node.kind == .object ? Int(node.end) : i + 1
    }

    /// Calls `body` with the index of each element of the array at `array`, in order.
    @inline(__always)
    func forEachElement(of array: Int, _ body: (_ element: Int) throws -> Void) rethrows {
        var k = array + 1
        for _ in 0..<nodes[array].count {
            try body(k)
            k = next(after: k)
        }
    }

    /// Calls `body` with the indices of each member's key and value in the object at `object`, in order.
    @inline(__always)
    func forEachMember(of object: Int, _ body: (_ key: Int, _ value: Int) throws -> Void) rethrows {
        var k = object + 1
        for _ in 0..<nodes[object].count {
            try body(k, k + 1)
            k = next(after: k + 1)
        }
    }

    /// The content bytes of the string or number at `i`.
    @inline(__always)
    func slice(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let node = nodes[i]
        return UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
    }

    /// The string at `i`, unescaped.
    func string(at i: Int) -> String {
        let node = nodes[i]
        let raw = UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
        if !node.flag { return String(decoding: raw, as: UTF8.self) }
        return JSONTape.unescape(raw)
    }

    /// Whether the key string at `i` equals `key` (given as UTF-8 bytes, unescaped).
    @inline(__always)
    func keyEquals(_ i: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[i]
        if node.flag { return string(at: i).utf8.elementsEqual(key) }
        let length = Int(node.end - node.start)
        guard length == key.count else { return false }
        guard let base = bytes.baseAddress, let keyBase = key.baseAddress else { return length == 0 }
        return memcmp(base + Int(node.start), keyBase, length) == 0
    }

    /// The raw bytes of the key at `i` when it is plain ASCII without escapes, else `nil`.
    func plainASCIIKey(_ i: Int) -> UnsafeBufferPointer<UInt8>? {
        guard !nodes[i].flag else { return nil }
        let raw = slice(i)
        return raw.allSatisfy { $0 < 0x80 } ? raw : nil
    }

    /// Whether ASCII `raw` equals `lowercased` (already lowercase) ignoring ASCII case.
    static func equalFoldingASCII(_ raw: UnsafeBufferPointer<UInt8>, _ lowercased: UnsafeBufferPointer<UInt8>) -> Bool {
        guard raw.count == lowercased.count else { return false }
        for k in 0..<raw.count {
            var b = raw[k]
            if b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b |= 0x20 }
            if b != lowercased[k] { return false }
        }
        return true
    }

    /// The index of the value of the last member named `key` in the object at `object`.
    func member(_ key: String, in object: Int) -> Int? {
        var key = key
        return key.withUTF8 { keyBytes in
            var found: Int?
            forEachMember(of: object) { key, value in
                if keyEquals(key, keyBytes) { found = value }
            }
            return found
        }
    }

    /// The index of element `index` of the array at `array`, or `nil` when it has fewer.
    func element(_ index: Int, in array: Int) -> Int? {
        guard index >= 0, index < Int(nodes[array].count) else { return nil }
        var k = array + 1
        for _ in 0..<index { k = next(after: k) }
        return k
    }

    /// A short description of the value's JSON type, for error messages.
    func typeName(_ i: Int) -> String {
        switch nodes[i].kind {
        case .null: return "null"
        case .true, .false: return "a Boolean"
        case .number: return "the number \(String(decoding: slice(i), as: UTF8.self))"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The value at `i` as a ``JSONValue`` tree.
    func value(at i: Int) -> JSONValue {
        switch nodes[i].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(JSONNumber(validatedText: String(decoding: slice(i), as: UTF8.self)))
        case .string: return .string(string(at: i))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(nodes[i].count))
            forEachElement(of: i) { elements.append(value(at: $0)) }
            return .array(elements)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(nodes[i].count))
            forEachMember(of: i) { key, value in members.append((string(at: key), self.value(at: value))) }
            return .object(JSONObject(members))
        }
    }

    /// The value at `i` as Foundation-style `Any`: `NSNull`, `Bool`, `Int`/`Double`/`Decimal`,
    /// `String`, `[Any]`, `[String: Any]` (the last duplicate key wins).
    func anyValue(at i: Int) -> Any {
        switch nodes[i].kind {
        case .null: return NSNull()
        case .true: return true
        case .false: return false
        case .number:
            let text = slice(i)
            if nodes[i].flag {
                // Integers stay exact: Int, then UInt64, then Decimal beyond 64 bits.
                if let int = try? JSONNumberScanner.integer(text, as: Int.self) { return int }
                if let uint = try? JSONNumberScanner.integer(text, as: UInt64.self) { return uint }
                if let decimal = try? JSONNumberScanner.decimal(text) { return decimal }
            }
            if let double = try? JSONNumberScanner.double(text) { return double }
            return (try? JSONNumberScanner.decimal(text)) ?? Double.infinity
        case .string: return string(at: i)
        case .array:
            var elements: [Any] = []
            elements.reserveCapacity(Int(nodes[i].count))
            forEachElement(of: i) { elements.append(anyValue(at: $0)) }
            return elements
        case .object:
            var members: [String: Any] = [:]
            members.reserveCapacity(Int(nodes[i].count))
            forEachMember(of: i) { key, value in members[string(at: key)] = anyValue(at: value) }
            return members
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Unescapes string content the reader has validated. The result is never longer than
    /// the input (`\uXXXX` is 6 bytes for at most 3, a surrogate pair 12 for 4).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: raw.count) { out in
            var o = 0
            var i = 0
            let n = raw.count
            func hex4(_ at: Int) -> UInt32 {
                var v: UInt32 = 0
                for k in at..<min(at + 4, n) { v = v << 4 | UInt32(hexValue(raw[k]) ?? 0) }
                return v
            }
            while i < n {
                let b = raw[i]
                guard b == UInt8(ascii: "\\"), i + 1 < n else {
                    out[o] = b
                    o += 1
                    i += 1
                    continue
                }
                let e = raw[i + 1]
                i += 2
                var scalar: UInt32
                switch e {
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    scalar = hex4(i)
                    i += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF && i + 6 <= n {
                        let low = hex4(i + 2)
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
                        i += 6
                    }
                default: scalar = UInt32(e)
                }
                // The reader rejected unpaired surrogates; replace defensively all the same.
                if scalar >= 0xD800 && scalar <= 0xDFFF || scalar > 0x10FFFF { scalar = 0xFFFD }
                o = writeUTF8(scalar, into: out, at: o)
            }
            return o
        }
    }

    /// Writes `scalar` as UTF-8 at `o`; returns the index after it. Stops at the buffer's end.
    private static func writeUTF8(_ scalar: UInt32, into out: UnsafeMutableBufferPointer<UInt8>, at o: Int) -> Int {
        var units: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let length: Int
        switch scalar {
        case 0..<0x80:
            units.0 = UInt8(scalar)
            length = 1
        case 0x80..<0x800:
            units = (UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F), 0, 0)
            length = 2
        case 0x800..<0x10000:
            units = (UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F), 0)
            length = 3
        default:
            units = (
                UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F),
                UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F)
            )
            length = 4
        }
        guard o + length <= out.count else { return o }
        withUnsafeBytes(of: units) { raw in
            for k in 0..<length { out[o + k] = raw[k] }
        }
        return o + length
    }
}
