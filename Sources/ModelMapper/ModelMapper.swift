import Foundation
@_spi(Locking) import TypeInfo

/// Maps JSON to ``Mappable`` models and back, through the types' `ClassInfo`.
///
/// A mapper holds options (lenient or strict, key naming, date strategies, reader limits)
/// and a cache of per-type plans. It is thread-safe: decode and encode from any number of
/// tasks at once. ``shared`` is a lenient mapper with default options.
///
/// ```swift
/// let user = try ModelMapper.shared.decode(User.self, from: data)
/// let json = try ModelMapper.shared.encode(user)
/// let strict = ModelMapper(options: MappingOptions(mode: .strict))
/// ```
public final class ModelMapper: Sendable {
    /// A lenient mapper with default options.
    public static let shared = ModelMapper()

    /// This mapper's options.
    public let options: MappingOptions

    private struct State {
        var plans: [ObjectIdentifier: AnyObject] = [:]
        var versions: [ObjectIdentifier: Int] = [:]
        var configurations: [ObjectIdentifier: @Sendable (inout MappingConfiguration) -> Void] = [:]
        /// Diagnostic lines already reported (each is reported once per mapper).
        var reported: Set<String> = []
    }

    private let state = PthreadMutex(State())

    /// Creates a mapper.
    ///
    /// - Parameter options: mode, naming, dates, reader limits.
    public init(options: MappingOptions = MappingOptions()) {
        self.options = options
    }

    // MARK: Decoding

    /// Decodes a model from UTF-8 JSON.
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - data: the JSON.
    ///   - path: a dotted key path to the object to read (overrides the type's
    ///     ``MappingConfiguration/designatedPath``).
    /// - Returns: the model.
    /// - Throws: ``MappingError`` (malformed JSON; in strict mode, any value that does not fit).
    public func decode<T: MappableModel>(_ type: T.Type, from data: Data, at path: String? = nil) throws -> T {
        try withTape(data) { try decodeRoot(ModelCodec<T>(), $0, path: path, designated: plan(for: T.self).designatedPath) }
    }

    /// Decodes a model from JSON text (see `decode(_:from:at:)` with `Data`).
    public func decode<T: MappableModel>(_ type: T.Type, from text: String, at path: String? = nil) throws -> T {
        try withTape(text) { try decodeRoot(ModelCodec<T>(), $0, path: path, designated: plan(for: T.self).designatedPath) }
    }

    /// Decodes a model from an already parsed `[String: Any]` (from `JSONSerialization`, say).
    public func decode<T: MappableModel>(_ type: T.Type, from object: [String: Any], at path: String? = nil) throws -> T {
        try withTape(anyObject: object) { try decodeRoot(ModelCodec<T>(), $0, path: path, designated: plan(for: T.self).designatedPath) }
    }

    /// Decodes a model from a ``JSONValue`` tree.
    public func decode<T: MappableModel>(_ type: T.Type, from value: JSONValue, at path: String? = nil) throws -> T {
        try decode(type, from: value.jsonData(), at: path)
    }

    /// Decodes a top-level array of models from UTF-8 JSON. In lenient mode elements that do
    /// not convert are left out; in strict mode they fail with their index in the path.
    public func decode<T: MappableModel>(_ type: [T].Type, from data: Data, at path: String? = nil) throws -> [T] {
        try withTape(data) { try decodeRoot(ArrayCodec(ModelCodec<T>()), $0, path: path, designated: nil) }
    }

    /// Decodes a top-level array of models from JSON text.
    public func decode<T: MappableModel>(_ type: [T].Type, from text: String, at path: String? = nil) throws -> [T] {
        try withTape(text) { try decodeRoot(ArrayCodec(ModelCodec<T>()), $0, path: path, designated: nil) }
    }

    /// Decodes an array of models from an already parsed `[Any]`.
    public func decode<T: MappableModel>(_ type: [T].Type, from array: [Any]) throws -> [T] {
        try withTape(anyObject: array) { try decodeRoot(ArrayCodec(ModelCodec<T>()), $0, path: nil, designated: nil) }
    }

    /// Decodes a model leniently and also returns every problem that was skipped.
    ///
    /// - Returns: the model, and the skipped values' errors with their JSON paths.
    public func decodeReportingIssues<T: MappableModel>(_ type: T.Type, from data: Data) throws -> (T, [MappingError]) {
        try withTape(data) { tape in
            let context = DecodeContext(mapper: self, collectsIssues: true)
            let model = try decodeRoot(ModelCodec<T>(), tape, path: nil, designated: plan(for: T.self).designatedPath, context: context)
            return (model, context.issues ?? [])
        }
    }

    func decodeRoot<V>(
        _ codec: ValueCodec<V>, _ tape: JSONTape, path: String?, designated: [String]?,
        context: DecodeContext? = nil
    ) throws -> V {
        let context = context ?? DecodeContext(mapper: self, collectsIssues: false)
        var node = 0
        let components = path.map(MappingConfiguration.designatedComponents(of:)) ?? designated
        if let components {
            var walked: [JSONPathComponent] = []
            for component in components {
                if tape.kind(node) == .array, let index = MappingConfiguration.arrayIndex(component),
                    let element = tape.element(index, in: node)
                {
                    walked.append(.index(index))
                    node = element
                    continue
                }
                guard tape.kind(node) == .object, let member = tape.member(component, in: node) else {
                    throw MappingError(.keyNotFound(component), path: walked)
                }
                walked.append(.key(component))
                node = member
            }
            do { return try codec.decode(tape, node, context) } catch let error as MappingError {
                var located = error
                located.path.insert(contentsOf: walked, at: 0)
                throw located
            }
        }
        return try codec.decode(tape, node, context)
    }

