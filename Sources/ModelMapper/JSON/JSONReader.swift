/// What the reader does when one object has the same key twice.
public enum DuplicateKeyPolicy: Sendable, Hashable {
    /// The last occurrence wins (what JavaScript and most readers do). The default.
    case useLast
    /// The input is rejected with ``JSONReadError/Reason/duplicateKey(_:)``.
    case reject
}

/// Limits and policies of the JSON reader.
public struct JSONReadOptions: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted; deeper input is an error, not a
    /// stack overflow. Default 512.
    public var maxDepth: Int
    /// What to do about a key that occurs twice in one object. Default ``DuplicateKeyPolicy/useLast``.
    public var duplicateKeys: DuplicateKeyPolicy

    /// Creates reader options.
    public init(maxDepth: Int = 512, duplicateKeys: DuplicateKeyPolicy = .useLast) {
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
    }
}

/// One entry of the tape the reader produces: a value, or an object key (a string).
///
/// Strings and numbers point at their bytes in the input and are converted only when a
/// consumer asks for them, to the type it asks for, so numbers are never rounded twice.
struct JSONNode {
    enum Kind: UInt8 { case null, `true`, `false`, number, string, array, object }
    /// What this node is.
    var kind: Kind
    /// Strings: contains escapes. Numbers: has neither fraction nor exponent.
    var flag: Bool
    /// Strings and numbers: first byte of the content. Containers: offset of `[` or `{`.
    var start: UInt32
    /// Strings and numbers: end of the content. Containers: index of the node after the last child.
    var end: UInt32
    /// Containers: number of elements, or of members for objects.
    var count: UInt32
}

