import Foundation

/// How one model type maps to JSON: keys, key paths, exclusions, naming and per-property
/// conversions. Filled in by `configureMapping(_:)` or
/// ``ModelMapper/configure(_:_:)``; properties are named as declared in Swift.
///
/// Keys are written as dotted paths: `"user.profile.name"` reads `name` inside `profile`
/// inside `user`. A literal dot in a key is escaped with a backslash (`"version\\.major"` is
/// the single key `version.major`), and a literal backslash is `\\\\`.
public struct MappingConfiguration: Sendable {
    /// Candidate key paths per property, first present wins.
    var keyPaths: [String: [[String]]] = [:]
    var transformers: [String: MappingTransformer] = [:]
    var dateDecoding: [String: DateDecodingStrategy] = [:]
    var dateEncoding: [String: DateEncodingStrategy] = [:]

    /// When set, only these properties are mapped (both directions).
    public var includedProperties: Set<String>?
    /// Properties never mapped (both directions).
    public var excludedProperties: Set<String> = []
    /// Properties that must be present in the JSON in strict mode (absent is an error there).
    public var requiredProperties: Set<String> = []
    /// A key path (dotted, as for keys) to the object this type is read from, when decoding it
    /// at the top level: `"data.user"` reads the model from `{"data": {"user": {...}}}`.
    public var designatedPath: String?
    /// The key naming strategy for this type; `nil` uses the mapper's.
    public var keyNaming: KeyNamingStrategy?
    /// Chooses the concrete type to decode from the JSON object about to be read (for a class
    /// hierarchy: the subclass named by a `"type"` member, say). Return `nil` to keep the
    /// declared type. The returned type must be the declared type or a subclass of it.
    public var subclassSelector: (@Sendable (JSONObjectReader) -> (any MappableModel.Type)?)?

    /// Creates an empty configuration.
    public init() {}

    /// Maps `property` to one or more candidate keys or key paths; when decoding, the first
    /// one present in the JSON wins; when encoding, the first is written.
    ///
    /// - Parameters:
    ///   - property: the Swift property name.
    ///   - keys: dotted key paths (`\\.` for a literal dot).
    public mutating func map(_ property: String, to keys: String...) {
        keyPaths[property] = keys.map(MappingConfiguration.components(of:))
    }

    /// Maps `property` to a key path given as separate components (no escaping needed).
    ///
    /// - Parameters:
    ///   - property: the Swift property name.
    ///   - components: the keys from the outermost object inwards.
    public mutating func map(_ property: String, toPath components: [String]) {
        keyPaths[property] = [components]
    }

    /// Converts `property` with `transformer` in both directions instead of the built-in conversion.
    ///
    /// - Parameters:
    ///   - property: the Swift property name.
    ///   - transformer: the conversion to use.
    public mutating func transform(_ property: String, with transformer: MappingTransformer) {
        transformers[property] = transformer
    }

    /// Reads and writes the `Date` (or `Date?`) `property` with its own date strategies.
    ///
    /// - Parameters:
    ///   - property: the Swift property name.
    ///   - decoding: how to read it; `nil` keeps the mapper's.
    ///   - encoding: how to write it; `nil` keeps the mapper's.
    public mutating func date(
        _ property: String, decoding: DateDecodingStrategy? = nil, encoding: DateEncodingStrategy? = nil
    ) {
        if let decoding { dateDecoding[property] = decoding }
        if let encoding { dateEncoding[property] = encoding }
    }

    /// The keys of a designated path: its components without empty ones, as HandyJSON reads
    /// them (`"data.result."`, `".data.result"` are `data.result`; `""` and `"."` the root).
    static func designatedComponents(of path: String) -> [String] {
        components(of: path).filter { !$0.isEmpty }
    }

    /// The array index a key-path component names: plain decimal digits, no sign or leading zero.
    static func arrayIndex(_ component: String) -> Int? {
        guard let first = component.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
            component == "0" || first != UInt8(ascii: "0"), component.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { return nil }
        return Int(component)
    }

    /// Splits a dotted key path, honouring `\.` (literal dot) and `\\` (literal backslash).
    static func components(of path: String) -> [String] {
        var components: [String] = []
        var current = ""
        var escaped = false
        for character in path {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        components.append(current)
        return components
    }
}

/// How Swift property names become JSON keys.
public enum KeyNamingStrategy: Sendable {
    /// The property name as is.
    case useDefaultKeys
    /// `avatarURL` <-> `avatar_url`.
    case snakeCase
    /// `avatarURL` <-> `avatar-url`.
    case kebabCase
    /// The property name, matched against keys ignoring ASCII case; written as is.
    case caseInsensitive
    /// A function from property name to key.
    case custom(@Sendable (String) -> String)

    /// The key for `property` under this strategy.
    ///
    /// - Parameter property: a Swift property name.
    /// - Returns: the JSON key.
    public func key(for property: String) -> String {
        switch self {
        case .useDefaultKeys, .caseInsensitive: return property
        case .snakeCase: return KeyNamingStrategy.separated(property, by: "_")
        case .kebabCase: return KeyNamingStrategy.separated(property, by: "-")
        case .custom(let transform): return transform(property)
        }
    }

    var isCaseInsensitive: Bool { if case .caseInsensitive = self { return true } else { return false } }

    /// Splits camelCase into lowercase words: `myURLValue` -> `my_url_value`, `id2Name` -> `id2_name`.
    static func separated(_ name: String, by separator: Character) -> String {
        let characters = Array(name)
        var out = ""
        for (i, c) in characters.enumerated() {
            if c.isUppercase, i > 0 {
                let previous = characters[i - 1]
                let nextIsLower = i + 1 < characters.count && characters[i + 1].isLowercase
                if (previous.isLowercase || previous.isNumber) || (previous.isUppercase && nextIsLower) {
                    if previous != "_" { out.append(separator) }
                }
            }
            out.append(contentsOf: c.lowercased())
        }
        return out
    }
}

/// A per-property conversion between a JSON value and the property's Swift value.
public struct MappingTransformer: Sendable {
    let decode: @Sendable (JSONValue) throws -> Any?
    let encode: @Sendable (Any) throws -> JSONValue

    /// Creates a transformer for a property of type `Value`.
    ///
    /// - Parameters:
    ///   - type: the property's type.
    ///   - decode: JSON to value; return `nil` to leave the property as it is; throw to report
    ///     the value as unconvertible.
    ///   - encode: value to JSON.
    public init<Value>(
        _ type: Value.Type,
        decode: @escaping @Sendable (JSONValue) throws -> Value?,
        encode: @escaping @Sendable (Value) throws -> JSONValue
    ) {
        self.decode = { json in try decode(json) }
        self.encode = { value in
            guard let typed = value as? Value else {
                throw MappingError(.transformFailed("expected a \(Value.self), found \(Swift.type(of: value))"))
            }
            return try encode(typed)
        }
    }
}

/// Read access to the JSON object about to be decoded, for a ``MappingConfiguration/subclassSelector``.
///
/// It borrows the decoder's storage: use it only during the selector call, never keep it.
public struct JSONObjectReader {
    let tape: JSONTape
    let object: Int

    /// The value of member `key` (the last one, when repeated), or `nil` when absent.
    public subscript(key: String) -> JSONValue? {
        tape.member(key, in: object).map { tape.value(at: $0) }
    }

    /// The string value of member `key`, or `nil` when absent or not a string.
    public func string(_ key: String) -> String? {
        guard let index = tape.member(key, in: object), tape.kind(index) == .string else { return nil }
        return tape.string(at: index)
    }
}
