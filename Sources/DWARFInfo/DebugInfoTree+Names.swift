import TypeLayout
// Type names as a user writes them: C declarator syntax (`const char *`, `int (*)(int)`,
// `struct point[3]`), C++ scopes (`ns::Outer::Inner`), demangled Swift names (`Module.Point`).

extension DebugInfoTree {
    /// The name a layout of the type at `index` is listed under, or `nil` for an anonymous type
    /// that no typedef names (its members are shown inside the type that holds it).
    func layoutName(of index: Int) -> String? {
        let entry = entries[index]
        switch language(of: index) {
        case .swift:
            return swiftName(of: index)
        case .cPlusPlus:
            if entry.name != nil { return scopedName(of: index) }
            return namingTypedef(of: index).flatMap { scopedName(of: $0) }
        case .c, .other:
            if let name = entry.name { return "\(Self.keyword(for: entry.tag)) \(name)" }
            return namingTypedef(of: index).flatMap { entries[$0].name }
        }
    }

    /// The Swift module that declares the entry (its nearest `DW_TAG_module` ancestor).
    func moduleName(of index: Int) -> String? {
        var current = entries[index].parent
        var depth = 0
        while let position = current, depth < Self.maximumChainDepth {
            if entries[position].tag == DebugTag.module { return entries[position].name }
            current = entries[position].parent
            depth += 1
        }
        return nil
    }

    /// A Swift type's name: its demangled linkage name (`Module.Outer.Inner`, `Swift.Int`),
    /// or, without one, its DWARF name qualified by its module.
    func swiftName(of index: Int) -> String? {
        let entry = entries[index]
        if let mangled = entry.linkageName, let demangled = SwiftDemangler.demangle(symbol: mangled) {
            return demangled
        }
        guard let name = entry.name else { return nil }
        if name.hasPrefix("$"), let demangled = SwiftDemangler.demangle(symbol: name) {
            return demangled
        }
        return scopedName(of: index, separator: ".")
    }

    /// The entry's name qualified by its enclosing namespaces, modules and types.
    func scopedName(of index: Int, separator: String = "::") -> String? {
        guard let name = entries[index].name else { return nil }
        var parts = [name]
        var current = entries[index].parent
        var depth = 0
        while let position = current, depth < Self.maximumChainDepth {
            let scope = entries[position]
            switch scope.tag {
            case DebugTag.namespace:
                parts.append(scope.name ?? "(anonymous namespace)")
            case DebugTag.module, DebugTag.structureType, DebugTag.classType, DebugTag.unionType:
                // In a type unit the enclosing type is a stub naming its own type unit.
                let full = self.index(of: scope.definition).map { entries[$0] }
                if let scopeName = scope.name ?? full?.name { parts.append(scopeName) }
            default:
                break
            }
            current = scope.parent
            depth += 1
        }
        return parts.reversed().joined(separator: separator)
    }

    /// The spelling of the type at `offset`, as in a declaration with the declarator left out
    /// (`unsigned int`, `char *`, `int[4]`, `void (*)(int)`); `void` for no type.
    func typeName(of offset: DebugOffset?) -> String {
        // Bounded in depth and in total steps: function types whose parameters are function
        // types would otherwise grow exponentially in a corrupt file.
        var budget = 10_000
        return spell(offset, declarator: "", depth: 0, budget: &budget)
    }

    static func keyword(for tag: UInt16) -> String {
        switch tag {
        case DebugTag.unionType: return "union"
        case DebugTag.enumerationType: return "enum"
        case DebugTag.classType: return "class"
        default: return "struct"
        }
    }

