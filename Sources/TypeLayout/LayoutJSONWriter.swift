#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON `Encoder` that writes exactly what `JSONEncoder` writes with `.sortedKeys` and
/// `.withoutEscapingSlashes` (pretty or compact), for the values layout documents hold: strings,
/// integers, booleans, nulls, arrays and keyed objects.
///
/// `JSONEncoder` spends about 240 instructions per output byte on a layout document (a quarter of
/// `typeinfo dump`'s work on a large library); this builds the same tree with less boxing and
/// writes bytes directly. Anything else (floating point, `Date`, `Data`, `URL`, whose spelling
/// `JSONEncoder` decides) makes ``encode(_:pretty:)`` return nil, and the caller falls back to
/// `JSONEncoder`. `LayoutJSONWriterTests` compare both byte for byte.
struct LayoutJSONWriter {
    /// The UTF-8 JSON for `value`, or nil when it holds a value this writer does not spell.
    static func encode(_ value: some Encodable, pretty: Bool) -> [UInt8]? {
        let encoder = TreeEncoder(codingPath: [], slot: Slot.root())
        do {
            try value.encode(to: encoder)
        } catch {
            return nil
        }
        guard let root = encoder.slot.node else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        var orders = KeyOrders()
        write(root, into: &output, pretty: pretty, depth: 0, orders: &orders)
        return output
    }

    /// The coding path is not extended as values nest: encoding never fails for a reason it would
    /// name, and layout documents' `encode(to:)` do not read it.
    ///
    /// The values of a container (or the root's one value). Containers are classes so a nested
    /// container can be filled after it is made; a value is a place in its container's list, not
    /// an object of its own (an allocation and a release a value saved).
    class Values {
        final var nodes: [Node?] = []
    }

    /// Where one JSON value goes: a place in a container's list.
    struct Slot {
        let owner: Values
        let index: Int
        var node: Node? {
            get { owner.nodes[index] }
            nonmutating set { owner.nodes[index] = newValue }
        }

        /// A new place of its own, for the document's root value.
        static func root() -> Slot {
            let values = Values()
            values.nodes.append(nil)
            return Slot(owner: values, index: 0)
        }
    }

    enum Node {
        case object(ObjectStorage)
        case array(ArrayStorage)
        case string(String)
        case integer(String)
        case bool(Bool)
        case null
    }

    /// An object's members in the order they were first encoded (a key encoded again replaces
    /// its value, as in JSONEncoder); objects here have a few dozen keys at most.
    final class ObjectStorage: Values {
        var keys: [String] = []
        func slot(for key: String) -> Slot {
            if let index = keys.firstIndex(of: key) { return Slot(owner: self, index: index) }
            keys.append(key)
            nodes.append(nil)
            return Slot(owner: self, index: nodes.count - 1)
        }
    }

    final class ArrayStorage: Values {
        func next() -> Slot {
            nodes.append(nil)
            return Slot(owner: self, index: nodes.count - 1)
        }
    }

    /// The order in which an object's keys are written, by its keys as encoded: the objects of a
    /// document come from a few types, each encoding the same keys in the same order, so each
    /// order is sorted once.
    struct KeyOrders {
        var byKeys: [[String]: [Int]] = [:]

