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

    /// Mangling.rst: `x` is depth 0 index 0; `q INDEX` depth 0 index N+1; `qd INDEX INDEX` deeper,
    /// where INDEX is `_` for 0 and `<n-1>_` otherwise.
    static func genericParameterMangling(depth: Int, index: Int) -> String {
        func encode(_ value: Int) -> String { value == 0 ? "_" : "\(value - 1)_" }
        if depth == 0 { return index == 0 ? "x" : "q" + encode(index - 1) }
        return "qd" + encode(depth - 1) + encode(index)
    }
}
