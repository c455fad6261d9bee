#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a heap census document (`typeinfo heap --format json`, read back by `--baseline`) could not be read.
public enum HeapCensusDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The document was written by a newer typeinfo.
    case unsupportedSchemaVersion(found: Int, supported: Int)
    /// The bytes are not a heap census; `detail` says where it went wrong.
    case malformed(detail: String)
    /// An entry of `types` (at `index`, naming `type`) holds a value no census has: `detail` says which.
    case invalidEntry(index: Int, type: String, detail: String)
    /// A total (`totals.<field>`) holds a value no census has.
    case invalidTotal(field: String, value: Int)

    public var description: String {
        switch self {
        case .unsupportedSchemaVersion(let found, let supported):
            return "heap census has schema version \(found), this typeinfo reads up to \(supported): upgrade typeinfo"
        case .malformed(let detail):
            return "not a typeinfo heap census (write one with `typeinfo heap --format json`): \(detail)"
        case .invalidEntry(let index, let type, let detail):
            return "not a heap census typeinfo wrote: types[\(index)] (\(type)): \(detail)"
        case .invalidTotal(let field, let value):
            return
                "not a heap census typeinfo wrote: totals.\(field) is \(value), not between 0 and \(HeapCensus.largestAmount)"
        }
    }
}

extension HeapCensus {
    /// Encodes the census as stable JSON: keys sorted, unknown values written as `null`.
    ///
    /// - Parameter pretty: indent the output for people and diffs (default) or write one line.
    /// - Returns: UTF-8 JSON ending in a newline.
    public func jsonData(pretty: Bool = true) throws -> Data {
        try LayoutJSON.encode(self, pretty: pretty)
    }

    /// Decodes a census written by ``jsonData(pretty:)``.
    ///
    /// - Throws: ``HeapCensusDocumentError`` naming the JSON path of the first problem.
    public init(jsonData data: Data) throws(HeapCensusDocumentError) {
        do {
            self = try JSONDecoder().decode(HeapCensus.self, from: data)
        } catch let error as HeapCensusDocumentError {
            throw error
        } catch {
            throw .malformed(detail: LayoutJSON.describeDecodingError(error))
        }
    }
}

extension HeapCensus: Codable {
    private enum CodingKeys: String, CodingKey {
        case schemaVersion, target, totals, order, comparison, types, readChanges, retained
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .schemaVersion)
        guard version >= 1, version <= Self.currentSchemaVersion else {
            throw HeapCensusDocumentError.unsupportedSchemaVersion(found: version, supported: Self.currentSchemaVersion)
        }
        schemaVersion = version
        target = try container.decode(Target.self, forKey: .target)
        totals = try container.decode(Totals.self, forKey: .totals)
        order = try container.decode(Order.self, forKey: .order)
        isComparison = try container.decode(Bool.self, forKey: .comparison)
        types = try container.decode([Entry].self, forKey: .types)
        readChanges = try container.decodeIfPresent(HeapReadChanges.self, forKey: .readChanges)
        retained = try container.decodeIfPresent(Retained.self, forKey: .retained)
        try validate()
    }

    /// Refuses values no census has (a count or size below 0 or beyond any address space, a type
    /// listed twice), so that a hand-edited or damaged baseline is named, not compared with.
    private func validate() throws(HeapCensusDocumentError) {
        let totals: [(String, Int)] = [
            ("allocations", totals.allocations), ("heapBytes", totals.heapBytes), ("swiftObjects", totals.swiftObjects),
            ("swiftObjectBytes", totals.swiftObjectBytes),
        ]
        for (field, value) in totals where !(0...Self.largestAmount).contains(value) {
            throw .invalidTotal(field: field, value: value)
        }
        var seen: Set<String> = []
        for (index, entry) in types.enumerated() {
            let fields: [(String, Int?)] = [
                ("count", entry.count), ("bytes", entry.bytes), ("instanceSize", entry.instanceSize),
                ("retainedBytes", entry.retainedBytes),
            ]
            for case (let field, let value?) in fields where !(0...Self.largestAmount).contains(value) {
                throw .invalidEntry(index: index, type: entry.type, detail: "\(field) is \(value), not between 0 and \(Self.largestAmount)")
            }
            guard seen.insert(entry.key).inserted else {
                throw .invalidEntry(index: index, type: entry.key, detail: "the type is listed twice")
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(target, forKey: .target)
        try container.encode(totals, forKey: .totals)
        try container.encode(order, forKey: .order)
        try container.encode(isComparison, forKey: .comparison)
        try container.encode(types, forKey: .types)
        try container.encode(readChanges, forKey: .readChanges)
        // Only a census with retained sizes has the key: the others' documents stay as they were.
        try container.encodeIfPresent(retained, forKey: .retained)
    }
}

extension HeapCensus.Retained: Codable {
    private enum CodingKeys: String, CodingKey {
        case reachableAllocations, reachableBytes, rootReachedAllocations, edges, meaning
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reachableAllocations = try container.decode(Int.self, forKey: .reachableAllocations)
        reachableBytes = try container.decode(Int.self, forKey: .reachableBytes)
        rootReachedAllocations = try container.decode(Int.self, forKey: .rootReachedAllocations)
        edges = try container.decode(Int.self, forKey: .edges)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reachableAllocations, forKey: .reachableAllocations)
        try container.encode(reachableBytes, forKey: .reachableBytes)
        try container.encode(rootReachedAllocations, forKey: .rootReachedAllocations)
        try container.encode(edges, forKey: .edges)
        try container.encode(Self.meaning, forKey: .meaning)
    }
}

