import TypeInfo

/// One mapped property: its keys, and how its value is read from a node and written back.
///
/// A class hierarchy rather than stored closures: calling through a generic class's vtable
/// needs no function-type metadata, which closures kept in a generic plan would fetch on
/// every call (measured in the encoder's profile).
class PropertyBinding<T>: @unchecked Sendable {
    /// The Swift property name.
    let property: String
    /// Candidate key paths, first present wins; the first is written.
    let keyPaths: [[String]]

    init(property: String, keyPaths: [[String]]) {
        self.property = property
        self.keyPaths = keyPaths
    }

    /// Whether this binding reads one plain key (the fast path).
    final var isSimple: Bool { keyPaths.count == 1 && keyPaths[0].count == 1 }

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
        super.init(property: property, keyPaths: keyPaths)
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
        super.init(property: property.name, keyPaths: keyPaths)
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
