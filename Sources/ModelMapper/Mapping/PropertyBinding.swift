import TypeInfo

// How a plan reads and writes a model's stored properties: only through TypeInfo. The mapper
// never computes an address inside a model; it hands values to `ClassInfo.withStorage` (one
// instance check per model, then a checked typed load or store per field, done by TypeInfo)
// or, with `FieldAccessStrategy.propertyInfo`, to `PropertyInfo.set`/`get` per field.

/// One mapped property, seen without its model type: keys, and access through the storage
/// of one instance. The plan's hot loops go through this non-generic class, so touching a
/// binding needs no generic metadata (an array of a generic class fetches its element type's
/// metadata on access, measured at a quarter of the feed encoder's time).
class FieldBinding: @unchecked Sendable {
    /// The property, from the plan's `ClassInfo`.
    let info: PropertyInfo
    /// Candidate key paths, first present wins; the first is written.
    let keyPaths: [[String]]

    init(info: PropertyInfo, keyPaths: [[String]]) {
        self.info = info
        self.keyPaths = keyPaths
    }

    /// The Swift property name.
    final var property: String { info.name }

    /// Whether this binding reads one plain key (the fast path).
    final var isSimple: Bool { keyPaths.count == 1 && keyPaths[0].count == 1 }

    /// Reads the node into the property, through the instance's storage.
    func decode(into storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {}

    /// Writes the property's value, read through the instance's storage; returns `false`,
    /// having written nothing, for an omitted `nil`.
    func encode(from storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        false
    }

    /// The codec that converts this property's values, when it is one of the mapper's own
    /// (for the plan's inline encoder); `nil` for transformers and refused properties.
    var codecObject: AnyObject? { nil }

    /// The mapping error for a failed access (a TypeInfo error: the plan and the instance disagree).
    final func accessError(_ error: any Error) -> MappingError {
        if let error = error as? MappingError { return error }
        return MappingError(.invalidConfiguration(String(describing: error)))
    }
}

/// One mapped property of a `T`: adds access through `PropertyInfo.set`/`get` on the instance
/// itself (``FieldAccessStrategy/propertyInfo``).
class PropertyBinding<T>: FieldBinding, @unchecked Sendable {
    /// Reads the node at `node` into the instance's property.
    func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {}

    /// Writes the property's value; returns `false`, having written nothing, for an omitted `nil`.
    func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool { false }
}

/// A property converted by the codec of its own type `V`.
final class TypedBinding<T, V>: PropertyBinding<T>, @unchecked Sendable {
    let codec: ValueCodec<V>

    init(property: PropertyInfo, keyPaths: [[String]], codec: ValueCodec<V>) {
        self.codec = codec
        super.init(info: property, keyPaths: keyPaths)
    }

    override var codecObject: AnyObject? { codec }

    override func decode(into storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        do { try codec.decode(into: storage, info, tape, node, context) } catch { throw accessError(error) }
    }

    override func encode(from storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        do { return try codec.encode(from: storage, info, into: &writer, context) } catch { throw accessError(error) }
    }

    override func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        let current: V
        do { current = try info.get(V.self, from: instance) } catch { throw accessError(error) }
        let value = try codec.decode(tape, node, context, merging: current)
        do { try info.set(value, on: &instance) } catch { throw accessError(error) }
    }

    override func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        let value: V
        do { value = try info.get(V.self, from: instance) } catch { throw accessError(error) }
        if !context.writesNilAsNull && codec.isNil(value) { return false }
        try codec.encode(value, into: &writer, context)
        return true
    }
}

/// A property converted by a user's ``MappingTransformer``; the transformer's value is cast
/// to the property's type by TypeInfo.
final class TransformBinding<T>: PropertyBinding<T>, @unchecked Sendable {
    let transformer: MappingTransformer

    init(property: PropertyInfo, keyPaths: [[String]], transformer: MappingTransformer) {
        self.transformer = transformer
        super.init(info: property, keyPaths: keyPaths)
    }

    override func decode(into storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        guard let decoded = try transformed(tape, node) else { return }
        do { try storage.set(decoded, info) } catch { throw mismatch(decoded) }
    }

    override func encode(from storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        let value: Any
        do { value = try storage.get(Any.self, info) } catch { throw accessError(error) }
        return try write(value, &writer, context)
    }

    override func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        guard let decoded = try transformed(tape, node) else { return }
        do { try info.set(decoded, on: &instance) } catch { throw mismatch(decoded) }
    }

    override func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        let value: Any
        do { value = try info.get(from: instance) } catch { throw accessError(error) }
        return try write(value, &writer, context)
    }

    private func transformed(_ tape: JSONTape, _ node: Int) throws -> Any? {
        do { return try transformer.decode(tape.value(at: node)) } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.transformFailed(String(describing: error)))
        }
    }

    private func mismatch(_ decoded: Any) -> MappingError {
        MappingError(.typeMismatch(expected: String(describing: info.type), found: "a transformed \(type(of: decoded))"))
    }

    /// Writes `value` through the transformer; a `nil` optional is written as `null` or left
    /// out (``MappingOptions/writesNilAsNull``) without calling it: the transformer converts
    /// values, and an absent one has nothing to convert.
    private func write(_ value: Any, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        var value = value
        if info.type is any OptionalProtocol.Type, let optional = value as? any OptionalProtocol {
            guard let wrapped = optional.wrappedAny else {
                guard context.writesNilAsNull else { return false }
                writer.null()
                return true
            }
            value = wrapped
        }
        do { writer.value(try transformer.encode(value)) } catch let error as MappingError { throw error } catch {
            throw MappingError(.transformFailed(String(describing: error)))
        }
        return true
    }
}

/// A property the mapper reads for encoding but never writes when decoding: a `let` whose
/// reads an optimized build may fold, or (with no `inner` binding) a property whose type has
/// no JSON mapping. A value for it in the JSON is an ``MappingError/Kind/unsettableProperty(type:property:reason:)``:
/// thrown in strict mode, recorded and skipped in lenient mode (the mapper also reports the
/// property once, when the plan is built).
final class RefusedBinding<T>: PropertyBinding<T>, @unchecked Sendable {
    /// Encodes the property (a `let` is read correctly); `nil` when the type has no mapping.
    let inner: PropertyBinding<T>?
    /// Why the property is not decoded, and what to change.
    let reason: String

    init(property: PropertyInfo, keyPaths: [[String]], inner: PropertyBinding<T>?, reason: String) {
        self.inner = inner
        self.reason = reason
        super.init(info: property, keyPaths: keyPaths)
    }

    /// The error for a JSON value that would have been written to the property.
    var refusal: MappingError {
        MappingError(.unsettableProperty(type: String(describing: T.self), property: info.name, reason: reason))
    }

    override func decode(into storage: MutableInstanceStorage, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        throw refusal
    }

    override func encode(from storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        try inner?.encode(from: storage, &writer, context) ?? false
    }

    override func decode(_ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext) throws {
        throw refusal
    }

    override func encode(_ instance: T, _ writer: inout JSONWriter, _ context: EncodeContext) throws -> Bool {
        try inner?.encode(instance, &writer, context) ?? false
    }
}