    /// Builds a C declarator from the inside out: `declarator` is what already surrounds the
    /// name (for `int *p[3]`, spelling `int *` receives `[3]` and returns `int *[3]`).
    private func spell(_ offset: DebugOffset?, declarator: String, depth: Int, budget: inout Int) -> String {
        guard let offset else { return Self.join("void", declarator) }
        guard depth < Self.maximumChainDepth, budget > 0, let position = index(of: offset) else {
            return Self.join("<unknown>", declarator)
        }
        budget -= 1
        let entry = entries[position]
        switch entry.tag {
        case DebugTag.pointerType, DebugTag.referenceType, DebugTag.rvalueReferenceType, DebugTag.pointerToMemberType:
            if language(of: position) == .swift, let name = entry.name {
                return Self.join(name, declarator)
            }
            let symbol: String
            switch entry.tag {
            case DebugTag.referenceType: symbol = "&"
            case DebugTag.rvalueReferenceType: symbol = "&&"
            default: symbol = "*"
            }
            var inner = symbol + declarator
            if let pointee = index(of: entry.type),
                entries[pointee].tag == DebugTag.arrayType || entries[pointee].tag == DebugTag.subroutineType
            {
                inner = "(\(inner))"
            }
            return spell(entry.type, declarator: inner, depth: depth + 1, budget: &budget)
        case DebugTag.constType, DebugTag.volatileType, DebugTag.restrictType, DebugTag.atomicType:
            let qualifier: String
            switch entry.tag {
            case DebugTag.constType: qualifier = "const"
            case DebugTag.volatileType: qualifier = "volatile"
            case DebugTag.restrictType: qualifier = "restrict"
            default: qualifier = "_Atomic"
            }
            if let target = index(of: entry.type), Self.isPointerLike(entries[target].tag) {
                // `char *const`: the qualifier binds to the pointer, right of its star.
                let inner = declarator.isEmpty ? qualifier : "\(qualifier) \(declarator)"
                return spell(entry.type, declarator: inner, depth: depth + 1, budget: &budget)
            }
            return "\(qualifier) " + spell(entry.type, declarator: declarator, depth: depth + 1, budget: &budget)
        case DebugTag.arrayType:
            let bounds = arrayDimensions(of: position).map { count in count.map { "[\($0)]" } ?? "[]" }.joined()
            return spell(entry.type, declarator: declarator + bounds, depth: depth + 1, budget: &budget)
        case DebugTag.subroutineType:
            let parameters = entry.children.compactMap { child -> String? in
                switch entries[child].tag {
                // Depth carries on into parameters: a function type can take itself.
                case DebugTag.formalParameter: return spell(entries[child].type, declarator: "", depth: depth + 1, budget: &budget)
                case DebugTag.unspecifiedParameters: return "..."
                default: return nil
                }
            }
            // `int (void)` in C, `int ()` in C++: both mean "no parameters".
            let none = language(of: position) == .cPlusPlus ? "()" : "(void)"
            let list = parameters.isEmpty ? none : "(\(parameters.joined(separator: ", ")))"
            return spell(entry.type, declarator: declarator + list, depth: depth + 1, budget: &budget)
        default:
            return Self.join(namedSpelling(of: position), declarator)
        }
    }

    /// The spelling of a named (or anonymous) type: base types, typedefs, aggregates, enums.
    private func namedSpelling(of index: Int) -> String {
        let entry = entries[index]
        let language = language(of: index)
        if language == .swift {
            return swiftName(of: index) ?? "<anonymous>"
        }
        switch entry.tag {
        case DebugTag.structureType, DebugTag.classType, DebugTag.unionType, DebugTag.enumerationType:
            let keyword = Self.keyword(for: entry.tag)
            if language == .cPlusPlus {
                return scopedName(of: index) ?? "(anonymous \(keyword))"
            }
            guard let name = entry.name else { return "\(keyword) {...}" }
            return "\(keyword) \(name)"
        case DebugTag.typedef:
            return language == .cPlusPlus ? (scopedName(of: index) ?? "<anonymous>") : (entry.name ?? "<anonymous>")
        case DebugTag.unspecifiedType:
            return entry.name ?? "void"
        case DebugTag.baseType:
            return entry.name.map(Self.canonicalBaseTypeName) ?? "<anonymous>"
        default:
            return entry.name ?? "<anonymous>"
        }
    }

    /// GCC names base types in its own word order (`long unsigned int`, `short int`); clang as
    /// most people write them (`unsigned long`, `short`). One spelling for both, so that a
    /// snapshot does not change when the compiler does.
    static func canonicalBaseTypeName(_ name: String) -> String {
        switch name {
        case "short int": return "short"
        case "short unsigned int": return "unsigned short"
        case "long int": return "long"
        case "long unsigned int": return "unsigned long"
        case "long long int": return "long long"
        case "long long unsigned int": return "unsigned long long"
        case "__int128 unsigned": return "unsigned __int128"
        case "complex float": return "_Complex float"
        case "complex double": return "_Complex double"
        case "complex long double": return "_Complex long double"
        default: return name
        }
    }

    private static func isPointerLike(_ tag: UInt16) -> Bool {
        tag == DebugTag.pointerType || tag == DebugTag.referenceType
            || tag == DebugTag.rvalueReferenceType || tag == DebugTag.pointerToMemberType
    }

    /// `int` + `*` is `int *`; `int` + `[4]` is `int[4]`; `int` + `` is `int`.
    private static func join(_ base: String, _ declarator: String) -> String {
        if declarator.isEmpty { return base }
        if declarator.hasPrefix("[") { return base + declarator }
        return base + " " + declarator
    }
}
