import Foundation

/// What the mapper does with a value that does not fit its property.
public enum MappingMode: Sendable, Hashable {
    /// YYModel's way: convert what can be converted (numbers from strings, `Bool` from
    /// `"yes"`, ...), skip what cannot, and keep the property's default.
    case lenient
    /// Mantle's way: only exact JSON types (plus whole numbers into integers); anything else
    /// throws a ``MappingError`` naming the JSON path.
    case strict
}

/// How `Date` properties are read.
public enum DateDecodingStrategy: Sendable {
    /// Strings: ISO 8601 / RFC 3339 (with or without fractions and zones), `yyyy-MM-dd`,
    /// `yyyy-MM-dd HH:mm:ss`, RFC 2822 / HTTP dates, or digits; numbers: seconds since 1970,
    /// or milliseconds when the magnitude is 100,000,000,000 or more (after 5138 in seconds).
    case automatic
    /// ISO 8601 strings only.
    case iso8601
    /// Numbers (or, in lenient mode, numeric strings) of seconds since 1970.
    case secondsSince1970
    /// Numbers (or, in lenient mode, numeric strings) of milliseconds since 1970.
    case millisecondsSince1970
    /// Your own function; return `nil` when the value is not a date.
    case custom(@Sendable (JSONValue) -> Date?)
}

/// How `Date` properties are written.
public enum DateEncodingStrategy: Sendable {
    /// `2024-11-08T21:15:03Z`, with `.250` milliseconds when the date has a fraction.
    case iso8601
    /// A number of seconds since 1970.
    case secondsSince1970
    /// An integer number of milliseconds since 1970.
    case millisecondsSince1970
    /// Your own function.
    case custom(@Sendable (Date) -> JSONValue)
}

/// How a mapper's plans read and write stored properties. Either way the mapper touches no
/// model memory itself: TypeInfo does every read and write.
public enum FieldAccessStrategy: Sendable, Hashable {
    /// Through `ClassInfo.withStorage`: the instance is checked against the type's `ClassInfo`
    /// once per model, then each property is read or written by TypeInfo with a plain typed
    /// load or store (weak/unowned storage and casts take `PropertyInfo`'s general path).
    /// The default, and the fast one.
    case instanceStorage
    /// Every access goes through `PropertyInfo.set`/`get` on the instance, each with its own
    /// instance check: TypeInfo's per-property primitive.
    case propertyInfo
}

/// Settings of a ``ModelMapper``.
public struct MappingOptions: Sendable {
    /// Lenient or strict. Default lenient.
    public var mode: MappingMode
    /// Whether values of another JSON type are converted (number from string, `Bool` from
    /// `"yes"`/`1`, string from number); `nil` means: in lenient mode yes, in strict mode no.
    public var convertsTypes: Bool?
    /// How property names become keys when a type sets none. Default: the names as they are.
    public var keyNaming: KeyNamingStrategy
    /// How dates are read. Default ``DateDecodingStrategy/automatic``.
    public var dateDecoding: DateDecodingStrategy
    /// How dates are written. Default ``DateEncodingStrategy/iso8601``.
    public var dateEncoding: DateEncodingStrategy
    /// Nesting limit and duplicate-key policy of the JSON reader.
    public var reading: JSONReadOptions
    /// Whether `nil` optionals are written as `null` (default) or left out.
    public var writesNilAsNull: Bool
    /// How stored properties are read and written. Default ``FieldAccessStrategy/instanceStorage``.
    public var fieldAccess: FieldAccessStrategy
    /// Layout of encoded `Data` and `String` output (pretty printing, sorted keys). Default compact.
    public var outputFormatting: JSONOutputFormatting
    /// Where a lenient mapper reports, once per property, what it will not decode (a class
    /// `let` an optimized build may fold, a property whose type has no JSON mapping).
    /// `nil` (the default) writes the lines to standard error.
    public var diagnostics: (@Sendable (String) -> Void)?

    /// Creates options.
    public init(
        mode: MappingMode = .lenient,
        convertsTypes: Bool? = nil,
        keyNaming: KeyNamingStrategy = .useDefaultKeys,
        dateDecoding: DateDecodingStrategy = .automatic,
        dateEncoding: DateEncodingStrategy = .iso8601,
        reading: JSONReadOptions = JSONReadOptions(),
        writesNilAsNull: Bool = true,
        fieldAccess: FieldAccessStrategy = .instanceStorage,
        outputFormatting: JSONOutputFormatting = [],
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.mode = mode
        self.convertsTypes = convertsTypes
        self.keyNaming = keyNaming
        self.dateDecoding = dateDecoding
        self.dateEncoding = dateEncoding
        self.reading = reading
        self.writesNilAsNull = writesNilAsNull
        self.fieldAccess = fieldAccess
        self.outputFormatting = outputFormatting
        self.diagnostics = diagnostics
    }
}
