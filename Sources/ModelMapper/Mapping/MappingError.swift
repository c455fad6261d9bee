/// One step of a JSON path: an object key or an array index.
public enum JSONPathComponent: Sendable, Hashable {
    /// A member of an object.
    case key(String)
    /// An element of an array.
    case index(Int)
}

/// A value that could not be mapped: where in the JSON (`$.items[3].price`), what was
/// found and what was expected.
public struct MappingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The JSON has a value of another type than the property needs (`found` is `null`
        /// for a null into a non-optional).
        case typeMismatch(expected: String, found: String)
        /// A number that does not fit the integer type.
        case numberOverflow(expected: String, found: String)
        /// A number with a fractional part, for an integer property.
        case fractionalNumber(expected: String, found: String)
        /// A string that is not a valid value of the type (a date, URL, UUID, base64, ...).
        case invalidValue(expected: String, found: String)
        /// A raw value that is none of the enum's cases.
        case unknownEnumValue(type: String, value: String)
        /// A required key is absent (strict mode).
        case keyNotFound(String)
        /// The input is not well-formed JSON.
        case malformedJSON(JSONReadError)
        /// A value that cannot be written as JSON.
        case unencodable(String)
        /// A transformer threw.
        case transformFailed(String)
        /// A hook threw.
        case hookFailed(String)
        /// The mapping configuration names something that does not exist.
        case invalidConfiguration(String)
        /// The JSON has a value for a property the mapper will not write: a `let` whose reads
        /// an optimized build may fold, or a property whose type has no JSON mapping.
        /// `reason` says why and what to change.
        case unsettableProperty(type: String, property: String, reason: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// Where, from the document root outwards-in.
    public internal(set) var path: [JSONPathComponent]

    /// Creates an error at the root.
    public init(_ kind: Kind, path: [JSONPathComponent] = []) {
        self.kind = kind
        self.path = path
    }

    /// The path in JSONPath notation: `$.items[3].price`, `$["a key"]`.
    public var pathString: String {
        var out = "$"
        for component in path {
            switch component {
            case .index(let i): out += "[\(i)]"
            case .key(let k):
                if !k.isEmpty, k.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }),
                    k.first?.isNumber == false
                {
                    out += "." + k
                } else {
                    out += "[\"" + k.replacingOccurrences(of: "\"", with: "\\\"") + "\"]"
                }
            }
        }
        return out
    }

    /// One line: the path, then what was expected and what was found.
    public var description: String {
        let what: String
        switch kind {
        case .typeMismatch(let expected, let found): what = "expected \(expected), found \(found)"
        case .numberOverflow(let expected, let found): what = "\(found) does not fit \(expected)"
        case .fractionalNumber(let expected, let found): what = "expected \(expected), found fractional \(found)"
        case .invalidValue(let expected, let found): what = "expected \(expected), found \(found)"
        case .unknownEnumValue(let type, let value): what = "\(value) is not a case of \(type)"
        case .keyNotFound(let key): what = "required key \"\(key)\" is absent"
        case .malformedJSON(let error): return error.description
        case .unencodable(let reason): what = "cannot encode: \(reason)"
        case .transformFailed(let reason): what = "transformer failed: \(reason)"
        case .hookFailed(let reason): what = "hook rejected the model: \(reason)"
        case .invalidConfiguration(let reason): what = "invalid mapping configuration: \(reason)"
        case .unsettableProperty(let type, let property, let reason): what = "\(type).\(property) is not decoded: \(reason)"
        }
        return "\(pathString): \(what)"
    }

    /// This error with the expected type's name `old` replaced by `new` (a codec that
    /// delegates to another one's conversion names its own type).
    func retyped(from old: String, to new: String) -> MappingError {
        let kind: Kind
        switch self.kind {
        case .typeMismatch(let expected, let found): kind = .typeMismatch(expected: expected == old ? new : expected, found: found)
        case .numberOverflow(let expected, let found): kind = .numberOverflow(expected: expected == old ? new : expected, found: found)
        case .invalidValue(let expected, let found): kind = .invalidValue(expected: expected == old ? new : expected, found: found)
        default: kind = self.kind
        }
        return MappingError(kind, path: path)
    }

    /// This error with `component` in front of its path (as it propagates outwards).
    func prefixed(_ component: JSONPathComponent) -> MappingError {
        var copy = self
        copy.path.insert(component, at: 0)
        return copy
    }
}
