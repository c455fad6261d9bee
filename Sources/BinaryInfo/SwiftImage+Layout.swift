import TypeLayout

extension SwiftImage {
    /// The part of a type's layout a selection is judged by (name, kind, module, generic
    /// parameters), read without its fields or metadata.
    func namedLayout(for descriptor: TypeDescriptor) throws(BinaryInfoError) -> TypeLayout {
        guard let mangling = try mangling(ofContextAt: descriptor.address, depth: 0) else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "type descriptor", address: descriptor.address, detail: "its context cannot be named")
        }
        let kind: TypeKind
        switch descriptor.kind {
        // An imported CF type: the runtime builds foreign class metadata (kind 0x203), not class metadata.
        case .class where descriptor.context.metadataInitialization == Self.foreignMetadataInitialization: kind = .foreignClass
        case .class: kind = .class
        case .enum: kind = .enum
        default: kind = .struct
        }
        var layout = TypeLayout(name: typeName(forMangling: mangling), mangledName: mangling, kind: kind, source: .metadata)
        layout.nominalMangledName = mangling
        layout.module = try moduleName(of: descriptor.context)

        if descriptor.context.isGeneric {
            let inherited = try inheritedGenericParameters(of: descriptor.context)
            let own = descriptor.genericParameterCount - inherited.count
            let names = Self.genericParameterNames(count: own, depth: inherited.depth)
            layout.genericParameters = names
            // The printed name is the bound mangling's demangling, so the two agree by construction;
            // without one, the mangling is unknown: the unbound nominal (`Sa`) names `Swift.Array`,
            // not `Swift.Array<A>`, and stays a lookup key only (`nominalMangledName`).
            layout.mangledName = nil
            if let bound = try boundGenericMangling(of: descriptor, mangling: mangling),
                let name = SwiftDemangler.demangle(symbol: "$s" + bound + "D")
            {
                layout.name = name  // no sugar: the declaration is Swift.Optional<A>, not A?
                layout.mangledName = bound
            } else if !names.isEmpty {
                layout.name += "<" + names.joined(separator: ", ") + ">"
            }
        }
        return layout
    }

    /// Builds the layout of one struct, class or enum from its descriptor, its field
    /// descriptor and (for non-generic types whose metadata is complete on disk) its static metadata.
    func typeLayout(for descriptor: TypeDescriptor, metadata: UInt64?) throws(BinaryInfoError) -> TypeLayout {
        var layout = try namedLayout(for: descriptor)
        if let superclass = descriptor.superclassMangling {
            layout.superclass = typeName(for: superclass)
            layout.superclassMangledName = checkedMangling(superclass.text, printed: layout.superclass)
        }

        let records =
            try descriptor.fieldDescriptor.map { address throws(BinaryInfoError) in try fieldDescriptor(at: address).records } ?? []
        var staticLayout = StaticLayout()
        if let metadata {
            do {
                staticLayout = try readStaticLayout(metadata: metadata, descriptor: descriptor)
            } catch {
                // The type is still worth listing; only its layout is unknown.
                notes.append(.metadataUnreadable(type: layout.name, address: metadata, problem: error.problem))
            }
        }
        if let witnesses = staticLayout.witnesses {
            layout.size = witnesses.size
            layout.alignment = witnesses.alignment
            layout.stride = witnesses.stride
            // A class's table is its reference's (`$sBoWV`, read from the runtime library on disk).
            layout.extraInhabitants = witnesses.extraInhabitants
        }
        layout.instanceSize = staticLayout.instanceSize
        layout.instanceAlignment = staticLayout.instanceAlignment

        if layout.kind == .enum {
            layout.cases = records.map { record in
                EnumCaseLayout(
                    name: record.name,
                    payloadType: record.hasType ? (record.mangledType.flatMap(typeName(for:)) ?? "<unresolved>") : nil,
                    indirect: record.isIndirectCase
                )
            }
        } else {
            let offsets = staticLayout.fieldOffsets
            layout.fields = records.enumerated().map { index, record in
                var field = fieldLayout(record)
                if let offsets, index < offsets.count { field.offset = offsets[index] }
                return field
            }
        }
        return layout
    }

    /// A stored property: the ownership is the reference-storage suffix of its mangled type
    /// (`Xw` weak, `Xo` unowned, `Xu` unowned(unsafe)), which the displayed type leaves off.
    private func fieldLayout(_ record: FieldRecord) -> FieldLayout {
        guard var mangled = record.mangledType else {
            return FieldLayout(name: record.name, type: "<unresolved>", isVar: record.isVar)
        }
        let full = mangled.text
        var ownership = Ownership.strong
        for (suffix, kind) in [("Xw", Ownership.weak), ("Xo", .unowned), ("Xu", .unownedUnsafe)] where mangled.text.hasSuffix(suffix) {
            ownership = kind
            mangled.removeSuffix(2)
            break
        }
        let printed = typeName(for: mangled)
        // The spelled-out mangling is shown (and used to look sizes up) only when it names the printed type.
        // Spelled-out references shift later back-references: renumbered, checked the same way.
        let exact = checkedMangling(mangled.text, printed: printed) ?? printed.flatMap { renumberedMangling(of: mangled, printed: $0) }
        let suffix = String(full.dropFirst(mangled.text.count))
        // The runtime's lookup by textual name does not return a noncopyable nominal type (only
        // a symbolic reference reaches it), so such a spelling is not shown.
        let shown = mangled.referencesInvertedType ? nil : exact
        var field = FieldLayout(
            name: record.name, type: printed ?? "<unresolved>", mangledType: shown.map { $0 + suffix },
            isVar: record.isVar, ownership: ownership
        )
        if ownership == .strong, let exact {
            let known = runtime?.typeLayout(mangling: exact)
            field.size = known?.size
            field.alignment = known?.alignment
        }
        return field
    }

    /// Puts each class's superclass fields before its own, where the superclass is in this image.
    func prependSuperclassFields(_ layouts: inout [TypeLayout], superclassManglings: [String?], index: [String: Int]) {
        var resolved: [Int: [FieldLayout]] = [:]
        func allFields(_ position: Int, depth: Int) -> [FieldLayout] {
            if let done = resolved[position] { return done }
            guard depth < Self.maximumChainDepth, position < superclassManglings.count else { return layouts[position].fields }
            var fields = layouts[position].fields
            if let superclass = superclassManglings[position], let parent = index[superclass], parent != position {
                fields = allFields(parent, depth: depth + 1) + fields
            }
            resolved[position] = fields
            return fields
        }
        var foreignSuperclasses = 0
        for position in layouts.indices where layouts[position].kind == .class {
            layouts[position].fields = allFields(position, depth: 0)
            if position < superclassManglings.count, let superclass = superclassManglings[position], index[superclass] == nil {
                foreignSuperclasses += 1
            }
        }
        if foreignSuperclasses > 0 {
            notes.append(.foreignSuperclasses(count: foreignSuperclasses))
        }
    }
}
