#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one JSON encoding and the one wording of decoding errors that every report and
/// document in TypeLayout shares, so `dump`, `check`, `diff` and `holes` write JSON the same
/// way and a malformed file is described the same way whichever reader meets it.
enum LayoutJSON {
    /// Encodes a value as stable JSON: keys sorted, slashes unescaped, ending in a newline.
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - pretty: indent for people and diffs (default) or write one line.
    /// - Returns: UTF-8 JSON.
    static func encode(_ value: some Encodable, pretty: Bool = true) throws -> Data {
        // The same bytes, written without JSONEncoder's boxing where the writer spells every value.
        if var bytes = LayoutJSONWriter.encode(value, pretty: pretty) {
            bytes.append(0x0A)
            return Data(bytes)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// Says what is wrong with a JSON document and where, as `missing key 'name' at $.types[3]`.
    ///
    /// - Parameter error: an error thrown by `JSONDecoder`.
    /// - Returns: one line naming the problem and its JSON path.
    static func describeDecodingError(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context):
            return "expected \(type), found null at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            let underlying = context.underlyingError.map { ": \(String(describing: $0))" } ?? ""
            return "\(context.debugDescription)\(underlying) at \(path(context.codingPath))"
        default:
            return String(describing: error)
        }
    }

    /// Renders a coding path as `$.types[3].fields[0].name`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var result = "$"
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += ".\(key.stringValue)"
            }
        }
        return result
    }
}
