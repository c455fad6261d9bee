import Foundation
import TypeInfo

extension ModelPlan {
    /// Builds the plan for `T` from its `ClassInfo` and configuration.
    ///
    /// - Throws: ``MappingError/Kind/invalidConfiguration(_:)`` when the configuration names a
    ///   property `T` does not have.
    static func build(
        info: ClassInfo, options: MappingOptions, version: Int,
        runtimeConfiguration: (@Sendable (inout MappingConfiguration) -> Void)?
    ) throws -> ModelPlan<T> {
        var configuration = MappingConfiguration()
        T.configureMapping(&configuration)
        runtimeConfiguration?(&configuration)
        let naming = configuration.keyNaming ?? options.keyNaming

        let names = Set(info.propertyInfos.map(\.name))
        var mentioned = Set(configuration.keyPaths.keys).union(configuration.transformers.keys)
        mentioned.formUnion(configuration.excludedProperties)
        mentioned.formUnion(configuration.includedProperties ?? [])
        mentioned.formUnion(configuration.requiredProperties)
        mentioned.formUnion(configuration.dateDecoding.keys)
        mentioned.formUnion(configuration.dateEncoding.keys)
        if let unknown = mentioned.subtracting(names).sorted().first {
            throw MappingError(.invalidConfiguration("\(T.self) has no stored property \"\(unknown)\""))
        }

        var bindings: [PropertyBinding<T>] = []
        var unmapped: [String] = []
        for property in info.propertyInfos {
            let name = property.name
            // Weak/unowned references would be released at once; lazy storage is not data.
            guard property.ownership == .strong, !name.hasPrefix("$__lazy_storage_$_") else {
                unmapped.append(name)
                continue
            }
            guard !configuration.excludedProperties.contains(name),
                configuration.includedProperties?.contains(name) ?? true
            else { continue }
            let keyPaths = configuration.keyPaths[name] ?? [[naming.key(for: name)]]
            let binding: PropertyBinding<T>
            if let transformer = configuration.transformers[name] {
                binding = transformBinding(property, keyPaths: keyPaths, transformer: transformer)
            } else {
                let factory = CodecFactory(
                    dateDecoding: configuration.dateDecoding[name] ?? options.dateDecoding,
                    dateEncoding: configuration.dateEncoding[name] ?? options.dateEncoding
                )
                guard let typed = typedBinding(property, keyPaths: keyPaths, factory: factory) else {
                    unmapped.append(name)
                    let reason =
                        "its type \(String(reflecting: property.type)) has no JSON mapping; give it a transformer "
                        + "(mapping.transform), make the type MappableModel, or leave it out (mapping.excludedProperties)"
                    bindings.append(RefusedBinding(property: property, keyPaths: keyPaths, inner: nil, reason: reason))
                    continue
                }
                binding = typed
            }
            if let reason = foldableLetReason(property) {
                bindings.append(RefusedBinding(property: property, keyPaths: keyPaths, inner: binding, reason: reason))
            } else {
                bindings.append(binding)
            }
        }
        return ModelPlan(
            info: info, configurationVersion: version, configuration: configuration,
            bindings: bindings, unmapped: unmapped, keyNaming: naming, fieldAccess: options.fieldAccess
        )
    }

    /// Why a `let` must not be written, or `nil` when writing it is safe.
    ///
    /// The optimizer's let-property pass (LetPropertiesOpts) replaces every read of a class's
    /// `let` with the constant its initializers store, when they all store the same value
    /// built from integer and floating-point literals: `let id = 0` or `init() { id = 0 }`
    /// in an optimized build reads back 0 whatever was written into the field. Whether the
    /// initial value is such a constant is not in the metadata, so every class `let` of a
    /// trivial type (numbers, `Bool`, structs and tuples of them: the only types such a
    /// constant can have) is refused. Structs are not folded (their fields can be written
    /// through any address of the value), and non-trivial types (`String`, arrays, classes,
    /// optionals of them) have no literal constant to fold to.
    private static func foldableLetReason(_ property: PropertyInfo) -> String? {
        guard !property.isVar, property.declaringType is AnyObject.Type else { return nil }
        func isTrivial<V>(_ type: V.Type) -> Bool { _isPOD(V.self) }
        guard isTrivial(property.type) else { return nil }
        return "it is a 'let' of a class with a trivial type, and an optimized (-O) build may replace its reads "
            + "with its initial value, so a decoded value would be lost; declare it 'var' (or 'private(set) var'), "
            + "or leave it out (mapping.excludedProperties)"
    }

