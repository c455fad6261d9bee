import TypeLayout

/// Size, alignment and stride from a value witness table (`TargetValueWitnessTable`:
/// eight function pointers, then `size`, `stride`, `flags` whose low byte is the alignment mask,
/// then `uint32 extraInhabitantCount`).
struct ValueWitnessLayout: Hashable, Sendable {
    let size: Int
    let alignment: Int
    let stride: Int
    /// The table's extra inhabitant count; nil where none was read (builtin type descriptors,
    /// a table flagged incomplete, which the runtime finishes at load time).
    var extraInhabitants: Int? = nil
}

/// What the static metadata of one non-generic type says about its layout.
struct StaticLayout {
    var witnesses: ValueWitnessLayout?
    var fieldOffsets: [Int]?
    var instanceSize: Int?
    var instanceAlignment: Int?
}

extension SwiftImage {
    /// Metadata kinds of value types: struct, enum, optional.
    static let valueMetadataKinds: Set<UInt64> = Set([MetadataKind.struct, .enum, .optional].map { UInt64($0.rawValue) })

    /// Finds the static metadata record of each given type descriptor.
    ///
    /// Every static metadata record holds an absolute pointer to its descriptor (at +8 for
    /// value types, +40 for classes), which the loader fills from a dynamic relocation. So the
    /// relocations pointing at a descriptor locate its metadata without any symbol, which is what
    /// makes stripped binaries work; each candidate is checked against the metadata layout.
    func staticMetadata(for descriptors: [UInt64: ContextKind]) -> [UInt64: UInt64] {
        var found: [UInt64: UInt64] = [:]
        // Most slots point elsewhere than at a wanted descriptor: a comparison with the wanted
        // descriptors' span turns most away before a lookup.
        let lowest = descriptors.keys.min() ?? 0
        let highest = descriptors.keys.max() ?? 0
        func consider(slot: UInt64, descriptor: UInt64) {
            guard descriptor >= lowest, descriptor <= highest, let kind = descriptors[descriptor], found[descriptor] == nil else { return }
            if kind == .class {
                guard slot >= 40 else { return }
                let metadata = slot - 40
                if isPlausibleClassMetadata(at: metadata) { found[descriptor] = metadata }
            } else {
                guard slot >= 8 else { return }
                let metadata = slot - 8
                if let word = try? space.read(UInt64.self, at: metadata, what: "metadata kind"), Self.valueMetadataKinds.contains(word) {
                    found[descriptor] = metadata
                }
            }
        }
        for (slot, target) in space.slots {
            if case .address(let descriptor) = target { consider(slot: slot, descriptor: descriptor) }
        }
        // Images without dynamic relocations for their own pointers (non-PIE executables, object
        // files) store the pointers as plain words; their `$s…N` metadata symbols say where to look.
        // A shared object or PIE relocates every pointer it holds, so the slots above found all there is.
        if found.count < descriptors.count, file.fileType != ELFFile.typeShared {
            // In address order, as the candidates have always been considered (the first plausible one wins).
            for symbol in file.definedSymbols.sorted(by: { $0.value < $1.value }) {
                guard file.symbol(symbol, in: space.bytes, hasPrefix: "$s", suffix: "N") else { continue }
                for offset: UInt64 in [8, 40] {
                    if case .address(let descriptor)? = try? space.pointer(at: symbol.value &+ offset, what: "metadata descriptor") {
                        consider(slot: symbol.value &+ offset, descriptor: descriptor)
                    }
                }
            }
        }
        return found
    }

    /// Class metadata on Linux (no Objective-C interop): kind, superclass, `uint32 flags`,
    /// `uint32 instanceAddressPoint`, `uint32 instanceSize`, `uint16 instanceAlignMask`,
    /// `uint16 reserved`, `uint32 classSize`, `uint32 classAddressPoint`, description.
    private func isPlausibleClassMetadata(at metadata: UInt64) -> Bool {
        // Swift classes without Objective-C interop have a null isa word, and every class metadata
        // record is preceded by a value witness table pointer (usually the runtime's `$sBoWV`).
        guard let isa = try? space.read(UInt64.self, at: metadata, what: "class metadata kind"), isa == 0,
            let instanceSize = try? space.read(UInt32.self, at: metadata &+ 24, what: "class instance size"), instanceSize >= 16,
            metadata >= 8, let witnesses = try? space.pointer(at: metadata &- 8, what: "value witness table pointer"),
            (try? valueWitnesses(witnesses)) != nil
        else { return false }
        guard let addressPoint = try? space.read(UInt32.self, at: metadata &+ 20, what: "class instance address point"),
            let classSize = try? space.read(UInt32.self, at: metadata &+ 32, what: "class size"),
            let classAddressPoint = try? space.read(UInt32.self, at: metadata &+ 36, what: "class address point"),
            let mask = try? space.read(UInt16.self, at: metadata &+ 28, what: "class alignment mask")
        else { return false }
        return addressPoint == 0 && classAddressPoint <= classSize && classSize >= 56 && (mask & (mask &+ 1)) == 0
    }

