import TypeLayout

/// Spelling a generic type's own parameters into its mangling, and so into its name, as the
/// demangler prints a bound generic type: `M.Outer<A>.Inner<A1>` rather than `M.Outer.Inner`
/// plus a parameter list.
extension SwiftImage {
    /// The generic parameter count a context declares in total (its own and its parents'),
    /// from its generic context header; 0 for a non-generic context.
    func totalGenericParameters(of context: ContextDescriptor) throws(BinaryInfoError) -> Int {
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

    /// The mangling of a generic type with every level's parameters bound to themselves:
    /// `<mangling> y <level 0 params> _ <level 1 params> … G` (`SayxG` for `Swift.Array<A>`,
    /// `1M5OuterV5InnerVyx_qd__G` for `M.Outer<A>.Inner<A1>`), the shape `_mangledTypeName` gives
    /// a bound instance of the type in-process, with parameters in place of arguments.
    ///
    /// Types inside extensions are spelled from their descriptor symbol's mangling, which carries
    /// a constrained extension's generic signature: `(extension in Swift):Swift.EnumeratedSequence<A>
    /// < where A: Swift.Collection>.Index`, as the demangler prints it, so that types of two
    /// extensions with different constraints get different names. Without a symbol, from a mangling
    /// rebuilt without the signature, as the runtime's own manglings spell such types
    /// (`(extension in Swift):Swift.ClosedRange<A>.Index`). The runtime resolves both.
    ///
    /// - Returns: nil when the chain holds a context this spelling does not cover; the caller
    ///   then names the type `Name<A, B>` and leaves its mangling unknown.
    func boundGenericMangling(of descriptor: TypeDescriptor, mangling: String) throws(BinaryInfoError) -> String? {
        // Nominal levels from the outermost to this type; anonymous (private) scopes are not levels,
        // and an extension hands over to the type it extends.
        var levels: [Int] = [try totalGenericParameters(of: descriptor.context)]
        var sawExtension = false
        var sawAnonymous = false
        var current = descriptor.context.parent
        var steps = 0
        while case .address(let address)? = current {
            let context = try chainContext(at: address, steps: &steps)
            switch context.kind {
            case .struct, .class, .enum: levels.append(try totalGenericParameters(of: context))
            case .anonymous: sawAnonymous = true
            case .module: current = nil; continue
            case .extension:
                sawExtension = true
                switch try extendedNominal(of: context) {
                case .descriptor(.address(let extended))?:
                    current = .address(extended)
                case .standard?:
                    // A top-level standard-library type: one level holding the extension's parameters.
                    levels.append(try totalGenericParameters(of: context))
                    current = nil
                default:
                    return nil
                }
                continue
            default: return nil
            }
            current = context.parent
        }
        levels.reverse()
        var arguments: [String] = []
        var previousTotal = 0
        var depth = 0
        for total in levels {
            let own = max(total - previousTotal, 0)
            arguments.append((0..<own).map { Self.genericParameterMangling(depth: depth, index: $0) }.joined())
            if own > 0 { depth += 1 }
            previousTotal = max(total, previousTotal)
        }
        var base = mangling
        if sawExtension, descriptorSymbol(at: descriptor.address) == nil {
            // The descriptor's symbol spells each extension with its generic signature
            // (`s18EnumeratedSequenceVsSlRzrlE5IndexV`), which the demangler prints as the
            // constraint. Without it, the mangling is rebuilt from the descriptors without the
            // signature (the runtime's own spelling); private names then lack their discriminator.
            guard !sawAnonymous, let plain = try plainMangling(ofContextAt: descriptor.address, depth: 0) else { return nil }
            base = plain
        }
        return base + "y" + arguments.joined(separator: "_") + "G"
    }

    /// A context's mangling built from the descriptors alone, with extensions written without
    /// their generic signature (`SNsE5IndexO`); symbols are used only for contexts in other images.
    func plainMangling(ofContextAt address: UInt64, depth: Int) throws(BinaryInfoError) -> String? {
        guard depth < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(path: path, what: "parent context chain", address: address)
        }
        let context = try contextDescriptor(at: address)
        func parentMangling() throws(BinaryInfoError) -> String? {
            switch context.parent {
            case .address(let parent)?: return try plainMangling(ofContextAt: parent, depth: depth + 1)
            case .symbol(let name)?: return Self.mangling(fromDescriptorSymbol: name)
            case nil: return nil
            }
        }
        switch context.kind {
        case .module:
            return try mangling(ofContextAt: address, depth: depth)
        case .extension:
            let extendedMangling: String?
            switch try extendedNominal(of: context) {
            case .descriptor(.address(let nominal))?: extendedMangling = try plainMangling(ofContextAt: nominal, depth: depth + 1)
            case .descriptor(.symbol(let name))?: extendedMangling = Self.mangling(fromDescriptorSymbol: name)
            case .standard(let substitution)?: extendedMangling = substitution
            case nil: extendedMangling = nil
            }
            guard let extendedMangling, let module = try parentMangling() else { return nil }
            return extendedMangling + module + "E"
        case .struct, .class, .enum:
            guard let parent = try parentMangling() else { return nil }
            return try nominalMangling(of: context, in: parent)
        default:
            return nil
        }
    }

    /// What an extension extends, as far as its name needs it.
    enum ExtendedNominal {
        /// A nominal type named by a symbolic reference.
        case descriptor(PointerTarget)
        /// A standard-library type named by its two-letter substitution (`SN` for ClosedRange).
        case standard(String)
    }

    /// The nominal type an extension's extended-context name starts with (a symbolic reference or a
    /// standard substitution), whatever generic arguments or requirements follow it.
    func extendedNominal(of extensionContext: ContextDescriptor) throws(BinaryInfoError) -> ExtendedNominal? {
        guard let name = try space.relativeTarget(at: extensionContext.address &+ 8, what: "extended context") else { return nil }
        let kind = try space.read(UInt8.self, at: name, what: "extended context")
        if kind == UInt8(ascii: "S") {
            let letter = try space.read(UInt8.self, at: name &+ 1, what: "extended context")
            let next = try space.read(UInt8.self, at: name &+ 2, what: "extended context")
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(letter) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter),
                next == 0 || next == UInt8(ascii: "y")
            else { return nil }
            return .standard("S" + String(UnicodeScalar(letter)))
        }
        guard kind == 0x01 || kind == 0x02,
            let target = try space.apply(
                offset: Int64(try space.read(Int32.self, at: name &+ 1, what: "extended context")), to: name &+ 1, what: "extended context")
        else { return nil }
        if kind == 0x01 { return .descriptor(space.externalName(at: target).map(PointerTarget.symbol) ?? .address(target)) }
        return try space.pointer(at: target, what: "extended context").map(ExtendedNominal.descriptor)
    }

    /// Mangling.rst: `x` is depth 0 index 0; `q INDEX` depth 0 index N+1; `qd INDEX INDEX` deeper,
    /// where INDEX is `_` for 0 and `<n-1>_` otherwise.
    static func genericParameterMangling(depth: Int, index: Int) -> String {
        func encode(_ value: Int) -> String { value == 0 ? "_" : "\(value - 1)_" }
        if depth == 0 { return index == 0 ? "x" : "q" + encode(index - 1) }
        return "qd" + encode(depth - 1) + encode(index)
    }
}
