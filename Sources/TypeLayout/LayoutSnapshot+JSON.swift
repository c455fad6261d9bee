#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension LayoutSnapshot {
    /// Encodes the snapshot in its stable, diff-friendly JSON form: fixed key order, one
    /// field or case per line, so a changed layout shows up as a small `git diff`.
    ///
    /// - Returns: UTF-8 JSON ending in a newline.
    public func jsonData() -> Data {
        Data(jsonString().utf8)
    }

    /// The text of ``jsonData()``.
    ///
    /// - Returns: the JSON text ending in a newline.
    public func jsonString() -> String {
        var out = "{\n"
        out += "  \"format\": \(JSONText.string(Self.formatName)),\n"
        out += "  \"version\": \(version),\n"
        if let selection, !selection.isEmpty {
            let list = { (items: [String]) in "[" + items.map(JSONText.string).joined(separator: ", ") + "]" }
            out +=
                "  \"selection\": {\"kinds\": \(list(selection.kinds.map(\.rawValue))), \"modules\": \(list(selection.modules)), \"typePatterns\": \(list(selection.typePatterns))},\n"
        }
        if types.isEmpty {
            out += "  \"types\": []\n}\n"
            return out
        }
        out += "  \"types\": [\n"
        for (index, type) in types.enumerated() {
            Self.write(type, to: &out)
            out += index == types.count - 1 ? "\n" : ",\n"
        }
        out += "  ]\n}\n"
        return out
    }

    /// Decodes a snapshot written by ``jsonData()``. A layout document (the output of
    /// `typeinfo dump --format json`) is accepted as well and normalized into a snapshot.
    ///
    /// - Parameter data: UTF-8 JSON.
    /// - Throws: ``LayoutSnapshotError`` naming the JSON path of the first problem.
    public init(jsonData data: Data) throws {
        let decoder = JSONDecoder()
        let header: FileHeader
        do {
            header = try decoder.decode(FileHeader.self, from: data)
        } catch {
            throw LayoutSnapshotError.malformed(detail: LayoutJSON.describeDecodingError(error))
        }
        if header.format == nil, header.schemaVersion != nil {
            do {
                self.init(document: try LayoutDocument(jsonData: data))
            } catch let error as LayoutDocumentError {
                throw LayoutSnapshotError.malformed(detail: "layout document: \(error)")
            }
            return
        }
        guard header.format == Self.formatName else {
            let found = header.format.map { "'\($0)'" } ?? "no \"format\" key"
            throw LayoutSnapshotError.malformed(detail: "expected \"format\": \"\(Self.formatName)\", found \(found)")
        }
        let version = header.version ?? 0
        guard version >= 1 else {
            throw LayoutSnapshotError.malformed(detail: "missing or invalid \"version\" at $.version")
        }
        guard version <= Self.currentVersion else {
            throw LayoutSnapshotError.unsupportedVersion(found: version, supported: Self.currentVersion)
        }
        let file: SnapshotFile
        do {
            file = try decoder.decode(SnapshotFile.self, from: data)
        } catch {
            throw LayoutSnapshotError.malformed(detail: LayoutJSON.describeDecodingError(error))
        }
        self.init(types: file.types)
        self.version = version
        self.selection = file.selection.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func write(_ type: TypeLayout, to out: inout String) {
        out += "    {\n"
        var lines: [String] = [
            "\"name\": \(JSONText.string(type.name))",
            "\"kind\": \(JSONText.string(type.kind.rawValue))",
            "\"size\": \(JSONText.int(type.size))",
            "\"alignment\": \(JSONText.int(type.alignment))",
            "\"stride\": \(JSONText.int(type.stride))",
        ]
        if type.kind == .class {
            lines.append("\"instanceSize\": \(JSONText.int(type.instanceSize))")
            lines.append("\"instanceAlignment\": \(JSONText.int(type.instanceAlignment))")
            lines.append("\"superclass\": \(JSONText.optionalString(type.superclass))")
        }
        lines.append(arrayText(key: "fields", items: type.fields.map(fieldText)))
        if !type.cases.isEmpty || type.kind == .enum {
            lines.append(arrayText(key: "cases", items: type.cases.map(caseText)))
        }
        out += lines.map { "      " + $0 }.joined(separator: ",\n")
        out += "\n    }"
    }

    private static func arrayText(key: String, items: [String]) -> String {
        if items.isEmpty { return "\"\(key)\": []" }
        return "\"\(key)\": [\n" + items.map { "        " + $0 }.joined(separator: ",\n") + "\n      ]"
    }

    private static func fieldText(_ field: FieldLayout) -> String {
        var parts = [
            "\"name\": \(JSONText.string(field.name))",
            "\"offset\": \(JSONText.int(field.offset))",
            "\"size\": \(JSONText.int(field.size))",
        ]
        if let bitOffset = field.bitOffset { parts.append("\"bitOffset\": \(bitOffset)") }
        if let bitWidth = field.bitWidth { parts.append("\"bitWidth\": \(bitWidth)") }
        parts.append("\"type\": \(JSONText.string(field.type))")
        if field.ownership != .strong { parts.append("\"ownership\": \(JSONText.string(field.ownership.rawValue))") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func caseText(_ enumCase: EnumCaseLayout) -> String {
        var parts = [
            "\"name\": \(JSONText.string(enumCase.name))",
            "\"payloadType\": \(JSONText.optionalString(enumCase.payloadType))",
        ]
        if enumCase.indirect { parts.append("\"indirect\": true") }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

/// The keys that tell a snapshot from a layout document, read before the rest.
private struct FileHeader: Decodable {
    var format: String?
    var version: Int?
    var schemaVersion: Int?
}

/// A snapshot's types are decoded as a layout document's are (``TypeLayout``'s `Codable`): the
/// snapshot writes a subset of the same keys.
private struct SnapshotFile: Decodable {
    var selection: LayoutSnapshot.Selection?
    var types: [TypeLayout]
}

/// The few JSON spellings the hand-written snapshot and SVG writers need.
enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func string(_ value: String) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    static func optionalString(_ value: String?) -> String {
        value.map(string) ?? "null"
    }

    static func int(_ value: Int?) -> String {
        value.map(String.init) ?? "null"
    }
}
