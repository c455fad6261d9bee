/// The case of one enum value: which case it is and what it carries.
public struct EnumCaseValue {
    /// The case's index in ``ClassInfo/cases`` (the runtime's tag: payload cases first).
    public let caseIndex: Int
    /// The case's name.
    public let caseName: String
    /// A copy of the payload, or nil for a case without one. Several associated values come
    /// as one tuple (`case point(x: Double, y: Double)` gives `(x: Double, y: Double)`).
    public let payload: Any?
}

/// Why an enum value could not be read or built. Every message names the enum type.
public enum EnumValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The ClassInfo describes a type that is not an enum (or optional).
    case notAnEnum(type: String)
    /// The value handed in is not of the ClassInfo's enum type.
    case wrongType(expected: String, found: String)
    /// No case has this name.
    case noSuchCase(type: String, name: String, cases: [String])
    /// The case carries a payload and none was given.
    case missingPayload(type: String, caseName: String, payloadType: String)
    /// The case carries no payload and one was given.
    case unexpectedPayload(type: String, caseName: String)
    /// The payload is not of (and cannot be cast to) the case's payload type.
    case payloadMismatch(type: String, caseName: String, expected: String, found: String)
    /// The enum has no raw values (it does not conform to `RawRepresentable`).
    case noRawValues(type: String)
    /// The raw value is not of the enum's `RawValue` type.
    case rawValueMismatch(type: String, expected: String, found: String)
    /// No case has this raw value.
    case noCaseForRawValue(type: String, rawValue: String)

    public var description: String {
        switch self {
        case .notAnEnum(let type):
            return "\(type) is not an enum"
        case .wrongType(let expected, let found):
            return "expected a value of \(expected), found \(found)"
        case .noSuchCase(let type, let name, let cases):
            return "\(type) has no case '\(name)' (cases: \(cases.joined(separator: ", ")))"
        case .missingPayload(let type, let caseName, let payloadType):
            return "case '\(caseName)' of \(type) needs a payload of \(payloadType)"
        case .unexpectedPayload(let type, let caseName):
            return "case '\(caseName)' of \(type) has no payload, but one was given"
        case .payloadMismatch(let type, let caseName, let expected, let found):
            return "case '\(caseName)' of \(type) carries \(expected), not \(found)"
        case .noRawValues(let type):
            return "\(type) has no raw values (it is not RawRepresentable)"
        case .rawValueMismatch(let type, let expected, let found):
            return "raw values of \(type) are \(expected), not \(found)"
        case .noCaseForRawValue(let type, let rawValue):
            return "\(type) has no case with raw value \(rawValue)"
        }
    }
}

extension ClassInfo {
    /// The case and payload of an enum value, read through the enum's value witnesses.
    ///
    /// - Parameter value: a value of this ClassInfo's enum (or optional) type, or an existential
    ///   (`Any`, `any P`) holding one, boxed any number of times: it is opened to its dynamic type.
    /// - Returns: the case's index and name and a copy of its payload.
    /// - Throws: ``EnumValueError/notAnEnum(type:)``, ``EnumValueError/wrongType(expected:found:)``
    ///   naming the value's dynamic type.
    public func enumCase<E>(of value: E) throws -> EnumCaseValue {
        let witnesses = try enumWitnesses()
        if E.self != type, isExistentialType(E.self) {
            func opened<T>(_ concrete: T) throws -> EnumCaseValue { try enumCase(of: concrete) }
            return try _openExistential(unboxedExistential(value), do: opened)
        }
        guard E.self == type else { throw EnumValueError.wrongType(expected: qualifiedName, found: String(reflecting: E.self)) }
        let tag = witnesses.tag(of: value)
        let index = Int(tag)
        guard index < cases.count else {
            // The witnesses and the field descriptor disagree: say nothing rather than something false.
            throw EnumValueError.wrongType(expected: qualifiedName, found: "a value with tag \(tag) of \(cases.count) cases")
        }
        let found = cases[index]
        let payload = witnesses.payload(
            of: value, shape: EnumPayloadShape(tag: tag, payloadType: found.payloadType, isIndirect: found.isIndirect))
        return EnumCaseValue(caseIndex: index, caseName: found.name, payload: payload)
    }

    /// Builds a value of this enum type from a case name and its payload.
    ///
    /// - Parameters:
    ///   - name: the case's name.
    ///   - payload: the payload, of (or castable to) the case's payload type; a tuple for several
    ///     associated values; nil for a case without payload.
    /// - Returns: the value, as `Any`.
    /// - Throws: ``EnumValueError`` naming the case and what did not fit; nothing is built then.
    public func makeEnumValue(caseNamed name: String, payload: Any? = nil) throws -> Any {
        func build<E>(_ enumType: E.Type) throws -> Any { try makeEnumValue(E.self, caseNamed: name, payload: payload) }
        let enumType: Any.Type = type
        return try build(enumType)
    }

