import TypeLayout

extension ClassInfo {
    /// The type's layout as a plain value, the form every output format, snapshot and diff reads.
    ///
    /// Stored properties become fields (for classes, superclass fields first, offsets from the
    /// start of the object); tuple elements become fields named by label or position; enum
    /// cases keep the runtime's order. Generic arguments of a specialised type are listed as
    /// `genericParameters`, since at run time they are known.
    public var layout: TypeLayout {
        var fields = propertyInfos.map(\.layout)
        if kind == .tuple {
            fields = tupleElements.enumerated().map { index, element in
                FieldLayout(
                    name: element.label ?? ".\(index)",
                    type: demangledTypeName(element.type),
                    mangledType: _mangledTypeName(element.type),
                    offset: element.offset,
                    size: ClassInfo.of(element.type).size,
                    alignment: ClassInfo.of(element.type).alignment,
                    isVar: true
                )
            }
        }
        return TypeLayout(
            name: demangledTypeName(type),
            mangledName: mangledName,
            kind: kind,
            module: Self.moduleName(of: qualifiedName),
            size: size,
            alignment: alignment,
            stride: stride,
            instanceSize: instanceSize,
            instanceAlignment: instanceAlignment,
            superclass: superclass.map { demangledTypeName($0) },
            genericParameters: genericArguments.map { demangledTypeName($0) },
            fields: fields,
            cases: cases.map {
                EnumCaseLayout(name: $0.name, payloadType: $0.payloadType.map { demangledTypeName($0) }, indirect: $0.isIndirect)
            },
            source: .runtime
        )
    }

    /// The module prefix of a qualified name (`Demo` in `Demo.Point<Swift.Int>`), for nominal types.
    private static func moduleName(of qualifiedName: String) -> String? {
        guard let first = qualifiedName.first, first.isLetter || first == "_" else { return nil }
        let module = qualifiedName.prefix { $0 != "." && $0 != "<" && $0 != "(" }
        return module.count < qualifiedName.count && qualifiedName.dropFirst(module.count).first == "." ? String(module) : nil
    }
}

extension LayoutDocument {
    /// A document holding the layouts of types in the running process.
    ///
    /// - Parameters:
    ///   - types: the types to describe, in the order to list them.
    ///   - processName: what to name the image; the executable's name by default.
    public init(inProcess types: [Any.Type], processName: String = CommandLine.arguments.first ?? "process") {
        self.init(
            image: ImageSummary(path: processName, fileType: .process),
            types: types.map { ClassInfo.of($0).layout }
        )
    }
}
