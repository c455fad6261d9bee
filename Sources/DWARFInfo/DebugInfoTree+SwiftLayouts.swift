import TypeLayout

// Swift types as `swiftc -g -Xfrontend -gdwarf-types` describes them. The member offsets are
// the compiler's synthesis for the debugger, not the runtime layout (see
// LayoutWitnessComparison): they are reported exactly as the file states them.

extension DebugInfoTree {
    func swiftLayout(of index: Int, name: String, size: Int) -> TypeLayout? {
        let entry = entries[index]
        // Bound generic specialisations (`Optional<Node>`) refer to their generic type through
        // DW_AT_specification; compiler builtins live in the `Builtin` module.
        // Nominal types always sit in a module; function types, metatypes and generic
        // parameters (`$sxD`) do not. An unbound generic type (`Optional<A>`) has no layout.
        guard entry.specification == nil, let module = moduleName(of: index), module != "Builtin" else { return nil }
        if size == 0, name.contains("<") { return nil }
        var layout = TypeLayout(
            name: name, mangledName: entry.linkageName, kind: swiftKind(of: index),
            module: module, size: size, source: .dwarf
        )
        for child in entry.children {
            let member = entries[child]
            switch member.tag {
            case DebugTag.member where !member.isDeclaration:
                var field = FieldLayout(name: member.name ?? "", type: typeName(of: member.type))
                field.offset = member.memberOffset.flatMap { Int(exactly: $0) }
                field.size = byteSize(ofType: member.type)
                layout.fields.append(field)
            case DebugTag.inheritance:
                if let superclass = self.index(of: member.type) {
                    layout.superclass = swiftName(of: superclass)
                }
            case DebugTag.variantPart:
                layout.cases += enumCases(in: child)
            case DebugTag.enumerator:
                if let caseName = member.name { layout.cases.append(EnumCaseLayout(name: caseName)) }
            default:
                break
            }
        }
        // A member-less description with a size of 0 is how the compiler writes a type whose
        // size it does not have there (a type of another module, for one): no size is stated.
        if size == 0, layout.fields.isEmpty, layout.cases.isEmpty, layout.superclass == nil { layout.size = nil }
        return layout
    }

    /// Cases of a Swift enum: each `DW_TAG_variant` holds one member named after the case,
    /// typed with the payload when the case has one.
    private func enumCases(in variantPart: Int) -> [EnumCaseLayout] {
        entries[variantPart].children.flatMap { variant -> [EnumCaseLayout] in
            guard entries[variant].tag == DebugTag.variant else { return [] }
            return entries[variant].children.compactMap { child in
                let member = entries[child]
                guard member.tag == DebugTag.member, let name = member.name else { return nil }
                return EnumCaseLayout(name: name, payloadType: member.type.map { typeName(of: $0) })
            }
        }
    }

    /// Struct, class, enum or existential. DWARF describes all of them with
    /// `DW_TAG_structure_type`; the mangled type name says which (`...V` struct, `...C` class,
    /// `...O` enum, `..._p` existential, before the trailing `D` of a type mangling), and a
    /// variant part marks an enum.
    private func swiftKind(of index: Int) -> TypeKind {
        let entry = entries[index]
        if entry.tag == DebugTag.enumerationType { return .enum }
        if entry.tag == DebugTag.classType { return .class }
        if entry.children.contains(where: { entries[$0].tag == DebugTag.variantPart }) { return .enum }
        if let mangled = entry.linkageName, mangled.hasSuffix("D") {
            switch mangled.dropLast().last {
            case "C": return .class
            case "O": return .enum
            // `$ss5Error_pD`: a protocol's existential box (`any Error`).
            case "p": return .existential
            default: return .struct
            }
        }
        return .struct
    }
}
