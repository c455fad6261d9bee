import TypeLayout

/// A selective reading: which type descriptors a question about some types needs laid out.
///
/// Naming a type (its context mangling, demangled) is cheap; reading its field records, printing
/// their types and finding its static metadata is most of a reading's cost. So every descriptor
/// is named, the selection is judged on the names, and only the selected types and the types
/// their layouts depend on are laid out. Every fact of a laid-out type is computed as in a whole
/// reading, from the same records, so the selected types come out the same.
extension SwiftImage {
    /// The addresses of the descriptors to lay out: those whose ``namedLayout(for:)`` `selects`
    /// accepts and, transitively, the types they depend on or refer to:
    /// - superclasses (whose fields a class's layout starts with), by mangling and by name;
    /// - field and payload types, by mangling (a field's size comes from its type's metadata) and
    ///   by printed name, an optional's wrapped type too (the related types a selection shows);
    /// - every imported C type that shares a runtime identity with another, when one of them is
    ///   needed (whether their layouts are withheld depends on all of them: ``withholdRuntimeSharedLayouts(_:descriptors:)``).
    ///
    /// A descriptor that cannot be named is left to the whole reading's error handling: it is
    /// laid out (and fails there, with a note) only when a needed type refers to it.
    func descriptorsNeeded(among descriptors: [TypeDescriptor], selects: (TypeLayout) -> Bool) -> Set<UInt64> {
        var byName: [String: [Int]] = [:]
        var byMangling: [String: [Int]] = [:]
        var queue: [Int] = []
        for (position, descriptor) in descriptors.enumerated() {
            guard let named = try? namedLayout(for: descriptor) else { continue }
            byName[named.name, default: []].append(position)
            if let mangling = named.nominalMangledName { byMangling[mangling, default: []].append(position) }
            if selects(named) { queue.append(position) }
        }
        let sharedForeignGroups = runtimeSharedForeignGroups(descriptors)
        var needed = Set(queue)
        while let position = queue.popLast() {
            let descriptor = descriptors[position]
            var dependencies: [Int] = []
            if let group = sharedForeignGroups.byPosition[position] { dependencies += sharedForeignGroups.groups[group] }
            if let superclass = descriptor.superclassMangling?.text { dependencies += byMangling[superclass] ?? [] }
            if let layout = try? typeLayout(for: descriptor, metadata: nil) {
                var names = layout.fields.map(\.type) + layout.cases.compactMap(\.payloadType)
                if let superclass = layout.superclass { names.append(superclass) }
                for name in names.flatMap(Self.withWrappedTypes) { dependencies += byName[name] ?? [] }
                for field in layout.fields {
                    guard let mangling = field.mangledType else { continue }
                    dependencies += byMangling[mangling] ?? []
                }
            }
            for dependency in dependencies where needed.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return Set(needed.map { descriptors[$0].address })
    }

    /// A type name and, for an optional, its wrapped type's, as a selection's related types are found.
    private static func withWrappedTypes(_ name: String) -> [String] {
        if name.hasSuffix("?") { return [name] + withWrappedTypes(String(name.dropLast())) }
        for prefix in ["Swift.Optional<", "Optional<"] where name.hasPrefix(prefix) && name.hasSuffix(">") {
            return [name] + withWrappedTypes(String(name.dropFirst(prefix.count).dropLast()))
        }
        return [name]
    }

    /// The positions of the foreign descriptors that share a runtime identity with another,
    /// grouped by identity (only groups of two or more).
    private func runtimeSharedForeignGroups(_ descriptors: [TypeDescriptor]) -> (groups: [[Int]], byPosition: [Int: Int]) {
        var positionsByIdentity: [String: [Int]] = [:]
        for (position, descriptor) in descriptors.enumerated()
        where descriptor.context.metadataInitialization == Self.foreignMetadataInitialization {
            guard let identity = try? foreignIdentity(of: descriptor) else { continue }
            positionsByIdentity[identity, default: []].append(position)
        }
        var groups: [[Int]] = []
        var byPosition: [Int: Int] = [:]
        for positions in positionsByIdentity.values where positions.count > 1 {
            for position in positions { byPosition[position] = groups.count }
            groups.append(positions)
        }
        return (groups, byPosition)
    }
}