    func withTape<R>(_ data: Data, _ body: (JSONTape) throws -> R) throws -> R {
        do {
            return try data.withUnsafeBytes { raw in
                try JSONReader.withTape(raw.bindMemory(to: UInt8.self), options: options.reading, body)
            }
        } catch let error as JSONReadError {
            throw MappingError(.malformedJSON(error))
        }
    }

    func withTape<R>(_ text: String, _ body: (JSONTape) throws -> R) throws -> R {
        var text = text
        do {
            return try text.withUTF8 { try JSONReader.withTape($0, options: options.reading, body) }
        } catch let error as JSONReadError {
            throw MappingError(.malformedJSON(error))
        }
    }

    private func withTape<R>(anyObject: Any, _ body: (JSONTape) throws -> R) throws -> R {
        var writer = JSONWriter()
        do { try writer.any(anyObject) } catch { throw MappingError(.typeMismatch(expected: "JSON values", found: "\(error)")) }
        return try withTape(Data(writer.bytes), body)
    }

    // MARK: Encoding

    /// Encodes a model as UTF-8 JSON (compact unless ``MappingOptions/outputFormatting`` says otherwise).
    ///
    /// - Throws: ``MappingError`` for values with no JSON form (in strict mode, also for
    ///   infinities and NaN, which lenient mode writes as `null`).
    public func encode<T: MappableModel>(_ model: T) throws -> Data {
        Data(formatted(try encodeBytes(model, codec: ModelCodec<T>())))
    }

    /// Encodes an array of models as UTF-8 JSON.
    public func encode<T: MappableModel>(_ models: [T]) throws -> Data {
        Data(formatted(try encodeBytes(models, codec: ArrayCodec(ModelCodec<T>()))))
    }

    /// Encodes a model as JSON text.
    public func encodeToString<T: MappableModel>(_ model: T) throws -> String {
        String(decoding: formatted(try encodeBytes(model, codec: ModelCodec<T>())), as: UTF8.self)
    }

    func formatted(_ bytes: [UInt8]) -> [UInt8] {
        options.outputFormatting.isEmpty ? bytes : JSONWriter.formatted(bytes, options.outputFormatting)
    }

    /// Encodes a model as a Foundation-style `[String: Any]`.
    public func encodeToDictionary<T: MappableModel>(_ model: T) throws -> [String: Any] {
        let bytes = try encodeBytes(model, codec: ModelCodec<T>())
        let any = try bytes.withUnsafeBufferPointer { buffer in
            try JSONReader.withTape(buffer, options: JSONReadOptions(maxDepth: .max)) { $0.anyValue(at: 0) }
        }
        return any as? [String: Any] ?? [:]
    }

    /// Encodes a model as a ``JSONValue`` tree.
    public func encodeToJSONValue<T: MappableModel>(_ model: T) throws -> JSONValue {
        let bytes = try encodeBytes(model, codec: ModelCodec<T>())
        return try bytes.withUnsafeBufferPointer { buffer in
            try JSONReader.withTape(buffer, options: JSONReadOptions(maxDepth: .max)) { $0.value(at: 0) }
        }
    }

    func encodeBytes<V>(_ value: V, codec: ValueCodec<V>) throws -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        try codec.encode(value, into: &writer, EncodeContext(mapper: self))
        return writer.bytes
    }

    // MARK: Plans

    /// Replaces how `type` maps on this mapper: `body` runs after the type's own
    /// `configureMapping(_:)` when the plan is (re)built. Takes effect at once.
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - body: adjusts the configuration.
    public func configure<T: MappableModel>(
        _ type: T.Type, _ body: @escaping @Sendable (inout MappingConfiguration) -> Void
    ) {
        let id = ObjectIdentifier(type)
        state.withLock { state in
            state.configurations[id] = body
            state.versions[id, default: 0] += 1
        }
    }

    /// Drops every cached plan (they are rebuilt on next use), for configurations that read
    /// state of their own that has changed.
    public func invalidatePlans() {
        state.withLock { state in
            state.plans.removeAll()
            for key in state.versions.keys { state.versions[key, default: 0] += 1 }
        }
    }

    /// The stored properties of `type` that have no JSON mapping (closures, weak references,
    /// types with no conversion), for diagnostics.
    ///
    /// - Throws: ``MappingError`` when the type's configuration is invalid.
    public func unmappedProperties<T: MappableModel>(of type: T.Type) throws -> [String] {
        try plan(for: type).unmappedProperties
    }

    /// The current plan for `T`: cached, rebuilt when the `ClassInfo` was rebuilt or the
    /// configuration changed. Building happens outside the lock; two threads racing to build
    /// the same plan both get a correct one and the last stored wins.
    func plan<T: MappableModel>(for type: T.Type) throws -> ModelPlan<T> {
        let info = ClassInfo.of(T.self)
        let id = ObjectIdentifier(T.self)
        let (cached, version, configuration) = state.withLock { state in
            (state.plans[id], state.versions[id] ?? 0, state.configurations[id])
        }
        if let cached {
            // The cache is keyed by the type, so the object is a ModelPlan<T>.
            let plan = unsafeDowncast(cached, to: ModelPlan<T>.self)
            if plan.isCurrent(for: info, version: version) { return plan }
        }
        let plan = try ModelPlan<T>.build(
            info: info, options: options, version: version, runtimeConfiguration: configuration
        )
        state.withLock { $0.plans[id] = plan }
        if options.mode == .lenient { report(ModelPlan<T>.refusalDiagnostics(plan.bindings)) }
        return plan
    }

    /// Reports each line not reported before by this mapper.
    func report(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let fresh = state.withLock { state in lines.filter { state.reported.insert($0).inserted } }
        for line in fresh {
            if let diagnostics = options.diagnostics {
                diagnostics(line)
            } else {
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }
}
