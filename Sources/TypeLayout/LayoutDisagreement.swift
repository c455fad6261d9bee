/// One fact on which DWARF and the Swift metadata disagree about a Swift type.
///
/// The metadata is what the runtime uses, so it is the source a layout is taken from
/// (``usedSource``); the disagreement is reported, never resolved silently.
public struct LayoutDisagreement: Hashable, Sendable, CustomStringConvertible {
    /// What differs.
    public enum Fact: Hashable, Sendable {
        /// `MemoryLayout.size` (metadata) against `DW_AT_byte_size` (DWARF).
        case size(metadata: Int, dwarf: Int)
        /// A stored property's byte offset.
        case fieldOffset(field: String, metadata: Int, dwarf: Int)
        /// A stored property the metadata lists and DWARF does not.
        case fieldMissingFromDWARF(field: String)
        /// A member DWARF lists and the metadata does not.
        case fieldMissingFromMetadata(field: String)
        /// The kind of type (struct, class, enum).
        case kind(metadata: TypeKind, dwarf: TypeKind)
    }

    /// Why DWARF can say something else than the metadata.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// DWARF class member offsets start after the object header (metadata pointer and
        /// reference counts) and the superclass's stored properties; the metadata's are from
        /// the start of the object. The difference is the same for every property of one class.
        case classOffsetsOmitObjectHeader
        /// DWARF member offsets are synthesised by the compiler for the debugger, not read from
        /// the real layout: a narrow field before a wider one can be placed without the
        /// alignment padding the real layout has.
        case synthesizedMemberOffsets
        /// DWARF's `DW_AT_byte_size` for a Swift type is the compiler's synthesis too.
        case synthesizedSize
        /// The compiler did not describe this stored property (or described a member that is
        /// not a stored property, such as a property wrapper's or lazy variable's storage
        /// under another name).
        case memberNotDescribed
        /// The two sources classify the type differently.
        case differentKind

        /// One sentence for people.
        public var explanation: String {
            switch self {
            case .classOffsetsOmitObjectHeader:
                return "DWARF class member offsets omit the object header and superclass storage"
            case .synthesizedMemberOffsets:
                return "DWARF member offsets are synthesized by the compiler and can misplace a field that follows a narrower one"
            case .synthesizedSize:
                return "DWARF sizes of Swift types are synthesized by the compiler"
            case .memberNotDescribed:
                return "the two sources do not list the same stored properties"
            case .differentKind:
                return "the two sources classify the type differently"
            }
        }
    }

    /// The qualified name of the type, as the metadata names it.
    public var typeName: String
    /// What differs.
    public var fact: Fact
    /// Why DWARF can differ here.
    public var reason: Reason
    /// The source whose value a layout uses: always the metadata, which the runtime itself reads.
    public var usedSource: LayoutSource

    /// Creates a disagreement.
    public init(typeName: String, fact: Fact, reason: Reason, usedSource: LayoutSource = .metadata) {
        self.typeName = typeName
        self.fact = fact
        self.reason = reason
        self.usedSource = usedSource
    }

    /// One greppable line: `Module.Node: field 'value' offset metadata 16, DWARF 0 (using metadata: ...)`.
    public var description: String {
        let what: String
        switch fact {
        case .size(let metadata, let dwarf):
            what = "size metadata \(metadata), DWARF \(dwarf)"
        case .fieldOffset(let field, let metadata, let dwarf):
            what = "field '\(field)' offset metadata \(metadata), DWARF \(dwarf)"
        case .fieldMissingFromDWARF(let field):
            what = "field '\(field)' not in DWARF"
        case .fieldMissingFromMetadata(let field):
            what = "member '\(field)' in DWARF only"
        case .kind(let metadata, let dwarf):
            what = "kind metadata \(metadata.rawValue), DWARF \(dwarf.rawValue)"
        }
        return "\(typeName): \(what) (using \(usedSource.rawValue): \(reason.explanation))"
    }
}

/// The outcome of comparing the metadata's Swift layouts with DWARF's.
public struct LayoutWitnessReport: Hashable, Sendable {
    /// Types found in both sources and compared, by metadata name, in metadata order.
    public var comparedTypes: [String]
    /// Swift structs, classes and enums of the metadata that DWARF does not describe (a build
    /// without `-gdwarf-types`, or a type the compiler emitted only as a declaration).
    public var typesWithoutDWARF: [String]
    /// Every disagreement, in metadata order.
    public var disagreements: [LayoutDisagreement]
    /// Compared types whose DWARF description lists no member (plain `-g`): their stored
    /// properties are not compared, since DWARF states nothing about them.
    public var typesDescribedWithoutMembers: [String] = []
    /// Compared types whose DWARF description states no size (a member-less `DW_AT_byte_size`
    /// of 0): their size is not compared.
    public var typesDescribedWithoutSize: [String] = []
    /// Compared types whose DWARF description states no kind of its own (a type in a generic
    /// context, an imported C typedef: `DW_TAG_structure_type` alone): their kind is not compared.
    public var typesDescribedWithoutKind: [String] = []

    /// Creates a report.
    public init(comparedTypes: [String] = [], typesWithoutDWARF: [String] = [], disagreements: [LayoutDisagreement] = []) {
        self.comparedTypes = comparedTypes
        self.typesWithoutDWARF = typesWithoutDWARF
        self.disagreements = disagreements
    }
}
