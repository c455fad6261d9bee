import Foundation
import TypeInfo

// Enums with associated values, in the JSON shape Swift's `Codable` synthesis uses: one member
// named after the case, holding an object of the associated values by label (`_0`, `_1`, ...
// for unlabelled ones):
//
//     .circle(radius: 2)   {"circle": {"radius": 2}}
//     .pair(1, 2)          {"pair": {"_0": 1, "_1": 2}}
//     .none                {"none": {}}
//
// Cases are read and built by TypeInfo (`enumCase(of:)`, `makeEnumValue(_:caseNamed:payload:)`);
// payload values go through the codecs of their own types.

/// A codec for one type, seen through `Any` (an associated value of some case).
struct ErasedCodec {
    let decode: (JSONTape, Int, DecodeContext) throws -> Any
    let encode: (Any, inout JSONWriter, EncodeContext) throws -> Void
    /// `nil` of the value's type when it is optional: an absent key's value, as `Codable` reads it.
    let absent: Any?
    /// Whether a value is `nil` (left out when encoding, as `Codable` does).
    let isNil: (Any) -> Bool

    init<V>(_ codec: ValueCodec<V>) {
        let none: Any? = nil
        absent = V.self is any OptionalProtocol.Type ? (none as Any) as? V : nil
        isNil = { value in (value as? V).map(codec.isNil) ?? false }
        decode = { tape, i, context in try codec.decode(tape, i, context) }
        encode = { value, writer, context in
            guard let typed = value as? V else {
                throw MappingError(.unencodable("an associated value of type \(type(of: value)), expected \(V.self)"))
            }
            try codec.encode(typed, into: &writer, context)
        }
    }
}

/// One case: its name, and its associated values' keys and codecs (empty for no payload).
struct EnumCaseCodec {
    let name: String
    let keys: [String]
    let elements: [ErasedCodec]
    /// Whether the payload is a tuple (several values, or one labelled value) rather than one value.
    let isTuple: Bool
}

final class EnumPayloadCodec<E>: ValueCodec<E>, @unchecked Sendable {
    private let info: ClassInfo
    private let cases: [EnumCaseCodec]

    init(info: ClassInfo, cases: [EnumCaseCodec]) {
        self.info = info
        self.cases = cases
    }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> E {
        guard tape.kind(i) == .object, tape.nodes[i].count == 1 else {
            throw MappingError(.typeMismatch(expected: "an object with one member naming a case of \(E.self)", found: describe(tape, i)))
        }
        let name = tape.string(at: i + 1)
        guard let enumCase = cases.first(where: { $0.name == name }) else {
            throw MappingError(.unknownEnumValue(type: String(describing: E.self), value: "\"\(name)\""))
        }
        let body = i + 2
        guard tape.kind(body) == .object else {
            throw MappingError(
                .typeMismatch(expected: "an object of the associated values of \(name)", found: tape.typeName(body)), path: [.key(name)])
        }
        var values: [Any] = []
        for (key, element) in zip(enumCase.keys, enumCase.elements) {
            guard let node = tape.member(key, in: body) else {
                guard let absent = element.absent else { throw MappingError(.keyNotFound(key), path: [.key(name)]) }
                values.append(absent)
                continue
            }
            do { values.append(try element.decode(tape, node, context)) } catch let error as MappingError {
                throw error.prefixed(.key(key)).prefixed(.key(name))
            }
        }
        let payload: Any?
        if enumCase.keys.isEmpty {
            payload = nil
        } else if !enumCase.isTuple {
            payload = values[0]
        } else {
            payload = try tuple(values, caseName: name)
        }
        do { return try info.makeEnumValue(E.self, caseNamed: name, payload: payload) } catch {
            throw MappingError(.invalidValue(expected: "a value of \(E.self)", found: "case \(name): \(error)"), path: [.key(name)])
        }
    }

    override func encode(_ value: E, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        let found: EnumCaseValue
        do { found = try info.enumCase(of: value) } catch { throw MappingError(.unencodable("\(error)")) }
        guard let enumCase = cases.first(where: { $0.name == found.caseName }) else {
            throw MappingError(.unencodable("\(E.self) has no case \(found.caseName)"))
        }
        var values: [Any] = []
        if let payload = found.payload {
            values = enumCase.isTuple ? Mirror(reflecting: payload).children.map(\.value) : [payload]
        }
        guard values.count == enumCase.elements.count else {
            throw MappingError(
                .unencodable("case \(found.caseName) of \(E.self) carries \(values.count) values, expected \(enumCase.elements.count)"))
        }
        writer.byte(UInt8(ascii: "{"))
        writer.string(enumCase.name)
        writer.byte(UInt8(ascii: ":"))
        writer.byte(UInt8(ascii: "{"))
        var first = true
        for (index, (key, element)) in zip(enumCase.keys, enumCase.elements).enumerated() where !element.isNil(values[index]) {
            if !first { writer.byte(UInt8(ascii: ",")) }
            first = false
            writer.string(key)
            writer.byte(UInt8(ascii: ":"))
            do { try element.encode(values[index], &writer, context) } catch let error as MappingError {
                throw error.prefixed(.key(key)).prefixed(.key(enumCase.name))
            }
        }
        writer.byte(UInt8(ascii: "}"))
        writer.byte(UInt8(ascii: "}"))
    }

    private func describe(_ tape: JSONTape, _ i: Int) -> String {
        tape.kind(i) == .object ? "an object with \(tape.nodes[i].count) members" : tape.typeName(i)
    }

    /// The case's payload tuple built from `values` by TypeInfo, which can build any tuple type,
    /// including the one-element labelled tuple of `circle(radius:)` that has no literal form.
    private func tuple(_ values: [Any], caseName: String) throws -> Any {
        guard let payloadType = info.cases.first(where: { $0.name == caseName })?.payloadType else {
            throw MappingError(.invalidValue(expected: "a case of \(E.self) with associated values", found: "case \(caseName)"))
        }
        do {
            return try ClassInfo.of(payloadType).makeTuple(elements: values)
        } catch {
            throw MappingError(.invalidValue(expected: "the associated values of \(E.self).\(caseName)", found: "\(error)"))
        }
    }
}

/// Stands for a codec still being built (a recursive enum's reference to itself); set once
/// the enum's codec exists, before the plan is used.
final class DeferredCodec<V>: ValueCodec<V>, @unchecked Sendable {
    weak var target: ValueCodec<V>?

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> V {
        guard let target else { throw MappingError(.invalidConfiguration("no conversion for \(V.self)")) }
        return try target.decode(tape, i, context)
    }

    override func encode(_ value: V, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        guard let target else { throw MappingError(.unencodable("no conversion for \(V.self)")) }
        try target.encode(value, into: &writer, context)
    }
}
