/// Malformed JSON: what is wrong and where, as a byte offset and a line and column.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the input.
    public enum Reason: Sendable, Equatable {
        /// The input has no value at all (empty or whitespace only).
        case emptyInput
        /// The input ends inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte(UInt8)
        /// Bytes that are not well-formed UTF-8 (inside a string or elsewhere).
        case invalidUTF8
        /// An unknown escape, or a malformed `\u` escape.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate that has no partner.
        case unpairedSurrogate
        /// A raw control character (below U+0020) inside a string.
        case controlCharacterInString
        /// Number text that does not follow JSON's grammar (leading zeros, lone `-`, `1.`).
        case invalidNumber
        /// Arrays and objects nested deeper than the reader's limit.
        case nestingTooDeep(limit: Int)
        /// A key that occurs twice in one object, when duplicates are rejected.
        case duplicateKey(String)
        /// More bytes after the top-level value.
        case trailingData
        /// The input is larger than the reader's 4 GiB limit.
        case inputTooLarge
    }

    /// What is wrong.
    public let reason: Reason
    /// The offset of the offending byte from the start of the input.
    public let offset: Int
    /// The 1-based line of the offending byte.
    public let line: Int
    /// The 1-based column (in bytes) of the offending byte.
    public let column: Int

    /// Creates an error; line and column are given by the caller.
    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    init(_ reason: Reason, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        self.init(reason: reason, offset: offset, line: line, column: column)
    }

    /// A one-line message naming the problem and its position.
    public var description: String {
        "malformed JSON at line \(line), column \(column) (byte \(offset)): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .emptyInput: return "no value in input"
        case .unexpectedEnd: return "input ends inside a value"
        case .unexpectedByte(let byte):
            if byte >= 0x20 && byte < 0x7F { return "unexpected character '\(Character(Unicode.Scalar(byte)))'" }
            return "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
        case .invalidUTF8: return "invalid UTF-8"
        case .invalidEscape: return "invalid escape sequence in string"
        case .unpairedSurrogate: return "unpaired UTF-16 surrogate in \\u escape"
        case .controlCharacterInString: return "unescaped control character in string"
        case .invalidNumber: return "invalid number"
        case .nestingTooDeep(let limit): return "arrays and objects nested deeper than \(limit) levels"
        case .duplicateKey(let key): return "duplicate key \"\(key)\""
        case .trailingData: return "unexpected data after the top-level value"
        case .inputTooLarge: return "input larger than 4 GiB"
        }
    }
}
