import Foundation
import Testing

@testable import ModelMapper

/// The reader against Foundation's JSONSerialization as the oracle for valid input, and a
/// table of malformed inputs, each with the one error it must give.
@Suite struct JSONReaderTests {
    static let validDocuments: [String] = [
        #"{}"#, #"[]"#, #"0"#, #"-0"#, #"1.5e-3"#, #""x""#, "true", "false", "null",
        #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
        #"  [ 1 , 2.25 , -3e2 , "s" , { } , [ ] ]  "#,
        #"{"esc":"\"\\\/\b\f\n\r\t\u00e9\u2603\ud83d\ude00"}"#,
        #"["héllo ☃ 😀", "\u0000"]"#,
        #"{"big":12345678901234567890123,"small":-9223372036854775808,"frac":0.1}"#,
        "\u{FEFF}[1]",
    ]

    @Test(arguments: validDocuments)
    func validInputMatchesJSONSerialization(_ text: String) throws {
        let ours = try JSONValue(parsing: text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.equal(ours, theirs), "\(ours) vs \(theirs)")
    }

    /// Compares our tree with JSONSerialization's, numbers by value.
    static func equal(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let b): return (theirs as? Bool) == b
        case .number(let n):
            guard let t = theirs as? NSNumber, let d = n.doubleValue else { return false }
            return t.doubleValue == d
        case .string(let s): return (theirs as? String) == s
        case .array(let a):
            guard let t = theirs as? [Any], t.count == a.count else { return false }
            return zip(a, t).allSatisfy { equal($0, $1) }
        case .object(let o):
            guard let t = theirs as? [String: Any], t.count == o.count else { return false }
            return o.allSatisfy { member in t[member.key].map { equal(member.value, $0) } ?? false }
        }
    }

    struct Bad: Sendable, CustomStringConvertible {
        let bytes: [UInt8]
        let reason: JSONReadError.Reason
        let offset: Int
        init(_ text: String, _ reason: JSONReadError.Reason, at offset: Int) {
            self.init(Array(text.utf8), reason, at: offset)
        }
        init(_ bytes: [UInt8], _ reason: JSONReadError.Reason, at offset: Int) {
            self.bytes = bytes
            self.reason = reason
            self.offset = offset
        }
        var description: String { String(decoding: bytes, as: UTF8.self) }
    }

    static let malformed: [Bad] = [
        Bad("", .emptyInput, at: 0),
        Bad("   ", .emptyInput, at: 3),
        Bad("[1,2", .unexpectedEnd, at: 4),
        Bad("[1,]", .unexpectedByte(UInt8(ascii: "]")), at: 3),
        Bad("{\"a\" 1}", .unexpectedByte(UInt8(ascii: "1")), at: 5),
        Bad("{a:1}", .unexpectedByte(UInt8(ascii: "a")), at: 1),
        Bad("01", .trailingData, at: 1),
        Bad("1.", .invalidNumber, at: 0),
        Bad("-", .invalidNumber, at: 0),
        Bad("1e", .invalidNumber, at: 0),
        Bad("+1", .unexpectedByte(UInt8(ascii: "+")), at: 0),
        Bad("tru", .unexpectedEnd, at: 3),
        Bad("nul!", .unexpectedByte(UInt8(ascii: "!")), at: 3),
        Bad("[1] x", .trailingData, at: 4),
        Bad("\"abc", .unexpectedEnd, at: 4),
        Bad("\"a\u{01}b\"", .controlCharacterInString, at: 2),
        Bad(#""\x""#, .invalidEscape, at: 1),
        Bad(#""\u12G4""#, .invalidEscape, at: 5),
        Bad(#""\ud83d""#, .unpairedSurrogate, at: 1),
        Bad(#""\ud83dx""#, .unpairedSurrogate, at: 1),
        Bad(#""\ude00""#, .unpairedSurrogate, at: 1),
        Bad(#""\ud83d\u0041""#, .unpairedSurrogate, at: 1),
        Bad([0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
        Bad([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1),  // overlong '/'
        Bad([0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, at: 1),  // overlong
        Bad([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),  // encoded surrogate
        Bad([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),  // above U+10FFFF
        Bad([0x22, 0xE2, 0x98, 0x22], .invalidUTF8, at: 1),  // truncated
        Bad([0x22, 0xE2, 0x98], .invalidUTF8, at: 1),  // truncated at end
        Bad([0x80], .invalidUTF8, at: 0),
    ]

    @Test(arguments: malformed)
    func malformedInputGivesItsError(_ bad: Bad) {
        #expect {
            _ = try JSONValue(parsing: Data(bad.bytes))
        } throws: { error in
            guard let error = error as? JSONReadError else { return false }
            return error.reason == bad.reason && error.offset == bad.offset
        }
    }

    @Test func errorNamesLineAndColumn() {
        let text = "{\n  \"a\": 1,\n  \"b\": tru\n}"
        #expect {
            _ = try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONReadError else { return false }
            return error.line == 3 && error.column == 11 && error.description.contains("line 3, column 11")
        }
    }

    @Test func nestingTenThousandDeepIsAnErrorNotACrash() {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let text = String(repeating: open, count: 10_000) + "1" + String(repeating: close, count: 10_000)
            #expect {
                _ = try JSONValue(parsing: text)
            } throws: { error in
                (error as? JSONReadError)?.reason == .nestingTooDeep(limit: 512)
            }
        }
        // Unclosed deep input fails the same way.
        #expect(throws: JSONReadError.self) { _ = try JSONValue(parsing: String(repeating: "[", count: 10_000)) }
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = 512
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue(parsing: text)
        var seen = 0
        while case .array(let elements) = value {
            seen += 1
            value = elements.first ?? .null
        }
        #expect(seen == depth)
        let limited = JSONReadOptions(maxDepth: 3)
        #expect(throws: JSONReadError.self) { _ = try JSONValue(parsing: "[[[[]]]]", options: limited) }
        _ = try JSONValue(parsing: "[[[]]]", options: limited)
    }

    @Test func duplicateKeysLastWinsOrRejected() throws {
        let text = #"{"a":1,"b":2,"a":3}"#
        let value = try JSONValue(parsing: text)
        #expect(value["a"] == .int(3))
        #expect(value.anyValue as? [String: Int] == ["a": 3, "b": 2])
        #expect {
            _ = try JSONValue(parsing: text, options: JSONReadOptions(duplicateKeys: .reject))
        } throws: { error in
            (error as? JSONReadError)?.reason == .duplicateKey("a")
        }
        // Keys are compared unescaped: "\u0061" is "a".
        #expect(throws: JSONReadError.self) {
            _ = try JSONValue(parsing: #"{"a":1,"\u0061":2}"#, options: JSONReadOptions(duplicateKeys: .reject))
        }
    }

    @Test func hugeNumbersParseAndKeepTheirText() throws {
        let text = "[" + String(repeating: "9", count: 5000) + ", 1e999999999, -1e-999999999]"
        let value = try JSONValue(parsing: text)
        #expect(value[0]?.numberValue?.text.count == 5000)
        #expect(value[0]?.numberValue?.int64Value == nil)
        #expect(value[1]?.numberValue?.doubleValue == nil)  // beyond Double: no value, no trap
        #expect(value[2]?.numberValue?.doubleValue == 0)
    }

    @Test func stringsUnescapeLikeJSONSerialization() throws {
        let samples = [#""\u00e9\u00E8 \u2603 \ud83d\ude00""#, #""tab\there\nline""#, #""\/\\\"""#, #""plain ascii""#]
        for sample in samples {
            let theirs = try JSONSerialization.jsonObject(with: Data(sample.utf8), options: [.fragmentsAllowed])
            #expect(try JSONValue(parsing: sample).stringValue == theirs as? String)
        }
    }
}
