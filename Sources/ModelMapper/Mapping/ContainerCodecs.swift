import TypeInfo

/// `Wrapped?`: `null` is `nil`; anything else is read as `Wrapped`.
final class OptionalCodec<Wrapped>: ValueCodec<Wrapped?>, @unchecked Sendable {
    let wrapped: ValueCodec<Wrapped>

    init(_ wrapped: ValueCodec<Wrapped>) { self.wrapped = wrapped }

    override var expected: String { wrapped.expected + " or null" }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Wrapped? {
        if tape.kind(i) == .null || wrapped.isAbsent(tape, i) { return nil }
        return try wrapped.decode(tape, i, context)
    }

    override func encode(_ value: Wrapped?, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard let value else { return writer.null() }
        try wrapped.encode(value, into: &writer, context)
    }

    override func isNil(_ value: Wrapped?) -> Bool { value == nil }
}

/// `[Element]` from a JSON array. In lenient mode an element that does not convert is left
/// out; in strict mode it fails with its index in the path.
final class ArrayCodec<Element>: ValueCodec<[Element]>, @unchecked Sendable {
    let element: ValueCodec<Element>

    init(_ element: ValueCodec<Element>) { self.element = element }

    override var expected: String { "an array of \(element.expected)" }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> [Element] {
        guard tape.kind(i) == .array else { throw mismatch(tape, i) }
        let count = Int(tape.nodes[i].count)
        var result: [Element] = []
        result.reserveCapacity(count)
        var k = i + 1
        for index in 0..<count {
            do {
                if context.tracksPath {
                    result.append(try context.within([.index(index)]) { try element.decode(tape, k, context) })
                } else {
                    result.append(try element.decode(tape, k, context))
                }
            } catch let error as MappingError {
                if context.strict { throw error.prefixed(.index(index)) }
                context.skipped(error.prefixed(.index(index)))
            }
            k = tape.next(after: k)
        }
        return result
    }

    override func encode(_ value: [Element], into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.byte(UInt8(ascii: "["))
        // An index loop: `enumerated()` would instantiate EnumeratedSequence's metadata per call.
        var index = 0
        let count = value.count
        while index < count {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            do { try element.encode(value[index], into: &writer, context) } catch let error as MappingError {
                throw error.prefixed(.index(index))
            }
            index += 1
        }
        writer.byte(UInt8(ascii: "]"))
    }
}

/// `Set<Element>` from a JSON array (duplicates collapse); written as an array.
final class SetCodec<Element: Hashable>: ValueCodec<Set<Element>>, @unchecked Sendable {
    let array: ArrayCodec<Element>

    init(_ element: ValueCodec<Element>) { self.array = ArrayCodec(element) }

    override var expected: String { "an array of \(array.element.expected)" }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Set<Element> {
        Set(try array.decode(tape, i, context))
    }

    override func encode(_ value: Set<Element>, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        try array.encode(Array(value), into: &writer, context)
    }
}

/// How dictionary keys (always strings in JSON) become Swift keys.
protocol DictionaryKeyCodec<Key>: Sendable {
    associatedtype Key: Hashable
    func key(_ text: String) -> Key?
    func text(_ key: Key) -> String
}

struct StringKeyCodec: DictionaryKeyCodec {
    func key(_ text: String) -> String? { text }
    func text(_ key: String) -> String { key }
}

struct IntegerKeyCodec<I: FixedWidthInteger>: DictionaryKeyCodec {
    func key(_ text: String) -> I? { I(text) }
    func text(_ key: I) -> String { String(key) }
}

/// Keys of an enum with `String` or integer raw values, written as their raw value's text.
struct RawValueKeyCodec<Key: RawRepresentable & Hashable>: DictionaryKeyCodec {
    func key(_ text: String) -> Key? {
        if let raw = text as? Key.RawValue { return Key(rawValue: raw) }
        if let int = Int(text), let raw = int as? Key.RawValue { return Key(rawValue: raw) }
        return nil
    }

