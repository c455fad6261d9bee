/// One object of a live process or core file with the values of its stored properties: the
/// answer of `typeinfo object`.
///
/// Every value is read from the target's memory and typed by the toolchain's reflection library;
/// what neither can tell is ``ObjectValue/unknown(_:)`` (JSON `null`), never a guess.
public struct ObjectReport: Sendable, Hashable {
    /// The object's address in the target.
    public var address: UInt64
    /// Its dynamic type's name.
    public var type: String
    /// Its instance size as its class metadata states it.
    public var size: Int?
    /// Its stored properties, its ancestors' first, in offset order.
    public var fields: [ObjectField]
    /// Why its stored properties are not listed, when they are not (``fields`` is then empty).
    public var unknownFields: String?
    /// In the report's first object: how many references were not followed because the report
    /// already holds ``objectLimit`` objects.
    public var unfollowedReferences = 0

    /// The most objects one report shows.
    public static let objectLimit = 1000

    public init(address: UInt64, type: String, size: Int?, fields: [ObjectField], unknownFields: String? = nil) {
        self.address = address
        self.type = type
        self.size = size
        self.fields = fields
        self.unknownFields = unknownFields
    }
}

/// A stored property (or a tuple element) and its value.
public struct ObjectField: Sendable, Hashable {
    public var name: String
    /// The property's declared type, as typeinfo spells names; nil when unknown.
    public var type: String?
    /// Its offset in the object or the enclosing value.
    public var offset: Int
    public var value: ObjectValue
    /// Why ``type`` is unknown, when it is.
    public var typeUnknown: String?

    public init(name: String, type: String?, offset: Int, value: ObjectValue, typeUnknown: String? = nil) {
        self.name = name
        self.type = type
        self.offset = offset
        self.value = value
        self.typeUnknown = typeUnknown
    }
}

/// A value read from a target, by what its type makes it.
public indirect enum ObjectValue: Sendable, Hashable {
    /// A signed integer (`Int`, `Int8`…`Int64`).
    case signed(Int64)
    /// An unsigned integer (`UInt`, `UInt8`…`UInt64`).
    case unsigned(UInt64)
    /// `Double` or `Float`.
    case floatingPoint(Double)
    case boolean(Bool)
    /// A `String`'s text; `utf8Count` is the whole string's length when the text is only its start.
    case string(String, truncatedFrom: Int?)
    /// An enum case (`Optional` too: `some` and `none`) with its payload, if it has one.
    case enumCase(String, payload: ObjectValue?)
    /// A class reference: the object's address, its dynamic type when known, and the object itself
    /// when it was followed (`--depth`). The type is nil where the object's first word is not the
    /// metadata of a class the target's images define (a box or object the runtime made), which
    /// ``unknownReferenceReason`` says in JSON.
    case reference(UInt64, type: String?, object: ObjectReport?)
    /// A reference to an object the report shows elsewhere (before this place, in the order the
    /// text prints objects): a cycle, or an object held twice.
    case alreadyShown(UInt64, type: String?)
    /// An array: its count, its first elements, and its storage object's address.
    case array(count: Int, elements: [ObjectValue], storage: UInt64)
    /// A struct's stored properties or a tuple's elements.
    case aggregate([ObjectField])
    /// What could not be read or typed, and why.
    case unknown(String)

    /// Why a reference's type is unknown (JSON `unknown` beside a `null` type).
    public static let unknownReferenceReason =
        "its object's first word is not the metadata of a class the target's images define (a box or object the runtime made)"
}