extension HeapCensus.Order: Codable {}

extension HeapCensus.Target: Codable {
    private enum CodingKeys: String, CodingKey {
        case processID, command, core, readWhileRunning, pauseSeconds, foundStopped, coreMismatches
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        processID = try container.decodeIfPresent(Int32.self, forKey: .processID)
        command = try container.decodeIfPresent(String.self, forKey: .command)
        corePath = try container.decodeIfPresent(String.self, forKey: .core)
        readWhileRunning = try container.decode(Bool.self, forKey: .readWhileRunning)
        // Absent from documents of typeinfo versions before the ptrace pause.
        if try container.decodeIfPresent(Bool.self, forKey: .foundStopped) == true {
            stop = .foundStopped
        } else if let seconds = try container.decodeIfPresent(Double.self, forKey: .pauseSeconds), seconds.isFinite, seconds >= 0 {
            stop = .paused(length: .nanoseconds(Int64(min(seconds, 1e9) * 1e9)))
        }
        coreMismatches = try container.decodeIfPresent([CoreMismatch].self, forKey: .coreMismatches) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(processID, forKey: .processID)
        try container.encode(command, forKey: .command)
        try container.encode(corePath, forKey: .core)
        try container.encode(readWhileRunning, forKey: .readWhileRunning)
        try container.encode(stop?.seconds, forKey: .pauseSeconds)
        try container.encode(stop == .foundStopped, forKey: .foundStopped)
        if corePath != nil { try container.encode(coreMismatches, forKey: .coreMismatches) }
    }
}

extension HeapCensus.Totals: Codable {
    private enum CodingKeys: String, CodingKey {
        case allocations, heapBytes, swiftObjects, swiftObjectBytes, unattributedBytes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        allocations = try container.decode(Int.self, forKey: .allocations)
        heapBytes = try container.decode(Int.self, forKey: .heapBytes)
        swiftObjects = try container.decode(Int.self, forKey: .swiftObjects)
        swiftObjectBytes = try container.decode(Int.self, forKey: .swiftObjectBytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(allocations, forKey: .allocations)
        try container.encode(heapBytes, forKey: .heapBytes)
        try container.encode(swiftObjects, forKey: .swiftObjects)
        try container.encode(swiftObjectBytes, forKey: .swiftObjectBytes)
        try container.encode(unattributedBytes, forKey: .unattributedBytes)
    }
}

extension HeapCensus.Entry: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, elementType, count, bytes, instanceSize, countDelta, bytesDelta, addresses, retainedBytes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        elementType = try container.decodeIfPresent(String.self, forKey: .elementType)
        count = try container.decode(Int.self, forKey: .count)
        bytes = try container.decode(Int.self, forKey: .bytes)
        instanceSize = try container.decodeIfPresent(Int.self, forKey: .instanceSize)
        countDelta = try container.decodeIfPresent(Int.self, forKey: .countDelta)
        bytesDelta = try container.decodeIfPresent(Int.self, forKey: .bytesDelta)
        retainedBytes = try container.decodeIfPresent(Int.self, forKey: .retainedBytes)
        addresses =
            try container.decodeIfPresent([String].self, forKey: .addresses)?.compactMap { text in
                text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
            } ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(elementType, forKey: .elementType)
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(instanceSize, forKey: .instanceSize)
        // Deltas exist only in a comparison; elsewhere they are not unknown but meaningless.
        try container.encodeIfPresent(countDelta, forKey: .countDelta)
        try container.encodeIfPresent(bytesDelta, forKey: .bytesDelta)
        try container.encodeIfPresent(retainedBytes, forKey: .retainedBytes)
        if !addresses.isEmpty { try container.encode(addresses.map { "0x" + String($0, radix: 16) }, forKey: .addresses) }
    }
}
