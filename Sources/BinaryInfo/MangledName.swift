import TypeLayout

/// Reading mangled names out of the image, replacing the symbolic references inside them
/// (Mangling.rst, "Symbolic references") by the textual mangling of what they point at,
/// so that the runtime's demangler can read every name.
extension SwiftImage {
    /// Follows the relative direct pointer at `address` to a mangled name and resolves it.
    ///
    /// - Returns: nil for a null pointer or a name holding a reference that cannot be spelled.
    func mangledName(at address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws -> String? {
        guard let target = try space.relativeTarget(at: address, what: what()) else { return nil }
        return try resolveMangledName(startingAt: target, what: what(), depth: depth)
    }

    /// Resolves the mangled name that starts at `address`.
    ///
    /// Bytes 0x01...0x17 introduce a 4-byte relative reference, 0x18...0x1F an 8-byte absolute one;
    /// the ones that name context descriptors (0x01 direct, 0x02 indirect) are replaced by the
    /// descriptor's mangling. Others (accessor functions, existential shapes) make the name unspellable.
    func resolveMangledName(startingAt address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws -> String? {
        guard depth < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(what: what(), address: address)
        }
        var output: [UInt8] = []
        var cursor = address
        var spellable = true
        while true {
            guard output.count < maximumStringLength, cursor &- address < UInt64(maximumStringLength) else {
                throw BinaryInfoError.malformedRecord(what: what(), address: address, detail: "mangled name has no terminator within \(maximumStringLength) bytes")
            }
            let byte = try space.read(UInt8.self, at: cursor, what: what())
            switch byte {
            case 0:
                return spellable ? String(decoding: output, as: UTF8.self) : nil
            case 0x01, 0x02:
                let referenceAddress = cursor &+ 1
                let offset = try space.read(Int32.self, at: referenceAddress, what: what())
                guard let target = try AddressSpace.apply(offset: Int64(offset), to: referenceAddress, what: what()) else {
                    throw BinaryInfoError.malformedRecord(what: what(), address: cursor, detail: "null symbolic reference")
                }
                let context: PointerTarget?
                if byte == 0x01 {
                    context = space.externalName(at: target).map(PointerTarget.symbol) ?? .address(target)
                } else {
                    context = try space.pointer(at: target, what: "indirect symbolic reference in \(what())")
                }
                if let context, let text = try mangling(of: context, depth: depth + 1) {
                    output.append(contentsOf: text.utf8)
                } else {
                    spellable = false
                }
                cursor &+= 5
            case 0x03...0x17:
                spellable = false
                cursor &+= 5
            case 0x18...0x1F:
                spellable = false
                cursor &+= 9
            default:
                output.append(byte)
                cursor &+= 1
            }
        }
    }
}