    func text(_ key: Key) -> String { "\(key.rawValue)" }
}

/// `[Key: Value]` from a JSON object; keys are strings, integers or raw-value enums, written as strings.
final class DictionaryCodec<Keys: DictionaryKeyCodec, Value>: ValueCodec<[Keys.Key: Value]>, @unchecked Sendable {
    let keys: Keys
    let value: ValueCodec<Value>

    init(keys: Keys, value: ValueCodec<Value>) {
        self.keys = keys
        self.value = value
    }

    override var expected: String { "an object of \(value.expected)" }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> [Keys.Key: Value] {
        guard tape.kind(i) == .object else { throw mismatch(tape, i) }
        let count = Int(tape.nodes[i].count)
        var result: [Keys.Key: Value] = [:]
        result.reserveCapacity(count)
        var k = i + 1
        for _ in 0..<count {
            let name = tape.string(at: k)
            do {
                guard let key = keys.key(name) else {
                    throw MappingError(.invalidValue(expected: "a key of type \(Keys.Key.self)", found: "\"\(name)\""))
                }
                result[key] = try context.within(context.tracksPath ? [.key(name)] : []) {
                    try value.decode(tape, k + 1, context)
                }
            } catch let error as MappingError {
                if context.strict { throw error.prefixed(.key(name)) }
                context.skipped(error.prefixed(.key(name)))
            }
            k = tape.next(after: k + 1)
        }
        return result
    }

    override func encode(_ dictionary: [Keys.Key: Value], into writer: inout JSONWriter, _ context: EncodeContext) throws {
        writer.byte(UInt8(ascii: "{"))
        var first = true
        for (key, item) in dictionary {
            if !first { writer.byte(UInt8(ascii: ",")) }
            first = false
            let name = keys.text(key)
            writer.string(name)
            writer.byte(UInt8(ascii: ":"))
            do { try value.encode(item, into: &writer, context) } catch let error as MappingError {
                throw error.prefixed(.key(name))
            }
        }
        writer.byte(UInt8(ascii: "}"))
    }
}

/// An enum with raw values, read through its raw value's codec.
final class RawValueCodec<R: RawRepresentable>: ValueCodec<R>, @unchecked Sendable {
    let raw: ValueCodec<R.RawValue>

    init(_ raw: ValueCodec<R.RawValue>) { self.raw = raw }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> R {
        let rawValue = try raw.decode(tape, i, context)
        guard let value = R(rawValue: rawValue) else {
            throw MappingError(.unknownEnumValue(type: String(describing: R.self), value: "\(rawValue)"))
        }
        return value
    }

    override func encode(_ value: R, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        try raw.encode(value.rawValue, into: &writer, context)
    }
}

/// `String?`, `Int?` and `Bool?`, the most common optionals: ``OptionalCodec`` with the
/// wrapped codec's final class as a type parameter, so a specialised read calls it directly
/// (the plan's decoder, see ``DecodingSlot``), and without its absent check (these codecs
/// have no absent form besides `null`). The plan's encoder writes them inline (``FieldScalar``).
final class OptionalScalarCodec<Wrapped, Codec: ValueCodec<Wrapped>>: ValueCodec<Wrapped?>, @unchecked Sendable {
    private let wrapped: Codec

    init(_ wrapped: Codec) { self.wrapped = wrapped }

    override var expected: String { wrapped.expected + " or null" }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> Wrapped? {
        tape.kind(i) == .null ? nil : try wrapped.decode(tape, i, context)
    }

    override func encode(_ value: Wrapped?, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard let value else { return writer.null() }
        try wrapped.encode(value, into: &writer, context)
    }

    override func isNil(_ value: Wrapped?) -> Bool { value == nil }
}

typealias OptionalStringCodec = OptionalScalarCodec<String, StringCodec>
typealias OptionalIntCodec = OptionalScalarCodec<Int, IntCodec>
typealias OptionalBoolCodec = OptionalScalarCodec<Bool, BoolCodec>
