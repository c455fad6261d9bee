/// Spelling a generic type's own parameters into its name, as the demangler prints a bound
/// generic type: `M.Outer<A>.Inner<A1>` rather than `M.Outer.Inner` plus a parameter list.
extension SwiftImage {
    /// The generic parameter count a context declares in total (its own and its parents'),
    /// from its generic context header; 0 for a non-generic context.
    func totalGenericParameters(of context: ContextDescriptor) throws -> Int {
        guard context.isGeneric else { return 0 }
        let offset: UInt64
        switch context.kind {
        case .struct, .enum: offset = 36
        case .class: offset = 52
        case .extension: offset = 12
        default: return 0
        }
        return Int(try space.read(UInt16.self, at: context.address &+ offset, what: "generic parameter count"))
    }

    /// The name of a generic type with every level's parameters bound to themselves, demangled by
    /// the runtime from `<mangling> y <level 0 params> _ <level 1 params> … G`.
    ///
    /// - Returns: nil when the chain holds a context this spelling does not cover (an extension),
    ///   or the demangler refuses it; the caller falls back to `Name<A, B>`.
    func boundGenericName(of descriptor: TypeDescriptor, mangling: String) throws -> String? {
        // Nominal levels from the outermost to this type; anonymous (private) scopes are not levels.
        var levels: [ContextDescriptor] = [descriptor.context]
        var current = descriptor.context.parent
        while case .address(let address)? = current {
            guard levels.count < Self.maximumChainDepth else {
                throw BinaryInfoError.referenceCycle(what: "parent context chain", address: address)
            }
            let context = try contextDescriptor(at: address)
            switch context.kind {
            case .struct, .class, .enum: levels.append(context)
            case .anonymous: break
            case .module: current = nil; continue
            case .extension:
                // An unconstrained extension adds no level: continue from the type it extends.
                guard let extended = try extendedTypeDescriptor(of: context) else { return nil }
                current = .address(extended)
                continue
            default: return nil
            }
            current = context.parent
        }
        levels.reverse()
        var arguments: [String] = []
        var previousTotal = 0
        var depth = 0
        for level in levels {
            let total = try totalGenericParameters(of: level)
            let own = max(total - previousTotal, 0)
            arguments.append((0..<own).map { Self.genericParameterMangling(depth: depth, index: $0) }.joined())
            if own > 0 { depth += 1 }
            previousTotal = max(total, previousTotal)
        }
        return Demangler.demangle(symbol: "$s" + mangling + "y" + arguments.joined(separator: "_") + "GD")
    }

    /// The nominal type an extension extends, when the extension adds no requirements and names
    /// the type by a plain symbolic reference (`0x01`/`0x02` + offset, then the terminator).
    func extendedTypeDescriptor(of extensionContext: ContextDescriptor) throws -> UInt64? {
        if extensionContext.isGeneric {
            let requirements = try space.read(UInt16.self, at: extensionContext.address &+ 14, what: "extension requirement count")
            guard requirements == 0 else { return nil }
        }
        guard let name = try space.relativeTarget(at: extensionContext.address &+ 8, what: "extended context") else { return nil }
        let kind = try space.read(UInt8.self, at: name, what: "extended context")
        guard kind == 0x01 || kind == 0x02,
              try space.read(UInt8.self, at: name &+ 5, what: "extended context") == 0,
              let target = try AddressSpace.apply(offset: Int64(try space.read(Int32.self, at: name &+ 1, what: "extended context")), to: name &+ 1, what: "extended context")
        else { return nil }
        if kind == 0x01 { return space.externalName(at: target) == nil ? target : nil }
        guard case .address(let address)? = try space.pointer(at: target, what: "extended context") else { return nil }
        return address
    }

    /// Mangling.rst: `x` is depth 0 index 0; `q INDEX` depth 0 index N+1; `qd INDEX INDEX` deeper,
    /// where INDEX is `_` for 0 and `<n-1>_` otherwise.
    static func genericParameterMangling(depth: Int, index: Int) -> String {
        func encode(_ value: Int) -> String { value == 0 ? "_" : "\(value - 1)_" }
        if depth == 0 { return index == 0 ? "x" : "q" + encode(index - 1) }
        return "qd" + encode(depth - 1) + encode(index)
    }
}
