/// Compares two witnesses of Swift layouts: the metadata (from `BinaryInfo` or the runtime) and
/// DWARF (from `DWARFInfo.DWARFReader`, for a build with `-Xfrontend -gdwarf-types`).
///
/// For C types DWARF is the only witness and needs no comparison. For Swift types the metadata
/// is what the runtime reads, so it is the source used, and every place where DWARF says
/// something else is reported as a ``LayoutDisagreement`` with the reason DWARF can differ.
/// Nothing is resolved silently and nothing is left out: a report with no disagreements means
/// the two witnesses agree on every fact both of them know.
public enum LayoutWitnessComparison {
    /// Compares each Swift struct, class and enum of `metadata` with the DWARF layout of the same
    /// name (or, failing that, the same mangled name).
    ///
    /// - Parameters:
    ///   - metadata: layouts read from Swift metadata (`source` `.metadata` or `.runtime`).
    ///   - dwarf: layouts read from DWARF.
    /// - Returns: which types were compared, which DWARF lacks, and every disagreement.
    public static func compare(metadata: [TypeLayout], dwarf: [TypeLayout]) -> LayoutWitnessReport {
        var byName: [String: TypeLayout] = [:]
        var byMangling: [String: TypeLayout] = [:]
        for layout in dwarf {
            if byName[layout.name] == nil { byName[layout.name] = layout }
            if let mangled = layout.mangledName.map(normalizedMangling), byMangling[mangled] == nil {
                byMangling[mangled] = layout
            }
        }
        var report = LayoutWitnessReport()
        for layout in metadata where [.struct, .class, .enum].contains(layout.kind) {
            let match = byName[layout.name] ?? layout.mangledName.flatMap { byMangling[normalizedMangling($0)] }
            guard let match else {
                report.typesWithoutDWARF.append(layout.name)
                continue
            }
            report.comparedTypes.append(layout.name)
            let unstated = unstatedFacts(of: match, dwarfByName: byName)
            if unstated.contains(.members) { report.typesDescribedWithoutMembers.append(layout.name) }
            if unstated.contains(.size) { report.typesDescribedWithoutSize.append(layout.name) }
            if unstated.contains(.kind) { report.typesDescribedWithoutKind.append(layout.name) }
            report.disagreements += disagreements(metadata: layout, dwarf: match, dwarfByName: byName, unstated: unstated)
        }
        return report
    }

    /// The facts a DWARF description of a Swift type does not state, and so are not compared.
    enum UnstatedFact: Hashable {
        /// No member, case or inherited member: plain `-g` describes most Swift types so.
        case members
        /// No size: ``TypeLayout/size`` is nil (the DWARF reader reads a member-less Swift
        /// type's `DW_AT_byte_size` of 0 as no size: the compiler writes 0 where it has none).
        case size
        /// No kind of its own: DWARF describes every Swift struct, class and enum with
        /// `DW_TAG_structure_type`, so `struct` is a statement only where the linkage name ends
        /// in the struct operator (`…VD`). A type in a generic context is named by a bound generic
        /// mangling (`…Cyx_GD`), an imported C typedef by its alias (`So…aD`): there the tag is
        /// all DWARF says. Class and enum come only from evidence (a class or enumeration tag, a
        /// variant part, the `C` or `O` operator).
        case kind
    }

    static func unstatedFacts(of dwarf: TypeLayout, dwarfByName: [String: TypeLayout]) -> Set<UnstatedFact> {
        var unstated: Set<UnstatedFact> = []
        if dwarf.fields.isEmpty, dwarf.cases.isEmpty, superclassMembers(of: dwarf, dwarfByName: dwarfByName).isEmpty {
            unstated.insert(.members)
        }
        if dwarf.size == nil { unstated.insert(.size) }
        if dwarf.kind == .struct, dwarf.mangledName.map({ normalizedMangling($0).hasSuffix("V") }) != true {
            unstated.insert(.kind)
        }
        return unstated
    }