        /// The positions of `keys` sorted by code units, as JSONEncoder's .sortedKeys does.
        mutating func order(of keys: [String]) -> [Int] {
            if let known = byKeys[keys] { return known }
            let keysAreASCII = keys.allSatisfy { key in key.utf8.allSatisfy { $0 < 0x80 } }
            // String's own `<` is code-unit order for ASCII, and its fast path.
            let order = keys.indices.sorted {
                keysAreASCII ? keys[$0] < keys[$1] : keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8)
            }
            byKeys[keys] = order
            return order
        }
    }

    /// Thrown for a value `JSONEncoder` would spell its own way.
    struct Unsupported: Error {}

    // MARK: - Writing

    private static let separatorPretty: [UInt8] = Array(",\n".utf8)
    private static let keySeparatorPretty: [UInt8] = Array(" : ".utf8)
    private static let spaces = [UInt8](repeating: 0x20, count: 256)

    private static func write(_ node: Node, into output: inout [UInt8], pretty: Bool, depth: Int, orders: inout KeyOrders) {
        switch node {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let digits): output.append(contentsOf: digits.utf8)
        case .string(let text): writeString(text, into: &output)
        case .array(let storage):
            output.append(UInt8(ascii: "["))
            if pretty { output.append(0x0A) }
            var first = true
            for element in storage.nodes {
                guard let value = element else { continue }
                if !first {
                    if pretty { output.append(contentsOf: separatorPretty) } else { output.append(UInt8(ascii: ",")) }
                }
                first = false
                if pretty { indent(depth + 1, into: &output) }
                write(value, into: &output, pretty: pretty, depth: depth + 1, orders: &orders)
            }
            if pretty {
                output.append(0x0A)
                indent(depth, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let storage):
            let order = orders.order(of: storage.keys)
            output.append(UInt8(ascii: "{"))
            if pretty { output.append(0x0A) }
            var first = true
            for index in order {
                let key = storage.keys[index]
                guard let value = storage.nodes[index] else { continue }
                if !first {
                    if pretty { output.append(contentsOf: separatorPretty) } else { output.append(UInt8(ascii: ",")) }
                }
                first = false
                if pretty { indent(depth + 1, into: &output) }
                writeString(key, into: &output)
                if pretty { output.append(contentsOf: keySeparatorPretty) } else { output.append(UInt8(ascii: ":")) }
                write(value, into: &output, pretty: pretty, depth: depth + 1, orders: &orders)
            }
            if pretty {
                output.append(0x0A)
                indent(depth, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func indent(_ depth: Int, into output: inout [UInt8]) {
        var remaining = depth * 2
        while remaining > 0 {
            let count = min(remaining, spaces.count)
            output.append(contentsOf: spaces[..<count])
            remaining -= count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Quotes and escapes `text` as JSONEncoder does: `"` and `\`, the short escapes for
    /// backspace, form feed, newline, return and tab, `\u00XX` for other control characters;
    /// everything else (slashes, non-ASCII) as UTF-8.
    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        // Most strings need no escape: copied whole.
        let plain = text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if plain {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

// MARK: - The Encoder

extension LayoutJSONWriter {
    final class TreeEncoder: Encoder {
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        let slot: Slot

        init(codingPath: [any CodingKey], slot: Slot) {
            self.codingPath = codingPath
            self.slot = slot
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let storage: ObjectStorage
            if case .object(let existing)? = slot.node {
                storage = existing
            } else {
                storage = ObjectStorage()
                slot.node = .object(storage)
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(storage: storage, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let storage: ArrayStorage
            if case .array(let existing)? = slot.node {
                storage = existing
            } else {
                storage = ArrayStorage()
                slot.node = .array(storage)
            }
            return UnkeyedContainer(storage: storage, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(slot: slot, codingPath: codingPath)
        }
    }

    /// Encodes `value` into `slot`: strings, integers and booleans directly (compared by type,
    /// not cast), anything else through its `encode(to:)`.
    static func encodeValue<T: Encodable>(_ value: T, into slot: Slot, codingPath: [any CodingKey]) throws {
        if T.self == String.self {
            slot.node = .string(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            slot.node = .integer(String(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Bool.self {
            slot.node = .bool(unsafeBitCast(value, to: Bool.self))
        } else if let digits = otherInteger(value) {
            slot.node = .integer(digits)
        } else if T.self == Double.self || T.self == Float.self {
            throw Unsupported()
        } else {
            // Date, Data, URL and Decimal have JSONEncoder-specific spellings.
            guard T.self != Date.self, T.self != Data.self, T.self != URL.self, T.self != Decimal.self else { throw Unsupported() }
            try value.encode(to: TreeEncoder(codingPath: codingPath, slot: slot))
        }
    }

    /// The digits of a fixed-width integer other than `Int`, compared by type identity.
    private static func otherInteger<T>(_ value: T) -> String? {
        if T.self == UInt8.self { return String(unsafeBitCast(value, to: UInt8.self)) }
        if T.self == UInt16.self { return String(unsafeBitCast(value, to: UInt16.self)) }
        if T.self == UInt32.self { return String(unsafeBitCast(value, to: UInt32.self)) }
        if T.self == UInt64.self { return String(unsafeBitCast(value, to: UInt64.self)) }
        if T.self == UInt.self { return String(unsafeBitCast(value, to: UInt.self)) }
        if T.self == Int8.self { return String(unsafeBitCast(value, to: Int8.self)) }
        if T.self == Int16.self { return String(unsafeBitCast(value, to: Int16.self)) }
        if T.self == Int32.self { return String(unsafeBitCast(value, to: Int32.self)) }
        if T.self == Int64.self { return String(unsafeBitCast(value, to: Int64.self)) }
        return nil
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: ObjectStorage
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { storage.slot(for: key.stringValue).node = .null }
        mutating func encode(_ value: String, forKey key: Key) throws { storage.slot(for: key.stringValue).node = .string(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { storage.slot(for: key.stringValue).node = .integer(String(value)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { storage.slot(for: key.stringValue).node = .bool(value) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try LayoutJSONWriter.encodeValue(value, into: storage.slot(for: key.stringValue), codingPath: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<
            NestedKey
        > {
            TreeEncoder(codingPath: codingPath, slot: storage.slot(for: key.stringValue)).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            TreeEncoder(codingPath: codingPath, slot: storage.slot(for: key.stringValue)).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder {
            TreeEncoder(codingPath: codingPath, slot: storage.slot(for: "super"))
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            TreeEncoder(codingPath: codingPath, slot: storage.slot(for: key.stringValue))
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let storage: ArrayStorage
        let codingPath: [any CodingKey]
        var count: Int { storage.nodes.count }

        private func next() -> Slot { storage.next() }
        mutating func encodeNil() throws { next().node = .null }
        mutating func encode(_ value: String) throws { next().node = .string(value) }
        mutating func encode(_ value: Int) throws { next().node = .integer(String(value)) }
        mutating func encode(_ value: Bool) throws { next().node = .bool(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try LayoutJSONWriter.encodeValue(value, into: next(), codingPath: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            TreeEncoder(codingPath: codingPath, slot: next()).container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            TreeEncoder(codingPath: codingPath, slot: next()).unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { TreeEncoder(codingPath: codingPath, slot: next()) }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        mutating func encodeNil() throws { slot.node = .null }
        mutating func encode(_ value: String) throws { slot.node = .string(value) }
        mutating func encode(_ value: Int) throws { slot.node = .integer(String(value)) }
        mutating func encode(_ value: Bool) throws { slot.node = .bool(value) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try LayoutJSONWriter.encodeValue(value, into: slot, codingPath: codingPath)
        }
    }
}
