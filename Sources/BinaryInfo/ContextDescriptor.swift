import TypeLayout

/// The kinds of context descriptor: the ABI vocabulary shared with TypeInfo.
typealias ContextKind = ContextDescriptorKind

/// The fixed head of every context descriptor: flags and the parent reference.
///
/// Layout (Metadata.h, `TargetContextDescriptor`): `uint32 flags`, `int32 parent` (relative,
/// indirectable: bit 0 set means the target is a pointer slot holding the parent's address).
struct ContextDescriptor {
    let address: UInt64
    let flags: UInt32
    let parent: PointerTarget?

    var rawKind: UInt8 { ContextDescriptorKind.rawKind(ofFlags: flags) }
    var kind: ContextKind? { ContextKind(flags: flags) }
    var isGeneric: Bool { flags & ContextDescriptorKind.isGenericFlag != 0 }
    /// The type is declared `~Copyable` or `~Escapable` (perhaps conditionally).
    var suppressesInvertibleProtocols: Bool { flags & ContextDescriptorKind.hasInvertibleProtocolsFlag != 0 }
    /// The top 16 bits: meaning depends on the kind.
    var kindSpecificFlags: UInt16 { UInt16(flags >> 16) }
    var isTypeContext: Bool { kind?.isTypeContext == true }

    /// For struct, class and enum descriptors: how the runtime must initialise the metadata
    /// (0 none: the static metadata is complete; 1 singleton; 2 foreign).
    var metadataInitialization: UInt16 { kindSpecificFlags & 0x3 }
}

extension SwiftImage {
    /// Reads the head of the context descriptor at `address`.
    func contextDescriptor(at address: UInt64) throws(BinaryInfoError) -> ContextDescriptor {
        let flags = try space.read(UInt32.self, at: address, what: "context descriptor flags")
        let parent = try relativeIndirectable(at: address &+ 4, what: "context descriptor parent")
        return ContextDescriptor(address: address, flags: flags, parent: parent)
    }

