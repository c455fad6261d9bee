#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a layout document could not be read.
public enum LayoutDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document was written by a newer schema than this build reads.
    case unsupportedSchemaVersion(found: Int, supported: Int)
    /// The bytes are not a layout document; `detail` says where it went wrong.
    case malformed(detail: String)

    public var description: String {
        switch self {
        case .unsupportedSchemaVersion(let found, let supported):
            return "layout document has schema version \(found), this typeinfo reads up to \(supported): upgrade typeinfo"
        case .malformed(let detail):
            return "not a typeinfo layout document: \(detail)"
        }
    }
}

extension LayoutDocument {
    /// Encodes the document as stable JSON: keys sorted, unknown values written as `null`.
    ///
    /// - Parameter pretty: indent the output for people and diffs (default) or write one line.
    /// - Returns: UTF-8 JSON ending in a newline.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try LayoutJSON.encode(self, pretty: pretty)
    }

    /// Decodes a document written by ``jsonData(pretty:)``.
    ///
    /// - Parameter data: UTF-8 JSON.
    /// - Returns: the document.
    /// - Throws: ``LayoutDocumentError`` naming the JSON path of the first problem.
    public init(jsonData data: Data) throws {
        do {
            self = try JSONDecoder().decode(LayoutDocument.self, from: data)
        } catch let error as LayoutDocumentError {
            throw error
        } catch {
            throw LayoutDocumentError.malformed(detail: LayoutJSON.describeDecodingError(error))
        }
    }
}

extension LayoutDocument: Codable {
    private enum CodingKeys: String, CodingKey {
        case schemaVersion, image, types
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .schemaVersion)
        guard version <= Self.currentSchemaVersion, version >= 1 else {
            throw LayoutDocumentError.unsupportedSchemaVersion(found: version, supported: Self.currentSchemaVersion)
        }
        schemaVersion = version
        image = try container.decode(ImageSummary.self, forKey: .image)
        types = try container.decode([TypeLayout].self, forKey: .types)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(image, forKey: .image)
        try container.encode(types, forKey: .types)
    }
}

extension ImageSummary: Codable {
    private enum CodingKeys: String, CodingKey {
        case path, fileType, architecture, hasSymbols, hasDebugInfo, notes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        fileType = try container.decodeIfPresent(String.self, forKey: .fileType).flatMap(ImageFileType.init(description:))
        architecture = try container.decodeIfPresent(String.self, forKey: .architecture)
        hasSymbols = try container.decodeIfPresent(Bool.self, forKey: .hasSymbols)
        hasDebugInfo = try container.decodeIfPresent(Bool.self, forKey: .hasDebugInfo)
        // The document keeps each note's text only: read back, a note is text.
        notes = try (container.decodeIfPresent([String].self, forKey: .notes) ?? []).map(LayoutNote.text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(fileType?.description, forKey: .fileType)
        try container.encode(architecture, forKey: .architecture)
        try container.encode(hasSymbols, forKey: .hasSymbols)
        try container.encode(hasDebugInfo, forKey: .hasDebugInfo)
        try container.encode(notes.map(\.text), forKey: .notes)
    }
}

extension TypeLayout: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, mangledName, kind, module, size, alignment, stride, instanceSize, instanceAlignment
        case superclass, genericParameters, conformances, fields, cases, source
        case sources, enumStrategy, extraInhabitants, enumTagBytes, enumTagSpareBits
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        mangledName = try container.decodeIfPresent(String.self, forKey: .mangledName)
        kind = try container.decode(TypeKind.self, forKey: .kind)
        module = try container.decodeIfPresent(String.self, forKey: .module)
        size = try container.decodeIfPresent(Int.self, forKey: .size)
        alignment = try container.decodeIfPresent(Int.self, forKey: .alignment)
        stride = try container.decodeIfPresent(Int.self, forKey: .stride)
        instanceSize = try container.decodeIfPresent(Int.self, forKey: .instanceSize)
        instanceAlignment = try container.decodeIfPresent(Int.self, forKey: .instanceAlignment)
        superclass = try container.decodeIfPresent(String.self, forKey: .superclass)
        genericParameters = try container.decodeIfPresent([String].self, forKey: .genericParameters) ?? []
        conformances = try container.decodeIfPresent([String].self, forKey: .conformances) ?? []
        fields = try container.decodeIfPresent([FieldLayout].self, forKey: .fields) ?? []
        cases = try container.decodeIfPresent([EnumCaseLayout].self, forKey: .cases) ?? []
        source = try container.decodeIfPresent(LayoutSource.self, forKey: .source)
        factSources = try container.decodeFactSources(TypeFact.self, forKey: .sources)
        enumStrategy = try container.decodeIfPresent(EnumStrategy.self, forKey: .enumStrategy)
        extraInhabitants = try container.decodeIfPresent(Int.self, forKey: .extraInhabitants)
        enumTagBytes = try container.decodeIfPresent(Int.self, forKey: .enumTagBytes)
        if let mask = try container.decodeIfPresent(String.self, forKey: .enumTagSpareBits) {
            guard let bytes = SpareBitMask.bytes(hex: mask) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .enumTagSpareBits, in: container, debugDescription: "expected hexadecimal bytes, two digits each")
            }
            enumTagSpareBits = bytes
        }
    }

    // Every key is written, unknown ones as null, so tools can rely on the shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(mangledName, forKey: .mangledName)
        try container.encode(kind, forKey: .kind)
        try container.encode(module, forKey: .module)
        try container.encode(size, forKey: .size)
        try container.encode(alignment, forKey: .alignment)
        try container.encode(stride, forKey: .stride)
        try container.encode(instanceSize, forKey: .instanceSize)
        try container.encode(instanceAlignment, forKey: .instanceAlignment)
        try container.encode(superclass, forKey: .superclass)
        try container.encode(genericParameters, forKey: .genericParameters)
        try container.encode(conformances, forKey: .conformances)
        try container.encode(fields, forKey: .fields)
        try container.encode(cases, forKey: .cases)
        try container.encode(source, forKey: .source)
        // Additions within schema version 1, present only where a merged reading knows them.
        if !factSources.isEmpty { try container.encode(factSources, forKey: .sources) }
        try container.encodeIfPresent(enumStrategy, forKey: .enumStrategy)
        try container.encodeIfPresent(extraInhabitants, forKey: .extraInhabitants)
        try container.encodeIfPresent(enumTagBytes, forKey: .enumTagBytes)
        try container.encodeIfPresent(enumTagSpareBits.map(SpareBitMask.hex), forKey: .enumTagSpareBits)
    }
}

