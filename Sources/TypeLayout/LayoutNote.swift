/// One note about a reading: something a reader could not do, a fact it could not state, or two
/// sources stating different values. A value with a kind: code asks ``subject`` and reads the
/// associated values; people read ``text``, made at the edge (the CLI's text and JSON output).
public enum LayoutNote: Hashable, Sendable {
    // About the file as a whole.

    /// The file has no `.symtab`.
    case symbolTableMissing
    /// A `swift5_*` section claims bytes the file does not hold.
    case sectionWithoutBytes(name: String, index: Int, size: UInt64)
    /// The types without a type metadata record could not all be found.
    case unlistedTypesUnreadable(problem: String)
    /// The builtin type descriptors could not be read.
    case builtinDescriptorsUnreadable(problem: String)
    /// `swift5_fieldmd` is empty.
    case fieldDescriptorsMissing
    /// No Swift runtime library was given (`problem` nil), or it could not be read.
    case runtimeLibraryUnavailable(problem: String?)
    /// Records that could not be read, with the first one's address.
    case recordsUnreadable(count: Int, firstAddress: UInt64, problem: String)
    /// A file without Swift metadata whose types come from DWARF.
    case typesFromDWARFOnly
    /// A library the file needs was found in none of the searched directories.
    case libraryNotFound(library: String, neededBy: String, directories: [String])
    /// A dependency could not be read for the superclasses it defines.
    case dependencyUnreadable(path: String, problem: String)
    /// A note of the type-lowering worker or its client, which speak text over their wire.
    case lowering(String)
    /// DWARF could not be read; the other sources stand.
    case dwarfNotUsed(problem: String)
    /// Some compared types' DWARF descriptions leave facts unstated: counts by what they leave out.
    case dwarfUnstatedFacts(withoutMembers: Int, withoutSize: Int, withoutKind: Int)
    /// DWARF states another value than the merged layout for a fact of a Swift type; `kept`
    /// names the sources of the value kept.
    case dwarfDisagreement(LayoutDisagreement, kept: [LayoutSource])
    /// A note read back from a JSON document, which keeps only the text.
    case text(String)

    // Counts over the file's types.

    /// Classes whose superclass is in another image (or generic): inherited fields not listed.
    case foreignSuperclasses(count: Int)
    /// The same, counted after type lowering: those whose superclass could not be laid out.
    case unlaidForeignSuperclasses(count: Int)
    /// Non-generic types whose metadata the runtime completes at load time.
    case loadTimeMetadata(count: Int)
    /// Non-generic structs and enums whose size neither static metadata nor type lowering states.
    case sizesStillUnknown(count: Int)
    /// Non-generic types type lowering gave no layout for, and why.
    case layoutsNotComputed(count: Int, cause: UncomputedCause)
    /// Type lowering stopped after too many worker crashes (its client's text).
    case loweringGaveUp(String)
    /// Of the selected non-generic structs and enums, those whose size is unknown.
    case selectedSizesUnknown(count: Int)

    // About a target's generic instantiations (`typeinfo dump --pid`, `dump CORE`).

    /// The generic metadata the target's runtime made could not be listed (`reason`; `keepsNoList`:
    /// because the runtime keeps no list, the process having been started without
    /// `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`): the instantiations are only the
    /// generic classes with live objects and the generic types the stored fields of the heap's
    /// objects hold, followed `depth` levels deep.
    case instantiationsFromHeapOnly(reason: String, keepsNoList: Bool, depth: Int)
    /// The same, and the heap could not be read either (`heapProblem`): no instantiation is listed.
    case instantiationsUnavailable(reason: String, keepsNoList: Bool, heapProblem: String)
    /// The walk of the runtime's metadata pool stopped at each of `addresses`, at bytes that are
    /// no allocation header (or where it could not go on): the instantiations after each, in its
    /// pool, are not listed.
    case metadataPoolWalkStopped(addresses: [UInt64])
    /// Generic metadata records left out: the reflection library could not name them, or they are
    /// not a class, struct or enum.
    case instantiationsUnnamed(count: Int)
    /// Instantiations the reflection library named but could not lay out completely (a size, or
    /// a class's stored fields): what it could not is unknown.
    case instantiationsNotLaidOut(count: Int)
    /// The process kept running while it was read: instantiations it made meanwhile may be missing.
    case instantiationsReadWhileRunning

    // About types.

    /// A type's static metadata could not be read.
    case metadataUnreadable(type: String, address: UInt64, problem: String)
    /// Static metadata and the computed layout state different values for a fact of a type.
    case metadataDisagreesWithComputed(type: String, fact: LayoutFactName, metadata: Int, computed: Int)
    /// Imported C types the runtime merges by name though their layouts differ: each type's
    /// name and size (nil: unknown).
    case runtimeMergedCTypes([MergedCType])
    /// Type lowering failed on one type, by mangling (`$s…`); the client's text.
    case loweringFailed(mangling: String, text: String)
    /// A field of `type` whose type has no name (printed `?`), and why.
    case fieldTypeUnnamed(type: String, field: String, reason: String)
    /// Whether the fields of `type` are `let` or `var` is unknown (printed `?`), and why.
    case fieldMutabilityUnknown(type: String, reason: String)

    /// Why type lowering gave no layout for some types.
    public enum UncomputedCause: Hashable, Sendable {
        /// The library answered, but cannot lay these types out.
        case libraryCannotLower
        /// Type lowering gave no answer for them (it did not run, or stopped): another note says why.
        case noAnswer
    }

    /// An imported C type in a ``LayoutNote/runtimeMergedCTypes(_:)`` note.
    public struct MergedCType: Hashable, Sendable {
        /// The type's qualified name.
        public var name: String
        /// Its size in bytes, nil when unknown.
        public var size: Int?

        /// Creates one.
        public init(name: String, size: Int?) {
            self.name = name
            self.size = size
        }
    }

    /// What a note is about, for narrowing a reading's notes to selected types.
    public enum Subject: Hashable, Sendable {
        /// The file as a whole.
        case file
        /// A count over all the file's types.
        case fileCount
        /// One type, by qualified name.
        case type(String)
        /// One type, by mangled name (`$s…`).
        case mangledType(String)
        /// Several types, by qualified name.
        case types([String])
    }

    /// What this note is about.
    public var subject: Subject {
        switch self {
        case .symbolTableMissing, .sectionWithoutBytes, .unlistedTypesUnreadable, .builtinDescriptorsUnreadable,
            .fieldDescriptorsMissing, .runtimeLibraryUnavailable, .recordsUnreadable, .typesFromDWARFOnly, .libraryNotFound,
            .dependencyUnreadable, .lowering, .dwarfNotUsed, .dwarfUnstatedFacts, .dwarfDisagreement, .text,
            .instantiationsFromHeapOnly, .instantiationsUnavailable, .metadataPoolWalkStopped, .instantiationsReadWhileRunning:
            return .file
        case .foreignSuperclasses, .unlaidForeignSuperclasses, .loadTimeMetadata, .sizesStillUnknown, .layoutsNotComputed,
            .loweringGaveUp, .selectedSizesUnknown, .instantiationsUnnamed, .instantiationsNotLaidOut:
            return .fileCount
        case .metadataUnreadable(let type, _, _), .metadataDisagreesWithComputed(let type, _, _, _), .fieldTypeUnnamed(let type, _, _),
            .fieldMutabilityUnknown(let type, _):
            return .type(type)
        case .runtimeMergedCTypes(let types):
            return .types(types.map(\.name))
        case .loweringFailed(let mangling, _):
            return .mangledType(mangling)
        }
    }
}
