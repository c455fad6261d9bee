import TypeInfo

/// A type the mapper can decode from JSON and encode back, with or without an `init()`.
///
/// No `Codable` conformance and no coding keys: the mapper reads the stored properties from
/// the type's metadata (through `ClassInfo`) and writes them through TypeInfo. A model with
/// no `init()` is made by TypeInfo's factory (`ClassInfo.makeInstance`: zero, `false`, empty
/// and `nil` values, nested structs and classes built the same way) before the JSON is
/// written into it:
///
/// ```swift
/// struct User: MappableModel {
///     let id: Int
///     let name: String
/// }
/// let user = try ModelMapper.shared.decode(User.self, from: #"{"id": 1, "name": "ann"}"#)
/// ```
///
/// Conform to ``Mappable`` instead when the type has an `init()` whose defaults should be
/// kept for keys the JSON does not have.
///
/// Values are written to the properties' storage, not through their setters: `didSet` and
/// `willSet` observers do not run. Do their work in ``MappingDidDecode/didDecode()``.
///
/// Customise the mapping by implementing `configureMapping(_:)`. In a class hierarchy,
/// declare it as `class func` in the base class so subclasses can `override` it (and call
/// `super`); a subclass's configuration then applies to the subclass only.
public protocol MappableModel {
    /// Adjusts how this type maps to JSON: keys, key paths, exclusions, naming, transformers.
    ///
    /// Called once per plan build (again after the type's `ClassInfo` is invalidated or its
    /// configuration is replaced with ``ModelMapper/configure(_:_:)``).
    /// - Parameter mapping: the configuration to adjust; it starts empty.
    static func configureMapping(_ mapping: inout MappingConfiguration)

    /// The instance the mapper decodes into. Provided: `init()` for ``Mappable`` types,
    /// TypeInfo's factory for the others; there is no need to implement it.
    ///
    /// - Throws: ``MappingError/Kind/invalidConfiguration(_:)`` naming the field the factory
    ///   cannot build (a function, an existential, ...).
    static func makeForMapping() throws -> Self
}

extension MappableModel {
    /// No customisation: every stored property maps to the key of its own name.
    public static func configureMapping(_ mapping: inout MappingConfiguration) {}

    /// A value built by TypeInfo's factory (the type has no `init()` the mapper knows of).
    public static func makeForMapping() throws -> Self {
        do { return try ClassInfo.of(Self.self).makeInstance(Self.self) } catch {
            throw MappingError(.invalidConfiguration("cannot make a \(Self.self) to decode into: \(error)"))
        }
    }
}

/// A model with an `init()` that sets the defaults the mapper keeps for keys the JSON does
/// not have. Classes make `init()` `required`.
///
/// ```swift
/// struct User: Mappable {
///     var id = 0
///     var name = ""
///     var avatar: URL?
///     static func configureMapping(_ mapping: inout MappingConfiguration) {
///         mapping.map("avatar", to: "avatar_url", "picture.url")
///     }
/// }
/// let user = try ModelMapper.shared.decode(User.self, from: data)
/// ```
public protocol Mappable: MappableModel {
    /// Creates a model with default values; the mapper then overwrites what the JSON has.
    init()
}

extension Mappable {
    /// A new model from `init()`.
    public static func makeForMapping() throws -> Self { Self() }
}

/// A hook run before a model is decoded: it may rewrite the JSON object it will be read from.
///
/// Conforming makes that type's decoding take a slower path (the object is turned into a
/// ``JSONValue`` and back), so use it for the few types that need it.
public protocol MappingWillDecode: MappableModel {
    /// Returns the JSON to decode instead of `json` (return `json` to leave it alone).
    ///
    /// - Parameter json: the object about to be decoded.
    /// - Throws: any error, which fails this model's decoding.
    static func willDecode(_ json: JSONValue) throws -> JSONValue
}

/// A hook run after a model's properties are mapped from JSON: validate or derive values.
public protocol MappingDidDecode: MappableModel {
    /// Called on the decoded model; throw to reject it.
    ///
    /// - Throws: any error; in strict mode it fails the decoding with
    ///   ``MappingError/Kind/hookFailed(_:)``, in lenient mode the model is dropped where it
    ///   was nested (the enclosing property keeps its default) or the top-level call throws.
    mutating func didDecode() throws
}

/// A hook run before a model is encoded.
public protocol MappingWillEncode: MappableModel {
    /// Called before the model is written; throw to refuse encoding it.
    func willEncode() throws
}

/// A hook run after a model is encoded: edit the JSON object written for it.
///
/// Conforming makes that type's encoding build a ``JSONObject`` first, which is slower.
public protocol MappingDidEncode: MappableModel {
    /// Edits the object just encoded for this model.
    ///
    /// - Parameter json: the encoded object, members in property order.
    func didEncode(into json: inout JSONObject) throws
}
