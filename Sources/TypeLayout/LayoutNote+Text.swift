extension LayoutNote: CustomStringConvertible {
    /// The note as one line for people: the text the CLI prints and the JSON document holds.
    public var text: String {
        switch self {
        case .symbolTableMissing:
            return "no .symtab (stripped): private and local types are named without their file discriminator"
        case .sectionWithoutBytes(let name, let index, let size):
            return "section \(name) (#\(index)) is SHT_NOBITS (no bytes in the file) but claims \(size) bytes: its records are not read"
        case .unlistedTypesUnreadable(let problem):
            return "types without a type metadata record could not all be found: \(problem)"
        case .builtinDescriptorsUnreadable(let problem):
            return "builtin type descriptors unreadable: \(problem)"
        case .fieldDescriptorsMissing:
            return
                "no field descriptors (swift5_fieldmd is empty: built with -disable-reflection-metadata?): stored fields and enum cases are not listed"
        case .runtimeLibraryUnavailable(let problem):
            let what =
                problem.map { "the Swift runtime library could not be read (\($0))" }
                ?? "no Swift runtime library (libswiftCore.so) was given"
            return "\(what): sizes of types that reuse its value witness tables are unknown"
        case .recordsUnreadable(let count, let address, let problem):
            return "\(count) records could not be read; the first, at 0x\(String(address, radix: 16)): \(problem)"
        case .typesFromDWARFOnly:
            return "no Swift metadata: the types below come from DWARF"
        case .libraryNotFound(let library, let neededBy, let directories):
            return "\(library), which \(neededBy) needs, was found in none of \(directories.joined(separator: ", "))"
        case .dependencyUnreadable(let path, let problem):
            return "dependency \(path) could not be read for superclasses: \(problem)"
        case .lowering(let text), .loweringGaveUp(let text), .loweringFailed(_, let text), .text(let text):
            return text
        case .dwarfNotUsed(let problem):
            return "DWARF not used: \(problem)"
        case .dwarfUnstatedFacts(let memberless, let sizeless, let kindless):
            return Self.unstatedFactsText(withoutMembers: memberless, withoutSize: sizeless, withoutKind: kindless)
        case .dwarfDisagreement(let disagreement, let kept):
            return "DWARF disagrees: " + Self.describe(disagreement, kept: kept)
        case .foreignSuperclasses(let count):
            return
                "\(count) classes have a superclass defined in another image (or a generic one): their inherited fields are not listed, their own fields keep their offsets"
        case .unlaidForeignSuperclasses(let count):
            return
                "\(count) classes have a superclass defined in another image (or a generic one) that could not be laid out: their inherited fields are not listed, their own fields keep their offsets"
        case .loadTimeMetadata(let count):
            return
                "\(count) non-generic types have metadata the runtime completes at load time (resilient or imported field types): their sizes and offsets are unknown"
        case .sizesStillUnknown(let count):
            return
                "\(count) non-generic structs and enums still have an unknown size (static metadata lacks it, and type lowering could not compute it)"
        case .layoutsNotComputed(let count, .libraryCannotLower):
            return
                "type lowering: \(count) non-generic types have no computed layout (private names the library cannot resolve, @_rawLayout storage, actors, generic superclasses)"
        case .layoutsNotComputed(let count, .noAnswer):
            return "type lowering: \(count) non-generic types have no computed layout (type lowering gave no answer for them)"
        case .selectedSizesUnknown(let count):
            return "\(count) of the selected non-generic structs and enums have an unknown size"
        case .instantiationsFromHeapOnly(let reason, let keepsNoList, let depth):
            let advice = " (start the process with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1 to list them all)"
            return "only what the heap shows: \(reason)"
                + (keepsNoList ? ", so its runtime keeps no list of the generic metadata it made" : "")
                + "; listed are the generic classes with live objects (their metadata is the objects' first word) and the "
                + "generic types their stored fields hold (\(depth) levels deep), inferred from the field types: the runtime may "
                + "not have made those types' metadata; not every instantiation" + (keepsNoList ? advice : "")
        case .instantiationsUnavailable(let reason, let keepsNoList, let heapProblem):
            return "no instantiations listed: \(reason)"
                + (keepsNoList ? ", so its runtime keeps no list of the generic metadata it made" : "")
                + ", and the heap, which shows some, could not be read (\(heapProblem))"
                + (keepsNoList ? "; start the process with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1 to list them" : "")
        case .metadataPoolWalkStopped(let addresses):
            let places = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: ", ")
            return "the walk of the runtime's metadata allocation pool stopped at \(places), at bytes that are no allocation header "
                + "or could not be read (the runtime leaves the end of an older pool as malloc gave it): any instantiation after them "
                + "in their pools is not listed"
        case .instantiationsUnnamed(let count):
            return
                "\(count) generic metadata records are left out: the reflection library could not name them, or they are not a class, struct or enum"
        case .instantiationsNotLaidOut(let count):
            return
                "\(count) instantiations the reflection library could not lay out completely: their unknown sizes print as ?, and their fields are not listed"
        case .instantiationsReadWhileRunning:
            return "read while the process ran: instantiations it made during the reading may be missing (--pause stops it for the read)"
        case .fieldTypeUnnamed(let type, let field, let reason):
            return "\(type).\(field): its type is unknown (?): \(reason)"
        case .fieldMutabilityUnknown(let type, let reason):
            return "\(type): whether its fields are let or var is unknown (?): \(reason)"
        case .metadataUnreadable(let type, let address, let problem):
            return "\(type): static metadata at 0x\(String(address, radix: 16)) unreadable (\(problem)); layout unknown"
        case .metadataDisagreesWithComputed(let type, let fact, let metadata, let computed):
            return "\(type): \(fact): static metadata says \(metadata), computed layout says \(computed)"
        case .runtimeMergedCTypes(let types):
            let described = types.map { "\($0.name) (\($0.size.map { "\($0) bytes" } ?? "size unknown"))" }
            return "the Swift runtime merges imported C types by name: \(described.joined(separator: ", ")) are one type at run time, "
                + "laid out as whichever is registered first: their sizes and field offsets, and the sizes of fields of these types, are unknown"
        }
    }

    /// The same as ``text``.
    public var description: String { text }

    private static func unstatedFactsText(withoutMembers memberless: Int, withoutSize sizeless: Int, withoutKind kindless: Int) -> String {
        var parts: [String] = []
        if memberless > 0 {
            parts.append(
                "\(memberless) without their members (plain -g: build with -Xfrontend -gdwarf-types to check field offsets against DWARF too)"
            )
        }
        if sizeless > 0 { parts.append("\(sizeless) without a size (DW_AT_byte_size 0 and no members)") }
        if kindless > 0 {
            parts.append(
                "\(kindless) without a kind of their own (DW_TAG_structure_type for a type in a generic context or an imported C typedef)")
        }
        return "DWARF does not state every fact of the Swift types it describes, and what it leaves out is not compared: "
            + parts.joined(separator: ", ")
    }

    /// One greppable line, naming the source(s) the kept value came from: `metadata`, `computed`,
    /// or both (`metadata+computed`) when they agreed.
    private static func describe(_ disagreement: LayoutDisagreement, kept sources: [LayoutSource]) -> String {
        let kept = sources.map(\.rawValue).joined(separator: "+")
        let what: String
        switch disagreement.fact {
        case .size(let value, let dwarf):
            what = "size \(kept) \(value), DWARF \(dwarf)"
        case .fieldOffset(let field, let value, let dwarf):
            what = "field '\(field)' offset \(kept) \(value), DWARF \(dwarf)"
        case .fieldMissingFromDWARF(let field):
            what = "field '\(field)' not in DWARF"
        case .fieldMissingFromMetadata(let field):
            what = "member '\(field)' in DWARF only"
        case .kind(let value, let dwarf):
            what = "kind \(kept) \(value.rawValue), DWARF \(dwarf.rawValue)"
        }
        return "\(disagreement.typeName): \(what) (using \(kept): \(disagreement.reason.explanation))"
    }
}
