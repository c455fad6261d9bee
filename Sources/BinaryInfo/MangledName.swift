import TypeLayout

/// The nesting of a nominal type that is the base of a bound generic name.
struct NominalLevels: Hashable {
    /// Nominal types from the module down to this one (`Outer.Inner`: 2).
    var count: Int
    /// Whether a level between the outermost and this one declares generic parameters of its own
    /// (its argument list in the name is then not empty).
    var middleLevelsHaveParameters: Bool
}

/// A mangled name read from the image with its symbolic references resolved.
///
/// The demangler (Demangler.cpp, `demangleSymbolicReference`) adds a resolved context reference
/// to its substitution table as exactly one entry and adds no word to its word table. Spelling
/// the reference out (`7Fixture4TreeO`) adds an entry per identifier and one per word, so every
/// later back-reference (`AA`, `AB`, `0B3Low`) would land on another entity. So the name is
/// demangled from a form in which each reference is replaced by a placeholder with the same
/// cost (see ``SymbolicPlaceholder``), and each placeholder's printed form is then replaced by
/// the referenced entity's own name. The spelled-out ``text`` is kept for lookups, and is shown
/// as a mangling only when it demangles to the same name (``SwiftImage/checkedMangling(_:printed:)``).
struct MangledName: Hashable {
    /// The textual mangling, every reference spelled out (exact only without back-references past one).
    var text: String
    /// The name in pieces: mangling bytes and the references between them.
    var pieces: [Piece]
    /// A symbolic reference names a noncopyable type, which the runtime's lookup by textual
    /// name does not resolve (``SwiftImage/refusesLookupByName(_:)``): ``text`` is no usable mangling.
    var referencesInvertedType = false

    enum Piece: Hashable {
        case literal(String)
        /// A nominal type used as a whole type (or as the context of a spelled-out name):
        /// its spelled mangling, which ends with the kind operator (`V`, `C`, `O`, `a`).
        case type(String)
        /// A nominal type that is the base of a bound generic type (`<ref> y … G`): its spelled
        /// mangling and its nominal levels (nil when unknown: another image's type).
        case genericBase(String, levels: NominalLevels?)
        /// A protocol: its spelled context mangling (without `P`).
        case `protocol`(String)
    }

    /// True when the name holds no symbolic reference: the text is the original mangling.
    var isPlain: Bool { pieces.allSatisfy { if case .literal = $0 { true } else { false } } }

    /// Drops the last `count` characters (a reference-storage suffix such as `Xw`).
    mutating func removeSuffix(_ count: Int) {
        text.removeLast(count)
        if case .literal(var last)? = pieces.last, last.count >= count {
            last.removeLast(count)
            pieces[pieces.count - 1] = .literal(last)
        }
    }
}

extension SwiftImage {
    /// Follows the relative direct pointer at `address` to a mangled name and resolves it.
    ///
    /// - Returns: nil for a null pointer or a name holding a reference that cannot be spelled.
    func mangledName(at address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws(BinaryInfoError) -> String? {
        try resolvedMangledName(at: address, what: what(), depth: depth)?.text
    }

    /// Like ``mangledName(at:what:depth:)``, keeping the references for demangling.
    func resolvedMangledName(at address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws(BinaryInfoError) -> MangledName? {
        guard let target = try space.relativeTarget(at: address, what: what()) else { return nil }
        return try resolveMangledName(startingAt: target, what: what(), depth: depth)
    }

    /// Resolves the mangled name that starts at `address`.
    ///
    /// Bytes 0x01...0x17 introduce a 4-byte relative reference, 0x18...0x1F an 8-byte absolute one;
    /// the ones that name context descriptors (0x01 direct, 0x02 indirect) are resolved to the
    /// descriptor's mangling. Others (accessor functions, existential shapes, opaque types) make
    /// the name unspellable.
    func resolveMangledName(startingAt address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws(BinaryInfoError)
        -> MangledName?
    {
        guard depth < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(path: path, what: what(), address: address)
        }
        var text: [UInt8] = []
        var literal: [UInt8] = []
        var pieces: [MangledName.Piece] = []
        var cursor = address
        var spellable = true
        var referencesInvertedType = false
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal.removeAll()
        }
        while true {
            guard text.count < maximumStringLength, cursor &- address < UInt64(maximumStringLength) else {
                throw BinaryInfoError.malformedRecord(
                    path: path, what: what(), address: address, detail: "mangled name has no terminator within \(maximumStringLength) bytes"
                )
            }
            let byte = try space.read(UInt8.self, at: cursor, what: what())
            switch byte {
            case 0:
                guard spellable else { return nil }
                flush()
                var name = MangledName(text: String(decoding: text, as: UTF8.self), pieces: pieces)
                name.referencesInvertedType = referencesInvertedType
                // Protocols' field descriptors name them as symbols (`$ss14_ArrayProtocolP`).
                if name.text.hasPrefix("$s"), case .literal(let first)? = name.pieces.first, first.hasPrefix("$s") {
                    name.text.removeFirst(2)
                    name.pieces[0] = .literal(String(first.dropFirst(2)))
                }
                return name
            case 0x01, 0x02:
                let referenceAddress = cursor &+ 1
                let offset = try space.read(Int32.self, at: referenceAddress, what: what())
                guard let target = try space.apply(offset: Int64(offset), to: referenceAddress, what: what()) else {
                    throw BinaryInfoError.malformedRecord(path: path, what: what(), address: cursor, detail: "null symbolic reference")
                }
                let context: PointerTarget?
                if byte == 0x01 {
                    context = space.externalName(at: target).map(PointerTarget.symbol) ?? .address(target)
                } else {
                    context = try space.pointer(at: target, what: "indirect symbolic reference in \(what())")
                }
                cursor &+= 5
                guard let context, let spelled = try mangling(of: context, depth: depth + 1) else {
                    spellable = false
                    continue
                }
                if case .address(let address) = context, try refusesLookupByName(try contextDescriptor(at: address)) {
                    referencesInvertedType = true
                }
                text.append(contentsOf: spelled.utf8)
                flush()
                if try referencesProtocol(context) {
                    pieces.append(.protocol(spelled))
                } else if try space.read(UInt8.self, at: cursor, what: what()) == UInt8(ascii: "y") {
                    pieces.append(.genericBase(spelled, levels: try nominalLevels(of: context)))
                } else {
                    pieces.append(.type(spelled))
                }
            case 0x03...0x17:
                spellable = false
                cursor &+= 5
            case 0x18...0x1F:
                spellable = false
                cursor &+= 9
            default:
                text.append(byte)
                literal.append(byte)
                cursor &+= 1
            }
        }
    }

    /// The context at `address` in a walk up a parent chain, counting `steps`: a chain deeper
    /// than any real program (a loop in a malformed file) is an error.
    func chainContext(at address: UInt64, steps: inout Int) throws(BinaryInfoError) -> ContextDescriptor {
        steps += 1
        guard steps < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(path: path, what: "parent context chain", address: address)
        }
        return try contextDescriptor(at: address)
    }