/// A byte-level JSON reader producing a flat tape of ``JSONNode``s.
///
/// It validates everything JSON requires (UTF-8 in strings, escapes and surrogate pairs,
/// number grammar, no trailing data) in one pass, bounds nesting by
/// ``JSONReadOptions/maxDepth`` and never traps on any input.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: JSONReadOptions
    private var position = 0
    private var depth = 0
    private(set) var nodes: [JSONNode] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, options: JSONReadOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// Reads `bytes` and hands its tape to `body`; the tape is valid only inside `body`.
    static func withTape<R>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        options: JSONReadOptions,
        _ body: (JSONTape) throws -> R
    ) throws -> R {
        guard bytes.count < Int(UInt32.max) else {
            throw JSONReadError(reason: .inputTooLarge, offset: 0, line: 1, column: 1)
        }
        var reader = JSONReader(bytes: bytes, options: options)
        reader.nodes.reserveCapacity(bytes.count / 12 + 4)
        try reader.readDocument()
        return try reader.nodes.withUnsafeBufferPointer { nodes in
            try body(JSONTape(bytes: bytes, nodes: nodes))
        }
    }

    private func fail(_ reason: JSONReadError.Reason, at offset: Int? = nil) -> JSONReadError {
        JSONReadError(reason, at: offset ?? position, in: bytes)
    }

    private mutating func readDocument() throws {
        // A UTF-8 byte order mark is tolerated.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw fail(.emptyInput) }
        try readValue()
        skipWhitespace()
        guard position == bytes.count else { throw fail(.trailingData) }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws {
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            try readString()
        case UInt8(ascii: "{"):
            try readObject()
        case UInt8(ascii: "["):
            try readArray()
        case UInt8(ascii: "t"):
            try readLiteral("true", kind: .true)
        case UInt8(ascii: "f"):
            try readLiteral("false", kind: .false)
        case UInt8(ascii: "n"):
            try readLiteral("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let (end, isInteger) = JSONNumberScanner.scan(bytes, from: position) else {
                throw fail(.invalidNumber)
            }
            // `01` and `1.` scan as `0` and fail here on the byte after.
            nodes.append(JSONNode(kind: .number, flag: isInteger, start: UInt32(position), end: UInt32(end), count: 0))
            position = end
        case let byte:
            throw fail(byte >= 0x80 ? .invalidUTF8 : .unexpectedByte(byte))
        }
    }

    private mutating func readLiteral(_ word: StaticString, kind: JSONNode.Kind) throws {
        let length = word.utf8CodeUnitCount
        let text = UnsafeBufferPointer(start: word.utf8Start, count: length)
        for k in 0..<length {
            guard position + k < bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
            guard bytes[position + k] == text[k] else { throw fail(.unexpectedByte(bytes[position + k]), at: position + k) }
        }
        nodes.append(JSONNode(kind: kind, flag: false, start: UInt32(position), end: 0, count: 0))
        position += length
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= options.maxDepth else { throw fail(.nestingTooDeep(limit: options.maxDepth)) }
    }

    /// Opens the array or object whose first byte is at `position`: appends its node (count and
    /// end are filled in by ``closeContainer(_:count:)``) and says whether `closing` follows at
    /// once (then consumed: the container is empty).
    @inline(__always)
    private mutating func openContainer(_ kind: JSONNode.Kind, closing: UInt8) throws -> (index: Int, isEmpty: Bool) {
        try enter()
        let index = nodes.count
        nodes.append(JSONNode(kind: kind, flag: false, start: UInt32(position), end: 0, count: 0))
        position += 1
        skipWhitespace()
        guard position < bytes.count && bytes[position] == closing else { return (index, false) }
        position += 1
        return (index, true)
    }

    @inline(__always)
    private mutating func closeContainer(_ index: Int, count: UInt32) {
        nodes[index].count = count
        nodes[index].end = UInt32(nodes.count)
        depth -= 1
    }

    private mutating func readArray() throws {
        let (index, isEmpty) = try openContainer(.array, closing: UInt8(ascii: "]"))
        var count: UInt32 = 0
        if !isEmpty {
            while true {
                try readValue()
                count += 1
                guard try readSeparator(closing: UInt8(ascii: "]")) else { break }
            }
        }
        closeContainer(index, count: count)
    }

    /// After a container's element: `,` (true: another element follows) or the closing byte
    /// (false); anything else is an error at that byte.
    @inline(__always)
    private mutating func readSeparator(closing: UInt8) throws -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: ",") {
            skipWhitespace()
            return true
        }
        if byte == closing { return false }
        throw fail(.unexpectedByte(byte), at: position - 1)
    }

    private mutating func readObject() throws {
        let (index, isEmpty) = try openContainer(.object, closing: UInt8(ascii: "}"))
        var count: UInt32 = 0
        if !isEmpty {
            while true {
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                guard bytes[position] == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(bytes[position])) }
                try readString()
                skipWhitespace()
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                guard bytes[position] == UInt8(ascii: ":") else { throw fail(.unexpectedByte(bytes[position])) }
                position += 1
                skipWhitespace()
                try readValue()
                count += 1
                guard try readSeparator(closing: UInt8(ascii: "}")) else { break }
            }
        }
        closeContainer(index, count: count)
        if options.duplicateKeys == .reject && count > 1 { try checkDuplicateKeys(objectAt: index) }
    }

    private func checkDuplicateKeys(objectAt index: Int) throws {
        try nodes.withUnsafeBufferPointer { nodes in
            let tape = JSONTape(bytes: bytes, nodes: nodes)
            var seen = Set<String>()
            var key = index + 1
            for _ in 0..<nodes[index].count {
                let name = tape.string(at: key)
                guard seen.insert(name).inserted else {
                    throw fail(.duplicateKey(name), at: Int(nodes[key].start) - 1)
                }
                key = tape.next(after: key + 1)
            }
        }
    }

    /// Reads a string whose opening quote is at `position`, validating UTF-8 and escapes.
    private mutating func readString() throws {
        let start = position + 1
        var i = start
        var hasEscapes = false
        let n = bytes.count
        scanning: while true {
            // Runs of plain ASCII are the common case: eight bytes per step while none of them
            // is a quote, a backslash, a control character or non-ASCII, then byte by byte.
            i = JSONReader.skipPlainASCII(bytes, from: i)
            while i < n {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { break }
                i += 1
            }
            guard i < n else { throw fail(.unexpectedEnd, at: n) }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                break scanning
            case UInt8(ascii: "\\"):
                hasEscapes = true
                i = try validateEscape(at: i)
            case 0..<0x20:
                throw fail(.controlCharacterInString, at: i)
            default:
                i = try validateMultibyte(at: i)
            }
        }
        nodes.append(JSONNode(kind: .string, flag: hasEscapes, start: UInt32(start), end: UInt32(i), count: 0))
        position = i + 1
    }

    /// The first index at or after `i` whose 8-byte word holds a byte that needs a look
    /// (`"`, `\`, below 0x20, or 0x80 and above); bounds-checked, unaligned loads.
    @inline(__always)
    static func skipPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            @inline(__always) func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
            let quote = hasZeroByte(word ^ (ones &* 0x22))
            let backslash = hasZeroByte(word ^ (ones &* 0x5C))
            let control = (word &- (ones &* 0x20)) & ~word & highs != 0
            let nonASCII = word & highs != 0
            if quote || backslash || control || nonASCII { break }
            i += 8
        }
        return i
    }

    /// Validates the escape starting with the backslash at `i`; returns the index after it.
    private func validateEscape(at i: Int) throws -> Int {
        guard i + 1 < bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: i + 2)
            if unit >= 0xDC00 && unit <= 0xDFFF { throw fail(.unpairedSurrogate, at: i) }
            guard unit >= 0xD800 && unit <= 0xDBFF else { return i + 6 }
            guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u") else {
                throw fail(.unpairedSurrogate, at: i)
            }
            let low = try hexUnit(at: i + 8)
            guard low >= 0xDC00 && low <= 0xDFFF else { throw fail(.unpairedSurrogate, at: i) }
            return i + 12
        default:
            throw fail(.invalidEscape, at: i)
        }
    }

    private func hexUnit(at i: Int) throws -> UInt16 {
        guard i + 4 <= bytes.count else { throw fail(.unexpectedEnd, at: bytes.count) }
        var value: UInt16 = 0
        for k in i..<(i + 4) {
            guard let digit = JSONTape.hexValue(bytes[k]) else { throw fail(.invalidEscape, at: k) }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence starting at `i` (RFC 3629: no overlongs, no
    /// surrogates, nothing above U+10FFFF); returns the index after it.
    private func validateMultibyte(at i: Int) throws -> Int {
        let lead = bytes[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw fail(.invalidUTF8, at: i)
        }
        guard i + length <= bytes.count else { throw fail(.invalidUTF8, at: i) }
        let second = bytes[i + 1]
        guard second >= low && second <= high else { throw fail(.invalidUTF8, at: i) }
        for k in (i + 2)..<(i + length) where bytes[k] & 0xC0 != 0x80 {
            throw fail(.invalidUTF8, at: i)
        }
        return i + length
    }
}
