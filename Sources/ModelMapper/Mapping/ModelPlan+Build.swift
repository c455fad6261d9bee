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
            if let transformer = configuration.transformers[name] {
                bindings.append(transformBinding(property, keyPaths: keyPaths, transformer: transformer))
                continue
            }
            let factory = CodecFactory(
                dateDecoding: configuration.dateDecoding[name] ?? options.dateDecoding,
                dateEncoding: configuration.dateEncoding[name] ?? options.dateEncoding
            )
            guard let binding = typedBinding(property, keyPaths: keyPaths, factory: factory) else {
                unmapped.append(name)
                continue
            }
            bindings.append(binding)
        }
        return ModelPlan(
            info: info, configurationVersion: version, configuration: configuration,
            bindings: bindings, unmapped: unmapped, keyNaming: naming, fieldAccess: options.fieldAccess
        )
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
final class ModelCodec<M: Mappable>: ValueCodec<M>, @unchecked Sendable {
    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> M {
        try context.mapper.plan(for: M.self).decode(tape, i, context)
    }

    override func encode(_ value: M, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        // A subclass instance is written with the subclass's plan.
        let dynamicType: Any.Type = type(of: value)
        if dynamicType != M.self, let subclass = dynamicType as? any Mappable.Type {
            func encodeAs<S: Mappable>(_ type: S.Type) throws -> Bool {
                guard let typed = value as? S else { return false }
                try context.mapper.plan(for: S.self).encode(typed, into: &writer, context)
                return true
            }
            if try encodeAs(subclass) { return }
        }
        try context.mapper.plan(for: M.self).encode(value, into: &writer, context)
    }
}
