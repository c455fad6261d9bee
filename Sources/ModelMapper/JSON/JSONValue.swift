import Foundation

/// A JSON value as a plain Swift tree, used where user code sees JSON: transformers, hooks,
/// subclass selection and the `[String: Any]` bridge.
///
/// Numbers keep their exact source text (``JSONNumber``), so nothing is rounded on the way
/// through; objects keep their members in order (``JSONObject``).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its exact JSON text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order.
    case object(JSONObject)

    /// A number value from an integer.
    public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(JSONNumber(value)) }

    /// A number value from a `Double`; non-finite values have no JSON form and become `null`.
    public static func double(_ value: Double) -> JSONValue {
        guard let number = JSONNumber(value) else { return .null }
        return .number(number)
    }

    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` when this is an array and the index is in range, otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string when this is a string.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    /// The Boolean when this is `true` or `false`.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The number when this is a number.
    public var numberValue: JSONNumber? { if case .number(let n) = self { return n } else { return nil } }
}

/// A JSON number held as its exact, validated JSON text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's JSON text, e.g. `-12.5e3`.
    public let text: String

    /// Creates a number from JSON number text.
    ///
    /// - Parameter text: JSON number text such as `42`, `-0.5` or `1e300`.
    /// - Returns: `nil` when `text` is not a JSON number.
    public init?(text: String) {
        var copy = text
        let valid = copy.withUTF8 { JSONNumberScanner.isValidNumber($0) }
        guard valid else { return nil }
        self.text = text
    }

    init(validatedText: String) { self.text = validatedText }

    /// Creates a number from an integer.
    public init<I: BinaryInteger>(_ value: I) { self.text = String(value) }

    /// Creates a number from a `Double` (shortest text that reads back to the same value).
    ///
    /// - Returns: `nil` for infinities and NaN, which JSON cannot express.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = JSONWriter.text(for: value)
    }

    /// The value as `Int64` when it is a whole number in range (`1.0` and `1e3` count as whole).
    public var int64Value: Int64? {
        var copy = text
        return copy.withUTF8 { try? JSONNumberScanner.integer($0, as: Int64.self) }
    }

    /// The value as `Double`, correctly rounded; `nil` when it is beyond `Double`'s range.
    public var doubleValue: Double? {
        var copy = text
        return copy.withUTF8 { try? JSONNumberScanner.double($0) }
    }

    /// The exact value as `Decimal` when it fits `Decimal`'s range.
    public var decimalValue: Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

    /// The JSON text.
    public var description: String { text }
}

/// A JSON object: members in the order they appeared, looked up by key.
///
/// When a key occurs more than once, lookups return the last occurrence, as the mapper does.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an object from members in order.
    public init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    /// The number of members.
    public var count: Int { members.count }

    /// The value of the last member named `key`; setting replaces it in place or appends a
    /// new member, and setting `nil` removes every member with that key.
    public subscript(key: String) -> JSONValue? {
        get { members.last(where: { $0.key == key })?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append((key, newValue))
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Iterates the members in order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
    }

    /// Two objects are equal when they have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (l, r) in zip(lhs.members, rhs.members) where l.key != r.key || l.value != r.value {
            return false
        }
        return true
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer number.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with members in literal order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
