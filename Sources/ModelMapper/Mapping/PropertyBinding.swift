import TypeInfo

/// One mapped property, seen without its model type: keys, and raw access from the
/// instance's base address. The plan's hot loops go through this non-generic class, so
/// touching a binding needs no generic metadata (an array of a generic class fetches its
/// element type's metadata on access, measured at a quarter of the feed encoder's time).
class FieldBinding: @unchecked Sendable {
    /// The Swift property name.
    let property: String
    /// Candidate key paths, first present wins; the first is written.
    let keyPaths: [[String]]
    /// Whether ``decodeDirect(_:_:_:_:)`` and ``encodeDirect(_:_:_:)`` may be used: the value
    /// lives at a known offset from the instance's base address and has the property's type.
    let isDirect: Bool

    init(property: String, keyPaths: [[String]], isDirect: Bool) {
        self.property = property
        self.keyPaths = keyPaths
        self.isDirect = isDirect
    }

    /// Whether this binding reads one plain key (the fast path).
    final var isSimple: Bool { keyPaths.count == 1 && keyPaths[0].count == 1 }

    /// Reads the node into the field at `base` + offset (only when ``isDirect``).
    func decodeDirect(_ base: UnsafeMutableRawPointer, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {}

    /// Writes the field at `base` + offset (only when ``isDirect``).
    func encodeDirect(_ base: UnsafeRawPointer, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        false
    }
}

/// One mapped property of a `T`: adds access through the instance (for `PropertyInfo`).
class PropertyBinding<T>: FieldBinding, @unchecked Sendable {
    /// Reads the node at `node` into the instance's property.
    func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {}

    /// Writes the property's value; returns `false`, having written nothing, for an omitted `nil`.
    func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool { false }
}

/// A property converted by the codec of its own type `V`.
final class TypedBinding<T, V>: PropertyBinding<T>, @unchecked Sendable {
    let codec: ValueCodec<V>
    let field: FieldAccess<T, V>

    init(property: String, keyPaths: [[String]], codec: ValueCodec<V>, field: FieldAccess<T, V>) {
        self.codec = codec
        self.field = field
        self.offset = field.directOffset ?? 0
        super.init(property: property, keyPaths: keyPaths, isDirect: field.directOffset != nil)
    }

    private let offset: Int

    override func decodeDirect(
        _ base: UnsafeMutableRawPointer, _ tape: JSONTape, _ node: Int, _ context: DecodeContext
    ) throws {
        try codec.decode(into: base + offset, tape, node, context)
    }

    override func encodeDirect(_ base: UnsafeRawPointer, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        try codec.encode(at: base + offset, into: &writer, context)
    }

    override func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        let value = try codec.decode(tape, node, context)
        do { try field.set(value, on: &instance) } catch {
            throw MappingError(.invalidConfiguration(String(describing: error)))
        }
    }

    override func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        let value: V
        do { value = try field.get(from: instance) } catch {
            throw MappingError(.invalidConfiguration(String(describing: error)))
        }
        if !context.writesNilAsNull && codec.isNil(value) { return false }
        try codec.encode(value, into: &writer, context)
        return true
    }
}

/// A property converted by a user's ``MappingTransformer``, written through `PropertyInfo`
/// (the transformer's value is cast to the property's type there).
final class TransformBinding<T>: PropertyBinding<T>, @unchecked Sendable {
    let info: PropertyInfo
    let transformer: MappingTransformer

    init(property: PropertyInfo, keyPaths: [[String]], transformer: MappingTransformer) {
        self.info = property
        self.transformer = transformer
        super.init(property: property.name, keyPaths: keyPaths, isDirect: false)
    }

    override func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        let decoded: Any?
        do { decoded = try transformer.decode(tape.value(at: node)) } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.transformFailed(String(describing: error)))
        }
        guard let decoded else { return }
        do { try info.set(decoded, on: &instance) } catch {
            throw MappingError(.typeMismatch(
                expected: String(describing: info.type), found: "a transformed \(type(of: decoded))"))
        }
    }

    override func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        let value: Any
        do { value = try info.get(from: instance) } catch {
            throw MappingError(.invalidConfiguration(String(describing: error)))
        }
        do { writer.value(try transformer.encode(value)) } catch let error as MappingError { throw error } catch {
            throw MappingError(.transformFailed(String(describing: error)))
        }
        return true
    }
}
