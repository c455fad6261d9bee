#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension LeakReport {
    /// Encodes the report as stable JSON (keys sorted): `schemaVersion`, `target`, `totals`,
    /// `leaks` (each with one of `swiftType`, `swiftContextCaptures` (with `captureTypes`, null and
    /// `capturesConservative` saying why when not laid out) and `mallocUsableSize`, `count`, `bytes`, `addresses`) and
    /// `notes` (their text).
    ///
    /// - Parameter pretty: indent the output for people and diffs (default) or write one line.
    /// - Returns: UTF-8 JSON ending in a newline.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try LayoutJSON.encode(self, pretty: pretty)
    }
}

extension LeakReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case schemaVersion, target, totals, leaks, cycles, notes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentSchemaVersion, forKey: .schemaVersion)
        try container.encode(target, forKey: .target)
        try container.encode(totals, forKey: .totals)
        try container.encode(entries, forKey: .leaks)
        try container.encode(cycles, forKey: .cycles)
        try container.encode(notes.map(\.text), forKey: .notes)
    }
}

extension LeakReport.Entry: Encodable {
    private enum CodingKeys: String, CodingKey {
        case swiftType, swiftContextCaptures, captureTypes, capturesConservative, mallocUsableSize, count, bytes, addresses
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .swiftObject(let type):
            try container.encode(type, forKey: .swiftType)
        case .swiftContext(let captures):
            try container.encode(captures, forKey: .swiftContextCaptures)
            try container.encode(captureTypes, forKey: .captureTypes)
            if captureTypes == nil {
                try container.encode(
                    "its captures were not laid out (the reflection library lays out a generic closure's captures from each context's own generic arguments, or knows no capture descriptor for it): its words are followed conservatively",
                    forKey: .capturesConservative)
            }
        case .malloc(let size):
            try container.encode(size, forKey: .mallocUsableSize)
        }
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(addresses, forKey: .addresses)
    }
}
