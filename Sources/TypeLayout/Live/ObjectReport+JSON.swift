#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ObjectReport {
    /// The report as JSON: `{"address", "type", "size", "fields": [{"name", "type", "offset", "value"}]}`,
    /// keys sorted; an unknown value is `null`, with the reason under `unknown` beside it, an
    /// unknown type `null` with the reason under `typeUnknown`.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try LayoutJSON.encode(self, pretty: pretty)
    }

    static func hex(_ address: UInt64) -> String { "0x" + String(address, radix: 16) }
}

extension ObjectReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case address, type, size, fields, unknownFields, unfollowedReferences
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.hex(address), forKey: .address)
        try container.encode(type, forKey: .type)
        try container.encode(size, forKey: .size)
        try container.encode(fields, forKey: .fields)
        try container.encodeIfPresent(unknownFields, forKey: .unknownFields)
        if unfollowedReferences > 0 { try container.encode(unfollowedReferences, forKey: .unfollowedReferences) }
    }
}

extension ObjectField: Encodable {
    private enum CodingKeys: String, CodingKey {
        case name, type, offset, value, unknown, typeUnknown
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(typeUnknown, forKey: .typeUnknown)
        try container.encode(offset, forKey: .offset)
        try container.encode(value, forKey: .value)
        if case .unknown(let reason) = value { try container.encode(reason, forKey: .unknown) }
    }
}

extension ObjectValue: Encodable {
    private enum CodingKeys: String, CodingKey {
        case `case`, payload, address, type, object, count, elements, fields, text, utf8Count, truncated, unknown, shownAbove,
            storage
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .signed(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .unsigned(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .floatingPoint(let value):
            var container = encoder.singleValueContainer()
            // JSON has no infinities or NaN: those are spelled as Swift prints them.
            if value.isFinite { try container.encode(value) } else { try container.encode("\(value)") }
        case .boolean(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let text, nil):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .string(let text, let count?):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encode(count, forKey: .utf8Count)
            try container.encode(true, forKey: .truncated)
        case .enumCase(let name, let payload):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .case)
            try container.encodeIfPresent(payload, forKey: .payload)
            if case .unknown(let reason)? = payload { try container.encode(reason, forKey: .unknown) }
        case .reference(let address, let type, let object):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ObjectReport.hex(address), forKey: .address)
            try container.encode(type, forKey: .type)
            if type == nil { try container.encode(Self.unknownReferenceReason, forKey: .unknown) }
            try container.encodeIfPresent(object, forKey: .object)
        case .alreadyShown(let address, let type):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(ObjectReport.hex(address), forKey: .address)
            try container.encode(type, forKey: .type)
            try container.encode(true, forKey: .shownAbove)
        case .array(let count, let elements, let storage):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(count, forKey: .count)
            try container.encode(elements, forKey: .elements)
            try container.encode(ObjectReport.hex(storage), forKey: .storage)
            // An element that could not be read is null; its reason is under `unknown`, by index.
            let reasons = Dictionary(
                uniqueKeysWithValues: elements.enumerated().compactMap { index, element in
                    if case .unknown(let reason) = element { return (String(index), reason) }
                    return nil
                })
            if !reasons.isEmpty { try container.encode(reasons, forKey: .unknown) }
        case .aggregate(let fields):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(fields, forKey: .fields)
        case .unknown:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}