    /// The lines the mapper reports once per property (lenient mode): properties it will not decode.
    static func refusalDiagnostics(_ bindings: [PropertyBinding<T>]) -> [String] {
        bindings.compactMap { binding in
            guard let refused = binding as? RefusedBinding<T> else { return nil }
            return "ModelMapper: \(T.self).\(refused.property) is not decoded: \(refused.reason)"
        }
    }

    /// A binding typed by the property's own type `V`, found by opening `property.type`.
    private static func typedBinding(
        _ property: PropertyInfo, keyPaths: [[String]], factory: CodecFactory
    ) -> PropertyBinding<T>? {
        func open<V>(_ type: V.Type) -> PropertyBinding<T>? {
            guard let codec = factory.codec(for: V.self) else { return nil }
            return TypedBinding<T, V>(property: property, keyPaths: keyPaths, codec: codec)
        }
        return open(property.type)
    }

    /// A binding that converts through a user's ``MappingTransformer``.
    private static func transformBinding(
        _ property: PropertyInfo, keyPaths: [[String]], transformer: MappingTransformer
    ) -> PropertyBinding<T> {
        TransformBinding<T>(property: property, keyPaths: keyPaths, transformer: transformer)
    }
}

/// A nested model: decoded and encoded through its own plan, looked up (and revalidated)
/// in the mapper's cache on every use, so invalidation reaches nested types too.
///
/// A model a property already holds is decoded into (KakaJSON's nested defaults): the fields
/// the JSON does not mention keep the values the outer model gave them. A struct is merged as
/// a copy; a class object in place, so every holder of it sees the new values, as with
/// `update(object, from:)`. A class whose plan does not merge (``ModelPlan/mergesIntoCurrent``)
/// is made afresh.
final class ModelCodec<M: MappableModel>: ValueCodec<M>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> M {
        try context.mapper.plan(for: M.self).decode(tape, i, context)
    }

    override func decode(
        into storage: MutableInstanceStorage, _ property: PropertyInfo, _ tape: JSONTape, _ i: Int, _ context: DecodeContext
    ) throws {
        let plan = try context.mapper.plan(for: M.self)
        guard plan.mergesIntoCurrent else { return try storage.set(plan.decode(tape, i, context), for: property) }
        let current = try storage.get(M.self, for: property)
        try storage.set(try ModelCodec.decode(tape, i, context, updating: current, plan: plan), for: property)
    }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, merging current: M) throws -> M {
        let plan = try context.mapper.plan(for: M.self)
        guard plan.mergesIntoCurrent else { return try plan.decode(tape, i, context) }
        return try ModelCodec.decode(tape, i, context, updating: current, plan: plan)
    }

    /// Decodes into `existing`; an instance of a subclass of `M` with the subclass's own plan,
    /// so its own properties are written too.
    static func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, updating existing: M, plan: ModelPlan<M>) throws -> M {
        let dynamicType: Any.Type = type(of: existing)
        if dynamicType != M.self, let subclass = dynamicType as? any MappableModel.Type {
            func updateAs<S: MappableModel>(_ type: S.Type) throws -> M? {
                guard let typed = existing as? S else { return nil }
                return try context.mapper.plan(for: S.self).decode(tape, i, context, updating: typed) as? M
            }
            if let updated = try updateAs(subclass) { return updated }
        }
        return try plan.decode(tape, i, context, updating: existing)
    }

    override func encode(_ value: M, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        // A subclass instance is written with the subclass's plan.
        let dynamicType: Any.Type = type(of: value)
        if dynamicType != M.self, let subclass = dynamicType as? any MappableModel.Type {
            func encodeAs<S: MappableModel>(_ type: S.Type) throws -> Bool {
                guard let typed = value as? S else { return false }
                try context.mapper.plan(for: S.self).encode(typed, into: &writer, context)
                return true
            }
            if try encodeAs(subclass) { return }
        }
        try context.mapper.plan(for: M.self).encode(value, into: &writer, context)
    }
}