    /// Reads what the static metadata at `metadata` says about a type described by `descriptor`.
    func readStaticLayout(metadata: UInt64, descriptor: TypeDescriptor) throws(BinaryInfoError) -> StaticLayout {
        var layout = StaticLayout()
        // No real type has this many stored properties; a larger count is a corrupt descriptor.
        guard descriptor.fieldCount <= 1 << 16 else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "type descriptor", address: descriptor.address, detail: "\(descriptor.fieldCount) fields")
        }
        if let table = try space.pointer(at: metadata &- 8, what: "value witness table pointer") {
            layout.witnesses = try valueWitnesses(table)
        }
        let vectorStart = metadata &+ UInt64(descriptor.fieldOffsetVectorOffset) &* 8
        if descriptor.kind == .class {
            let size = try space.read(UInt32.self, at: metadata &+ 24, what: "class instance size")
            let mask = try space.read(UInt16.self, at: metadata &+ 28, what: "class instance alignment mask")
            layout.instanceSize = Int(size)
            layout.instanceAlignment = Int(mask) + 1
            if descriptor.fieldCount > 0, descriptor.fieldOffsetVectorOffset > 0 {
                layout.fieldOffsets = try (0..<UInt64(descriptor.fieldCount)).map { index throws(BinaryInfoError) in
                    let offset = try space.read(UInt64.self, at: vectorStart &+ index &* 8, what: "class field offset")
                    guard offset <= UInt64(size) else {
                        throw BinaryInfoError.malformedRecord(
                            path: path, what: "class field offset", address: vectorStart &+ index &* 8,
                            detail: "offset \(offset) lies beyond the instance size \(size)")
                    }
                    return Int(offset)
                }
            }
        } else if descriptor.kind == .struct, descriptor.fieldCount > 0, descriptor.fieldOffsetVectorOffset > 0 {
            layout.fieldOffsets = try (0..<UInt64(descriptor.fieldCount)).map { index throws(BinaryInfoError) in
                Int(try space.read(UInt32.self, at: vectorStart &+ index &* 4, what: "struct field offset"))
            }
        } else if descriptor.kind == .struct, descriptor.fieldCount == 0 {
            layout.fieldOffsets = []
        }
        return layout
    }

    /// Reads a value witness table inside this image, or looks up one the image imports
    /// (the runtime's tables for builtin types, such as `$sBi64_WV`) in the Swift runtime library on disk.
    func valueWitnesses(_ target: PointerTarget) throws(BinaryInfoError) -> ValueWitnessLayout? {
        switch target {
        case .address(let table):
            return try Self.valueWitnesses(in: space, at: table)
        case .symbol(let name):
            return runtime?.table(named: name)
        }
    }

    static func valueWitnesses(in space: AddressSpace, at table: UInt64) throws(BinaryInfoError) -> ValueWitnessLayout {
        let size = try space.read(UInt64.self, at: table &+ 64, what: "value witness size")
        let stride = try space.read(UInt64.self, at: table &+ 72, what: "value witness stride")
        let flags = try space.read(UInt32.self, at: table &+ 80, what: "value witness flags")
        let alignment = Int(flags & 0xFF) + 1
        guard size <= UInt64(Int32.max), stride <= UInt64(Int32.max), stride >= size || stride == 1,
            alignment & (alignment - 1) == 0, stride % UInt64(alignment) == 0 || stride == 1
        else {
            throw BinaryInfoError.malformedRecord(
                path: space.path, what: "value witness table", address: table,
                detail: "size \(size) and stride \(stride) are not a real layout")
        }
        let extraInhabitants = try space.read(UInt32.self, at: table &+ 84, what: "value witness extra inhabitant count")
        // `ValueWitnessFlags::Incomplete`: the runtime completes this table at load time.
        let isIncomplete = flags & 0x0040_0000 != 0
        return ValueWitnessLayout(
            size: Int(size), alignment: alignment, stride: Int(stride), extraInhabitants: isIncomplete ? nil : Int(extraInhabitants))
    }
}