    /// The nominal types in the chain from a type up to its module, counting through extensions
    /// (to the type they extend) and over anonymous scopes: the generic argument lists a bound
    /// generic name of the type carries. Nil for another image's type or a context that is neither.
    func nominalLevels(of context: PointerTarget) throws(BinaryInfoError) -> NominalLevels? {
        guard case .address(let address) = context else { return nil }
        // Total generic parameters per level, innermost first.
        var totals: [Int] = []
        var current: PointerTarget? = .address(address)
        var steps = 0
        while case .address(let next)? = current {
            let descriptor = try chainContext(at: next, steps: &steps)
            switch descriptor.kind {
            case .struct?, .class?, .enum?:
                totals.append(try totalGenericParameters(of: descriptor))
                current = descriptor.parent
            case .anonymous?:
                current = descriptor.parent
            case .extension?:
                switch try extendedNominal(of: descriptor) {
                case .descriptor(let extended)?:
                    current = extended
                case .standard?:
                    // A top-level standard-library type; only its own count is unknown here.
                    totals.append(try totalGenericParameters(of: descriptor))
                    current = nil
                case nil:
                    return nil
                }
            case .module?:
                current = nil
            default:
                return nil
            }
        }
        // A parent in another image ends the walk early: the depth is unknown.
        guard current == nil, !totals.isEmpty else { return nil }
        let own = totals.indices.map { totals[$0] - (($0 + 1 < totals.count) ? totals[$0 + 1] : 0) }
        return NominalLevels(count: totals.count, middleLevelsHaveParameters: own.dropFirst().dropLast().contains { $0 != 0 })
    }

    private func referencesProtocol(_ context: PointerTarget) throws(BinaryInfoError) -> Bool {
        switch context {
        case .symbol(let name):
            return name.hasSuffix("Mp")
        case .address(let address):
            return try contextDescriptor(at: address).kind == .protocol
        }
    }

    /// Demangles a resolved name into the type as users write it (memoised).
    ///
    /// - Returns: nil when the name cannot be printed exactly (see ``SymbolicPlaceholder``).
    func typeName(for name: MangledName) -> String? {
        if name.isPlain {
            return demangledTypeName(name.text)
        }
        if let known = resolvedNames[name.pieces] { return known }
        let printed = SymbolicPlaceholder.print(
            name,
            typeName: { SwiftDemangler.demangle(symbol: "$s" + $0 + "D") },
            protocolName: { protocolName(forMangling: $0) }
        )
        resolvedNames[name.pieces] = .some(printed)
        return printed
    }

    /// `text` when it demangles to exactly `printed`, else nil: a mangling is shown only when true.
    func checkedMangling(_ text: String, printed: String?) -> String? {
        guard let printed, demangledTypeName(text) == printed else { return nil }
        return text
    }
}