    /// Builds a value of this enum type, typed, from a case name and its payload.
    ///
    /// - Parameters:
    ///   - enumType: this ClassInfo's type, or an existential that can hold its values
    ///     (`Any.self`, `(any P).self`): the value is then returned in that existential.
    ///   - name: the case's name.
    ///   - payload: the payload, or nil for a case without one.
    /// - Returns: the value.
    /// - Throws: ``EnumValueError``; ``EnumValueError/wrongType(expected:found:)`` before anything
    ///   is built when `enumType` is neither.
    public func makeEnumValue<E>(_ enumType: E.Type, caseNamed name: String, payload: Any? = nil) throws -> E {
        let witnesses = try enumWitnesses()
        guard E.self == type else {
            guard isExistentialType(E.self), existential(E.self, canHold: type) else {
                throw EnumValueError.wrongType(expected: qualifiedName, found: String(reflecting: E.self))
            }
            return try makeEnumValue(caseNamed: name, payload: payload) as! E
        }
        guard let index = cases.firstIndex(where: { $0.name == name }) else {
            throw EnumValueError.noSuchCase(type: qualifiedName, name: name, cases: cases.map(\.name))
        }
        let enumCase = cases[index]
        let shape = EnumPayloadShape(tag: UInt32(index), payloadType: enumCase.payloadType, isIndirect: enumCase.isIndirect)
        guard let payloadType = enumCase.payloadType else {
            guard payload == nil else { throw EnumValueError.unexpectedPayload(type: qualifiedName, caseName: name) }
            return witnesses.make(E.self, shape: shape, payload: nil)
        }
        guard let payload else {
            throw EnumValueError.missingPayload(type: qualifiedName, caseName: name, payloadType: String(reflecting: payloadType))
        }
        func cast<P>(_: P.Type) -> Any? { (payload as? P).map { $0 as Any } }
        guard let converted = cast(payloadType) else {
            throw EnumValueError.payloadMismatch(
                type: qualifiedName, caseName: name,
                expected: String(reflecting: payloadType), found: String(reflecting: Swift.type(of: payload)))
        }
        return witnesses.make(E.self, shape: shape, payload: converted)
    }

    /// For enums with raw values: the `RawValue` type (`String.self` for `enum E: String`).
    public var rawValueType: Any.Type? {
        guard kind == .enum, let representable = type as? any RawRepresentable.Type else { return nil }
        func rawType<R: RawRepresentable>(_: R.Type) -> Any.Type { R.RawValue.self }
        return rawType(representable)
    }

    /// The raw value of a value of a raw-value enum.
    ///
    /// - Parameter value: a value of this enum type, or an existential holding one (boxed any
    ///   number of times).
    /// - Returns: its `rawValue`.
    /// - Throws: ``EnumValueError/noRawValues(type:)``, ``EnumValueError/wrongType(expected:found:)``.
    public func rawValue<E>(of value: E) throws -> Any {
        guard kind == .enum, type is any RawRepresentable.Type else { throw EnumValueError.noRawValues(type: qualifiedName) }
        let opened = value as Any
        guard Swift.type(of: opened) == type, let representable = opened as? any RawRepresentable else {
            throw EnumValueError.wrongType(expected: qualifiedName, found: String(reflecting: Swift.type(of: opened)))
        }
        func raw<R: RawRepresentable>(_ value: R) -> Any { value.rawValue }
        return raw(representable)
    }

    /// Builds a value of a raw-value enum from a raw value, as `init?(rawValue:)` does.
    ///
    /// - Parameter rawValue: a value of the enum's `RawValue` type.
    /// - Returns: the case with that raw value.
    /// - Throws: ``EnumValueError/noRawValues(type:)``, ``EnumValueError/rawValueMismatch(type:expected:found:)``,
    ///   ``EnumValueError/noCaseForRawValue(type:rawValue:)``.
    public func makeEnumValue(rawValue: Any) throws -> Any {
        guard kind == .enum, let representable = type as? any RawRepresentable.Type else {
            throw EnumValueError.noRawValues(type: qualifiedName)
        }
        func make<R: RawRepresentable>(_: R.Type) throws -> Any {
            guard let raw = rawValue as? R.RawValue else {
                throw EnumValueError.rawValueMismatch(
                    type: qualifiedName, expected: String(reflecting: R.RawValue.self),
                    found: String(reflecting: Swift.type(of: rawValue)))
            }
            guard let value = R(rawValue: raw) else {
                throw EnumValueError.noCaseForRawValue(type: qualifiedName, rawValue: String(reflecting: raw))
            }
            return value
        }
        return try make(representable)
    }

    /// The enum witnesses of this type, or the error for a type that is not an enum.
    func enumWitnesses() throws -> EnumWitnessFunctions {
        guard kind == .enum || kind == .optional, let witnesses = MetadataReader(type).enumWitnesses else {
            throw EnumValueError.notAnEnum(type: qualifiedName)
        }
        return witnesses
    }
}
