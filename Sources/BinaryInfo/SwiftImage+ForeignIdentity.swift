import TypeLayout

/// Imported C types that the Swift runtime treats as one type.
///
/// The runtime uniques foreign metadata (imported C structs, unions and enums) by the type's
/// identity: its name and import info (TypeIdentity.h), not its parent. The importer names a
/// C anonymous member type after its field (`__Unnamed_union_data`), so every C struct with an
/// anonymous union named `data` yields a type of the same identity; at run time they all get
/// the metadata registered first, and which one that is depends on what the program touches
/// first. Their static metadata records are each right about the C type, but what the runtime
/// (and every generic or reflecting use) sees is one of them: unknowable from the file.
struct RuntimeSharedForeignTypes {
    /// The identity the types share (their name, plus any import info).
    let identity: String
    /// The manglings of the types, in the image's order.
    let manglings: [String]
}

extension SwiftImage {
    /// `TypeContextDescriptorFlags` (MetadataValues.h): bit 2 of the kind-specific flags says
    /// that the name is followed by import info strings.
    static let hasImportInfoFlag: UInt16 = 1 << 2
    /// `MetadataInitializationKind::ForeignMetadataInitialization`.
    static let foreignMetadataInitialization: UInt16 = 2
    /// Import info has at most three components (ABI name, symbol namespace, related entity).
    static let maximumImportInfoComponents = 3

    /// The runtime identity of a foreign type descriptor: the ABI name (the name, unless import
    /// info gives another) with the symbol namespace and related entity name, as the runtime's
    /// `ParsedTypeIdentity` compares them.
    func foreignIdentity(of descriptor: TypeDescriptor) throws(BinaryInfoError) -> String {
        guard let nameAddress = try space.relativeTarget(at: descriptor.address &+ 8, what: "type name") else { return "" }
        let name = try space.cString(at: nameAddress, what: "type name")
        guard descriptor.context.kindSpecificFlags & Self.hasImportInfoFlag != 0 else { return name }
        var components: [Character: String] = [:]
        var cursor = nameAddress &+ UInt64(name.utf8.count) &+ 1
        for _ in 0..<Self.maximumImportInfoComponents {
            let component = try space.cString(at: cursor, what: "type import info")
            guard let tag = component.first else { break }
            components[tag] = String(component.dropFirst())
            cursor &+= UInt64(component.utf8.count) &+ 1
        }
        return [components["N"] ?? name, components["S"] ?? "", components["R"] ?? ""].joined(separator: "\0")
    }

    /// Finds the foreign types of `descriptors` (laid out as `layouts`, position for position)
    /// that share a runtime identity with a type of a different (or unknown) layout, and
    /// withholds every fact that depends on which one the runtime picks: their size, alignment
    /// and stride, their fields' offsets and sizes, and the size of every field of their type.
    ///
    /// - Returns: the groups found, one note each already added.
    func withholdRuntimeSharedLayouts(_ layouts: inout [TypeLayout], descriptors: [TypeDescriptor]) -> [RuntimeSharedForeignTypes] {
        var positionsByIdentity: [String: [Int]] = [:]
        var identities: [String] = []
        for (position, descriptor) in zip(layouts.indices, descriptors)
        where descriptor.context.metadataInitialization == Self.foreignMetadataInitialization && layouts[position].nominalMangledName != nil
        {
            // An unreadable identity cannot be compared: the type keeps what its own record says.
            guard let identity = try? foreignIdentity(of: descriptor) else { continue }
            if positionsByIdentity[identity] == nil { identities.append(identity) }
            positionsByIdentity[identity, default: []].append(position)
        }
        var groups: [RuntimeSharedForeignTypes] = []
        for identity in identities {
            guard let positions = positionsByIdentity[identity], positions.count > 1 else { continue }
            let shapes = Set(positions.map { [layouts[$0].size, layouts[$0].alignment, layouts[$0].stride] })
            guard shapes.count > 1 || shapes.contains(where: { $0.contains(nil) }) else { continue }
            notes.append(.runtimeMergedCTypes(positions.map { LayoutNote.MergedCType(name: layouts[$0].name, size: layouts[$0].size) }))
            groups.append(RuntimeSharedForeignTypes(identity: identity, manglings: positions.compactMap { layouts[$0].nominalMangledName }))
        }
        BinaryImage.withholdLayouts(ofRuntimeSharedTypes: Set(groups.flatMap(\.manglings)), in: &layouts)
        return groups
    }
}

extension BinaryImage {
    /// Sets to unknown every fact that depends on which of several same-named imported C types
    /// the runtime picks: the types' size, alignment and stride, their fields' offsets and sizes,
    /// and the size and alignment of every field of one of these types.
    ///
    /// ``read(atPath:)`` applies it to the static metadata's layouts; a reader that merges other
    /// sources (computed layouts, which know each type by its own record) applies it again after.
    ///
    /// - Parameters:
    ///   - manglings: the types' manglings (``BinaryReading/runtimeSharedTypes``).
    ///   - types: the layouts to change.
    public static func withholdLayouts(ofRuntimeSharedTypes manglings: Set<String>, in types: inout [TypeLayout]) {
        guard !manglings.isEmpty else { return }
        for position in types.indices {
            if let mangling = types[position].nominalMangledName, manglings.contains(mangling) {
                types[position].size = nil
                types[position].alignment = nil
                types[position].stride = nil
                for key in [TypeFact.size, .alignment, .stride] { types[position].factSources[key] = nil }
                for field in types[position].fields.indices {
                    types[position].fields[field].offset = nil
                    types[position].fields[field].factSources[.offset] = nil
                }
            }
            for field in types[position].fields.indices
            where types[position].fields[field].mangledType.map(manglings.contains) == true
                || types[position].nominalMangledName.map(manglings.contains) == true
            {
                types[position].fields[field].size = nil
                types[position].fields[field].alignment = nil
                types[position].fields[field].factSources[.size] = nil
                types[position].fields[field].factSources[.alignment] = nil
            }
        }
    }
}