    /// Resolves a relative indirectable pointer (`RelativeIndirectablePointer`): bit 0 of the
    /// offset says whether the target is the referenced thing or a slot holding its address.
    func relativeIndirectable(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> PointerTarget? {
        let raw = try space.read(Int32.self, at: address, what: what())
        let isIndirect = raw & 1 != 0
        guard let target = try space.apply(offset: Int64(raw & ~1), to: address, what: what()) else { return nil }
        if isIndirect {
            return try space.pointer(at: target, what: what())
        }
        if let name = space.externalName(at: target) { return .symbol(name) }
        return .address(target)
    }

    /// Reads a relative direct pointer to a NUL-terminated string (a name in `swift5_reflstr`
    /// or in the descriptor's own section).
    func relativeString(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> String? {
        guard let target = try space.relativeTarget(at: address, what: what()) else { return nil }
        return try space.cString(at: target, what: what())
    }

    /// The textual mangling of the context a descriptor reference names, usable wherever a
    /// symbolic reference appeared inside a mangled name.
    ///
    /// - Returns: nil when the context cannot be spelled (an opaque type, a foreign reference).
    func mangling(of target: PointerTarget, depth: Int = 0) throws(BinaryInfoError) -> String? {
        switch target {
        case .symbol(let name):
            return Self.mangling(fromDescriptorSymbol: name)
        case .address(let address):
            return try mangling(ofContextAt: address, depth: depth)
        }
    }

    /// Strips the `$s` prefix and the descriptor suffix (`Mn` nominal type, `Mp` protocol,
    /// `MXM` module) off a symbol name, leaving the entity's mangling.
    static func mangling(fromDescriptorSymbol name: String) -> String? {
        guard name.hasPrefix("$s") else { return nil }
        for suffix in ["Mn", "Mp", "MXM"] where name.hasSuffix(suffix) {
            return String(name.dropFirst(2).dropLast(suffix.count))
        }
        return nil
    }

    func mangling(ofContextAt address: UInt64, depth: Int) throws(BinaryInfoError) -> String? {
        if let known = contextManglings[address] { return known }
        if let symbol = descriptorSymbol(at: address), let mangling = Self.mangling(fromDescriptorSymbol: symbol) {
            contextManglings[address] = mangling
            return mangling
        }
        guard depth < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(path: path, what: "parent context chain", address: address)
        }
        let descriptor = try contextDescriptor(at: address)
        var result: String?
        switch descriptor.kind {
        case .module:
            if let name = try relativeString(at: address &+ 8, what: "module name") {
                switch name {
                case "Swift": result = "s"
                case "__C": result = "So"
                case "__C_Synthesized": result = "SC"
                default: result = Self.identifier(name)
                }
            }
        case .extension:
            // The extended type's mangling, then the extending module, then `E`.
            if let extended = try mangledName(at: address &+ 8, what: "extended context", depth: depth + 1),
                let parent = descriptor.parent,
                let module = try mangling(of: parent, depth: depth + 1)
            {
                result = extended + module + "E"
            }
        case .anonymous:
            // Anonymous contexts (private and function-local scopes) carry no name we can spell
            // without symbols: nested types are named as if declared in the enclosing context.
            if let parent = descriptor.parent {
                result = try mangling(of: parent, depth: depth + 1)
            }
        case .protocol:
            if let parent = descriptor.parent,
                let parentMangling = try mangling(of: parent, depth: depth + 1),
                let name = try relativeString(at: address &+ 8, what: "protocol name")
            {
                result = parentMangling + Self.identifier(name)
            }
        case .struct, .class, .enum:
            if let parent = descriptor.parent, let parentMangling = try mangling(of: parent, depth: depth + 1) {
                result = try nominalMangling(of: descriptor, in: parentMangling)
            }
        case .opaqueType, nil:
            result = nil
        }
        if let result { contextManglings[address] = result }
        return result
    }

    /// A struct, class or enum descriptor's mangling inside its parent's: identifier, then the
    /// kind operator. Both context-mangling builders (``mangling(ofContextAt:depth:)`` and
    /// ``plainMangling(ofContextAt:depth:)``) spell nominal types here.
    func nominalMangling(of descriptor: ContextDescriptor, in parentMangling: String) throws(BinaryInfoError) -> String? {
        guard let nameAddress = try space.relativeTarget(at: descriptor.address &+ 8, what: "type name pointer") else { return nil }
        let name = try space.cString(at: nameAddress, what: "type name")
        var suffix = descriptor.kind == .struct ? "V" : descriptor.kind == .class ? "C" : "O"
        // Imported C types (TypeContextDescriptorFlags bit 2) follow their name with
        // NUL-terminated import info; symbol namespace "St" marks a typedef, mangled `a`.
        if descriptor.kindSpecificFlags & 0x4 != 0,
            try importInfo(after: nameAddress, nameLength: name.utf8.count).contains("St")
        {
            suffix = "a"
        }
        return parentMangling + Self.identifier(name) + suffix
    }

    /// The import info strings after an imported type's name, up to the empty string that ends them.
    func importInfo(after nameAddress: UInt64, nameLength: Int) throws(BinaryInfoError) -> [String] {
        var strings: [String] = []
        var cursor = nameAddress &+ UInt64(nameLength) &+ 1
        while strings.count < 8 {
            let text = try space.cString(at: cursor, what: "import info")
            if text.isEmpty { break }
            strings.append(text)
            cursor &+= UInt64(text.utf8.count) &+ 1
        }
        return strings
    }

    /// A mangled identifier: the length in decimal, then the name (ASCII names only; others
    /// would need Punycode, which the reader leaves to the symbol table).
    static func identifier(_ name: String) -> String {
        "\(name.utf8.count)\(name)"
    }
}
