import TypeLayout

extension ComputedLayouts {
    /// `document` with the computed facts added: a fact the document lacks is taken from the
    /// computed layout; a fact both know and agree on stays; a fact they disagree on becomes
    /// unknown, and a note names both values (extra inhabitants too, which static metadata
    /// states in its value witness table).
    public func merged(into document: LayoutDocument) -> LayoutDocument {
        defer { LoweringTrace.mark("typeinfo", "merge-done") }
        var merged = document
        var disagreements: [LayoutNote] = []
        for index in merged.types.indices {
            guard let mangling = merged.types[index].nominalMangledName, let computed = layouts[mangling] else { continue }
            var type = merged.types[index]
            let typeName = type.name
            let known = type.source ?? .metadata
            /// Combines one fact and records which sources state it.
            func combine<Fact: Hashable>(
                _ fact: inout Int?, _ value: Int?, _ what: LayoutFactName, _ sources: inout [Fact: [LayoutSource]], _ key: Fact
            ) {
                guard let value else {
                    if fact != nil { sources[key] = [known] }
                    return
                }
                guard let existing = fact else {
                    fact = value
                    sources[key] = [.computed]
                    return
                }
                if existing == value {
                    sources[key] = [known, .computed]
                } else {
                    disagreements.append(
                        .metadataDisagreesWithComputed(type: typeName, fact: what, metadata: existing, computed: value))
                    fact = nil
                    sources[key] = nil
                }
            }
            var typeSources = type.factSources
            let disagreedBefore = disagreements.count
            combine(&type.size, computed.size, .type(.size), &typeSources, .size)
            combine(&type.alignment, computed.alignment, .type(.alignment), &typeSources, .alignment)
            combine(&type.stride, computed.stride, .type(.stride), &typeSources, .stride)
            combine(&type.instanceSize, computed.instanceSize, .type(.instanceSize), &typeSources, .instanceSize)
            combine(&type.instanceAlignment, computed.instanceAlignment, .type(.instanceAlignment), &typeSources, .instanceAlignment)
            // Facts only the computed layout states (static metadata and DWARF do not), kept only
            // when the sources agree on the type's size and alignment.
            let trusted = disagreements.count == disagreedBefore
            if type.extraInhabitants != nil {
                // The static value witness table states them too: compared like the facts above.
                combine(
                    &type.extraInhabitants, trusted ? computed.extraInhabitants : nil, .type(.extraInhabitants), &typeSources,
                    .extraInhabitants)
            } else if trusted, let extraInhabitants = computed.extraInhabitants {
                type.extraInhabitants = extraInhabitants
                typeSources[.extraInhabitants] = [.computed]
            }
            if trusted, computed.enumStrategy != nil {
                type.enumStrategy = computed.enumStrategy
                type.enumTagBytes = computed.enumTagBytes
                type.enumTagSpareBits = computed.enumTagSpareBits
                if computed.enumTagBytes != nil { typeSources[.enumTagBytes] = [.computed] }
                if computed.enumTagSpareBits != nil { typeSources[.enumTagSpareBits] = [.computed] }
                let payloads = EnumCaseKey.index(names: computed.cases.map(\.name), values: computed.cases.map(\.payloadSize))
                for (index, key) in zip(type.cases.indices, EnumCaseKey.keys(type.cases.map(\.name))) {
                    type.cases[index].payloadSize = payloads[key] ?? nil
                }
            }
            type.factSources = typeSources
            var inherited = 0
            if type.kind == .class, computed.fields.count > type.fields.count {
                // The computed layout lists inherited fields from other images too: they come first,
                // stated by the computed layout alone; the document's own fields follow.
                inherited = computed.fields.count - type.fields.count
                var fields = computed.fields.prefix(inherited).map { field in
                    var stated = field
                    if stated.hasBuiltinVectorType { stated.alignment = nil }
                    for (key, value) in [(FieldFact.offset, stated.offset), (.size, stated.size), (.alignment, stated.alignment)]
                    where value != nil {
                        stated.factSources[key] = [.computed]
                    }
                    return stated
                }
                fields.append(contentsOf: type.fields)
                type.fields = fields
            }
            let byName = Dictionary(computed.fields.dropFirst(inherited).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for field in type.fields.indices.dropFirst(inherited) {
                guard let other = byName[type.fields[field].name] else { continue }
                let name = type.fields[field].name
                var fieldSources = type.fields[field].factSources
                // A zero-sized field has no storage: the runtime's field offset vector says 0,
                // the library its running offset. Neither is a place in memory; keep the static one.
                if other.size != 0 {
                    combine(&type.fields[field].offset, other.offset, .field(name, .offset), &fieldSources, .offset)
                } else if type.fields[field].offset != nil {
                    fieldSources[.offset] = [known]
                }
                combine(&type.fields[field].size, other.size, .field(name, .size), &fieldSources, .size)
                combine(&type.fields[field].alignment, other.alignment, .field(name, .alignment), &fieldSources, .alignment)
                if type.fields[field].hasBuiltinVectorType {
                    // The library states the compiler's alignment (the element's), the runtime
                    // the vector's: two values, so unknown (FieldLayout.hasBuiltinVectorType).
                    type.fields[field].alignment = nil
                    fieldSources[.alignment] = nil
                }
                type.fields[field].factSources = fieldSources
            }
            merged.types[index] = type
        }
        // BinaryInfo's note about superclasses in other images said their fields are not listed;
        // say it again only for the classes whose inherited fields are still missing.
        let byMangling = Set(merged.types.compactMap(\.nominalMangledName))
        let foreignParents = merged.types.filter { type in
            guard type.kind == .class, type.superclass != nil else { return false }
            // A superclass without a spelled mangling (a generic one bound to a private type) is
            // found in no image either.
            return type.superclassMangledName.map { !byMangling.contains($0) } ?? true
        }
        let unlisted = foreignParents.filter { type in
            guard let mangling = type.nominalMangledName, let computed = layouts[mangling] else { return true }
            return computed.instanceSize == nil
        }
        if !foreignParents.isEmpty {
            merged.image.notes.removeAll { note in
                if case .foreignSuperclasses = note { return true }
                return false
            }
            if !unlisted.isEmpty { merged.image.notes.append(.unlaidForeignSuperclasses(count: unlisted.count)) }
        }
        // Likewise BinaryInfo's note that load-time-initialised types have unknown sizes: after the
        // merge, count the non-generic types whose size is still unknown instead.
        let isLoadTimeNote = { (note: LayoutNote) -> Bool in
            if case .loadTimeMetadata = note { return true }
            return false
        }
        if !layouts.isEmpty, merged.image.notes.contains(where: isLoadTimeNote) {
            merged.image.notes.removeAll(where: isLoadTimeNote)
            let stillUnknown = merged.types.filter { type in
                !type.isGenericOrInGenericContext && [.struct, .enum].contains(type.kind) && type.size == nil
            }
            if !stillUnknown.isEmpty {
                merged.image.notes.append(.sizesStillUnknown(count: stillUnknown.count))
            }
        }
        merged.image.notes += notes
        merged.image.notes += disagreements
        return merged
    }
}
