import TypeLayout

extension ComputedLayouts {
    /// The layout of any type the file's images can lower, named by its mangling: a bound generic
    /// instantiation (`$s2nc7WrapperVySiG`, `Module.Wrapper<Swift.Int>` mangled), an optional,
    /// a tuple. Fields are the library's children, with their types named by the library.
    ///
    /// - Parameters:
    ///   - mangledName: the type's mangling, with or without `$s`.
    ///   - path: the file whose images (with `dependencies`) define the types involved.
    ///   - dependencies: the Swift libraries the file depends on, as for `compute(forFileAt:types:dependencies:configuration:)`.
    ///   - configuration: where the reflection library and the worker are.
    /// - Returns: the layout, or nil with notes saying why.
    public static func instantiation(
        mangledName: String,
        forFileAt path: String,
        dependencies: [String],
        configuration: LoweringConfiguration = .resolved()
    ) -> (layout: TypeLayout?, notes: [LayoutNote]) {
        let mangling = mangledName.hasPrefix("$s") ? String(mangledName.dropFirst(2)) : mangledName
        var unstarted: WorkerProcess?
        let client = LoweringClient(configuration: configuration)
        let (lowered, clientNotes) = client.lower(
            manglings: [mangling], file: path, dependencies: dependencies, started: &unstarted, includeTypeNames: true)
        let notes = clientNotes
        guard let answer = lowered[mangling] else { return (nil, notes) }
        guard let kind = answer.kind else {
            let reason = answer.unknownReason ?? "the reflection library cannot lower it"
            return (nil, notes + [.loweringFailed(mangling: "$s" + mangling, text: "$s\(mangling): \(reason)")])
        }
        let name = SwiftDemangler.typeName(mangling: mangling) ?? "$s" + mangling
        let typeKind: TypeKind
        switch kind {
        case .struct: typeKind = .struct
        case .tuple: typeKind = .tuple
        case .noPayloadEnum, .singlePayloadEnum, .multiPayloadEnum: typeKind = .enum
        default: typeKind = .opaque
        }
        var layout = TypeLayout(
            name: name, mangledName: mangling, kind: typeKind, size: answer.size,
            alignment: answer.alignment, stride: answer.stride, source: .computed)
        layout.extraInhabitants = answer.extraInhabitants
        if typeKind == .enum {
            layout.enumStrategy = enumStrategy(answer)
            layout.enumTagBytes = enumTagBytes(answer)
            layout.enumTagSpareBits = layout.enumStrategy == .multiPayload ? answer.tagSpareBits : nil
            layout.cases = answer.children.map { child in
                var enumCase = EnumCaseLayout(
                    name: child.name, payloadType: child.mangledType.map { SwiftDemangler.typeName(mangling: $0) ?? $0 })
                enumCase.payloadSize = child.mangledType == nil ? nil : child.size
                return enumCase
            }
        } else {
            layout.fields = answer.children.map { child in
                FieldLayout(
                    name: child.name, type: child.mangledType.flatMap { SwiftDemangler.typeName(mangling: $0) } ?? "?",
                    mangledType: child.mangledType, offset: child.offset, size: child.size, alignment: child.alignment)
            }
        }
        return (layout, notes)
    }

    /// A mangling the file itself uses for the type printed as `name` (`Module.Wrapper<Swift.Int>`):
    /// the mangled type of a field or a payload whose printed type is `name`. Nil when the file
    /// never spells that type.
    public static func mangling(ofTypeNamed name: String, in types: [TypeLayout]) -> String? {
        for type in types {
            for field in type.fields where field.type == name {
                // Only a spelling that demangles back to the same name: a spelled-out symbolic
                // reference can shift later substitutions onto another type.
                if let mangled = field.mangledType, !["Xw", "Xo", "Xu"].contains(where: { mangled.hasSuffix($0) }),
                    SwiftDemangler.typeName(mangling: mangled) == name
                {
                    return mangled
                }
            }
        }
        return nil
    }
}