extension FieldLayout: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, type, mangledType, offset, size, alignment, bitOffset, bitWidth, isVar, ownership, sources
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        type = try container.decode(String.self, forKey: .type)
        mangledType = try container.decodeIfPresent(String.self, forKey: .mangledType)
        offset = try container.decodeIfPresent(Int.self, forKey: .offset)
        size = try container.decodeIfPresent(Int.self, forKey: .size)
        alignment = try container.decodeIfPresent(Int.self, forKey: .alignment)
        bitOffset = try container.decodeIfPresent(Int.self, forKey: .bitOffset)
        bitWidth = try container.decodeIfPresent(Int.self, forKey: .bitWidth)
        // Absent (a document before unknown could be written): `var`; null: unknown.
        isVar = container.contains(.isVar) ? try container.decodeIfPresent(Bool.self, forKey: .isVar) : true
        ownership = try container.decodeIfPresent(Ownership.self, forKey: .ownership) ?? .strong
        factSources = try container.decodeFactSources(FieldFact.self, forKey: .sources)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(mangledType, forKey: .mangledType)
        try container.encode(offset, forKey: .offset)
        try container.encode(size, forKey: .size)
        // Alignment appears only where a reader knows it (an addition to schema version 1).
        try container.encodeIfPresent(alignment, forKey: .alignment)
        // Bitfield keys appear only on bitfields, to keep Swift documents uncluttered.
        try container.encodeIfPresent(bitOffset, forKey: .bitOffset)
        try container.encodeIfPresent(bitWidth, forKey: .bitWidth)
        try container.encode(isVar, forKey: .isVar)
        try container.encode(ownership, forKey: .ownership)
        if !factSources.isEmpty { try container.encode(factSources, forKey: .sources) }
    }
}

extension EnumCaseLayout: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, payloadType, indirect, payloadSize
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        payloadType = try container.decodeIfPresent(String.self, forKey: .payloadType)
        indirect = try container.decodeIfPresent(Bool.self, forKey: .indirect) ?? false
        payloadSize = try container.decodeIfPresent(Int.self, forKey: .payloadSize)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(payloadType, forKey: .payloadType)
        try container.encode(indirect, forKey: .indirect)
        try container.encodeIfPresent(payloadSize, forKey: .payloadSize)
    }
}
