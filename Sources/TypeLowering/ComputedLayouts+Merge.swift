import TypeLayout

extension ComputedLayouts {
    /// `document` with the computed facts added: a fact the document lacks is taken from the
    /// computed layout; a fact both know and agree on stays; a fact they disagree on becomes
    /// unknown, and a note names both values.
    public func merged(into document: LayoutDocument) -> LayoutDocument {
        var merged = document
        var disagreements: [String] = []
        for index in merged.types.indices {
            guard let mangling = merged.types[index].mangledName, let computed = layouts[mangling] else { continue }
            var type = merged.types[index]
            let typeName = type.name
            func combine(_ fact: inout Int?, _ value: Int?, _ what: String) {
                guard let value else { return }
                guard let existing = fact else { fact = value; return }
                if existing != value {
                    disagreements.append("\(typeName): \(what): static metadata says \(existing), computed layout says \(value)")
                    fact = nil
                }
            }
            combine(&type.size, computed.size, "size")
            combine(&type.alignment, computed.alignment, "alignment")
            combine(&type.stride, computed.stride, "stride")
            combine(&type.instanceSize, computed.instanceSize, "instance size")
            combine(&type.instanceAlignment, computed.instanceAlignment, "instance alignment")
            if type.kind == .class, computed.fields.count > type.fields.count {
                // The computed layout lists inherited fields from other images too: take its list,
                // keeping what the document knew about the fields it had.
                let inherited = computed.fields.count - type.fields.count
                var fields = Array(computed.fields.prefix(inherited))
                fields.append(contentsOf: type.fields)
                type.fields = fields
            }
            let byName = Dictionary(computed.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for field in type.fields.indices {
                guard let other = byName[type.fields[field].name] else { continue }
                let name = type.fields[field].name
                // A zero-sized field has no storage: the runtime's field offset vector says 0,
                // the library its running offset. Neither is a place in memory; keep the static one.
                if other.size != 0 { combine(&type.fields[field].offset, other.offset, "\(name) offset") }
                combine(&type.fields[field].size, other.size, "\(name) size")
                combine(&type.fields[field].alignment, other.alignment, "\(name) alignment")
            }
            merged.types[index] = type
        }
        merged.image.notes += notes
        merged.image.notes += disagreements
        return merged
    }
}