    /// `$s4main5PointVD`, `_$s4main5PointVD` and `4main5PointV` name the same type.
    static func normalizedMangling(_ mangled: String) -> String {
        var text = Substring(mangled)
        for prefix in ["_$s", "$s", "$S", "_T0"] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        if mangled.hasPrefix("$") || mangled.hasPrefix("_$"), text.hasSuffix("D") {
            text = text.dropLast()
        }
        return String(text)
    }

    /// One DWARF member with the class (in the superclass chain) that declares it.
    private struct DWARFMember {
        var field: FieldLayout
        /// 0 for the compared type's own members, 1 for its superclass's, and so on.
        var level: Int
        var used = false
    }

    static func disagreements(
        metadata: TypeLayout, dwarf: TypeLayout, dwarfByName: [String: TypeLayout], unstated: Set<UnstatedFact>
    ) -> [LayoutDisagreement] {
        var result: [LayoutDisagreement] = []
        func report(_ fact: LayoutDisagreement.Fact, _ reason: LayoutDisagreement.Reason) {
            result.append(LayoutDisagreement(typeName: metadata.name, fact: fact, reason: reason))
        }
        if !unstated.contains(.kind), metadata.kind != dwarf.kind {
            report(.kind(metadata: metadata.kind, dwarf: dwarf.kind), .differentKind)
        }
        if let metadataSize = metadata.size, let dwarfSize = dwarf.size, metadataSize != dwarfSize {
            report(.size(metadata: metadataSize, dwarf: dwarfSize), .synthesizedSize)
        }
        guard metadata.kind != .enum, dwarf.kind != .enum, !unstated.contains(.members) else { return result }

        var members = dwarf.fields.map { DWARFMember(field: $0, level: 0) }
        if dwarf.kind == .class {
            members += superclassMembers(of: dwarf, dwarfByName: dwarfByName)
        }
        // Per declaring class: metadata offset minus DWARF offset of its first matched member.
        var headerDelta: [Int: Int] = [:]
        for field in metadata.fields {
            let candidates = members.indices.filter { !members[$0].used && members[$0].field.name == field.name }
            guard let position = candidates.min(by: { members[$0].level < members[$1].level }) else {
                report(.fieldMissingFromDWARF(field: field.name), .memberNotDescribed)
                continue
            }
            members[position].used = true
            let level = members[position].level
            guard let metadataOffset = field.offset, let dwarfOffset = members[position].field.offset else { continue }
            guard metadataOffset != dwarfOffset else {
                if dwarf.kind == .class, headerDelta[level] == nil { headerDelta[level] = 0 }
                continue
            }
            // Offsets decoded from a document can be anything: a difference that overflows is
            // no header size.
            let (delta, overflow) = metadataOffset.subtractingReportingOverflow(dwarfOffset)
            if dwarf.kind == .class, headerDelta[level] == nil, !overflow { headerDelta[level] = delta }
            let reason: LayoutDisagreement.Reason =
                dwarf.kind == .class && !overflow && headerDelta[level] == delta && delta > 0
                ? .classOffsetsOmitObjectHeader : .synthesizedMemberOffsets
            report(.fieldOffset(field: field.name, metadata: metadataOffset, dwarf: dwarfOffset), reason)
        }
        for member in members where member.level == 0 && !member.used {
            report(.fieldMissingFromMetadata(field: member.field.name), .memberNotDescribed)
        }
        return result
    }

    /// The members of the superclass chain, nearest superclass first; stops at a name DWARF
    /// does not describe or at a cycle.
    private static func superclassMembers(of layout: TypeLayout, dwarfByName: [String: TypeLayout]) -> [DWARFMember] {
        var members: [DWARFMember] = []
        var seen: Set<String> = [layout.name]
        var current = layout.superclass
        var level = 1
        while let name = current, !seen.contains(name), let superclass = dwarfByName[name] {
            seen.insert(name)
            members += superclass.fields.map { DWARFMember(field: $0, level: level) }
            current = superclass.superclass
            level += 1
        }
        return members
    }
}
