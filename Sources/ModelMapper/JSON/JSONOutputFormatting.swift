import Foundation

/// How encoded JSON is laid out.
public struct JSONOutputFormatting: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int

    /// Creates formatting options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Members and elements on lines of their own, indented by two spaces, `"key" : value`
    /// (the layout of Foundation's `.prettyPrinted`).
    public static let prettyPrinted = JSONOutputFormatting(rawValue: 1 << 0)
    /// Object members sorted by key (by Unicode scalar values, so output is stable).
    public static let sortedKeys = JSONOutputFormatting(rawValue: 1 << 1)
}

extension JSONTape {
    /// Writes the value at `i` again with `formatting` applied.
    func write(_ i: Int, into writer: inout JSONWriter, formatting: JSONOutputFormatting, level: Int = 0) {
        let pretty = formatting.contains(.prettyPrinted)
        func newline(_ level: Int) {
            guard pretty else { return }
            writer.byte(UInt8(ascii: "\n"))
            for _ in 0..<(level * 2) { writer.byte(UInt8(ascii: " ")) }
        }
        switch kind(i) {
        case .null: writer.null()
        case .true: writer.bool(true)
        case .false: writer.bool(false)
        case .number: writer.bytes.append(contentsOf: slice(i))
        case .string: writer.string(string(at: i))
        case .array:
            let count = Int(nodes[i].count)
            writer.byte(UInt8(ascii: "["))
            var k = i + 1
            for index in 0..<count {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                newline(level + 1)
                write(k, into: &writer, formatting: formatting, level: level + 1)
                k = next(after: k)
            }
            if count > 0 { newline(level) }
            writer.byte(UInt8(ascii: "]"))
        case .object:
            var members: [(key: String, value: Int)] = []
            members.reserveCapacity(Int(nodes[i].count))
            var k = i + 1
            for _ in 0..<nodes[i].count {
                members.append((string(at: k), k + 1))
                k = next(after: k + 1)
            }
            if formatting.contains(.sortedKeys) {
                members.sort { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
            }
            writer.byte(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                newline(level + 1)
                writer.string(member.key)
                if pretty {
                    writer.bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
                } else {
                    writer.byte(UInt8(ascii: ":"))
                }
                write(member.value, into: &writer, formatting: formatting, level: level + 1)
            }
            if !members.isEmpty { newline(level) }
            writer.byte(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue {
    /// UTF-8 JSON for this value, laid out with `formatting`.
    ///
    /// - Parameter formatting: pretty printing and/or sorted keys.
    /// - Returns: the JSON bytes.
    public func jsonData(formatting: JSONOutputFormatting) -> Data {
        Data(JSONWriter.formatted(jsonData(), formatting))
    }

    /// JSON text for this value, laid out with `formatting`.
    public func jsonString(formatting: JSONOutputFormatting) -> String {
        String(decoding: JSONWriter.formatted(jsonData(), formatting), as: UTF8.self)
    }
}

extension JSONWriter {
    /// `json` (compact, as this writer produces it) laid out again with `formatting`.
    static func formatted<Bytes: Sequence<UInt8>>(_ json: Bytes, _ formatting: JSONOutputFormatting) -> [UInt8] {
        let compact = Array(json)
        guard !formatting.isEmpty else { return compact }
        let result: [UInt8]? = compact.withUnsafeBufferPointer { bytes in
            try? JSONReader.withTape(bytes, options: JSONReadOptions(maxDepth: .max)) { tape in
                var writer = JSONWriter(capacity: compact.count * 2)
                tape.write(0, into: &writer, formatting: formatting)
                return writer.bytes
            }
        }
        return result ?? compact
    }
}
