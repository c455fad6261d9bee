/// The layout of one type: what every reader in this package produces and every
/// consumer (output formats, snapshots, diffs) reads.
///
/// Facts a source could not establish are `nil` ("unknown"), never a guess: a generic
/// type read from disk has fields but no offsets, for example.
public struct TypeLayout: Hashable, Sendable {
    /// The qualified, demangled name as a user writes it: `Module.Outer.Inner`, `Box<T>`.
    public var name: String
    /// The type's mangling (without `$s`), shown only when it demangles to exactly ``name``: for
    /// a generic type read from a file, the type bound to its own parameters (`SayxG` beside
    /// `Swift.Array<A>`); in-process, the bound instance (`SaySiG`). Nil when unknown.
    public var mangledName: String?
    /// The mangling of the nominal type itself, unbound (`Sa` for `Swift.Array<A>`): the key
    /// by which the readers of one file find a type (lowering requests, superclass chains,
    /// builtin and foreign-type tables). The same as ``mangledName`` for a non-generic type.
    /// Never printed (it does not demangle to a generic type's name), so not in the JSON
    /// either: nil in a decoded document, and for layouts from in-process or DWARF readers.
    public var nominalMangledName: String? = nil
    /// What sort of type this is.
    public var kind: TypeKind
    /// The module that declares the type, where known.
    public var module: String?
    /// `MemoryLayout.size`: for classes, the size of a reference.
    public var size: Int?
    /// `MemoryLayout.alignment`.
    public var alignment: Int?
    /// `MemoryLayout.stride`.
    public var stride: Int?
    /// For classes: the size in bytes of an instance, object header included.
    public var instanceSize: Int?
    /// For classes: the alignment of an instance.
    public var instanceAlignment: Int?
    /// For classes: the qualified name of the superclass.
    public var superclass: String?
    /// For classes: the superclass's mangled name (without `$s`), where the source has one.
    public var superclassMangledName: String? = nil
    /// Generic parameter names (`T`, `U`) or, for a specialised type read at run time, the arguments.
    public var genericParameters: [String]
    /// Protocols the type conforms to, by qualified name.
    public var conformances: [String]
    /// Stored properties (or tuple elements, or C members) in declaration order;
    /// for classes the superclass's fields come first.
    public var fields: [FieldLayout]
    /// Enum cases in declaration order (payload cases first, as the runtime orders them).
    public var cases: [EnumCaseLayout]
    /// Which reader produced this layout.
    public var source: LayoutSource?
    /// Where each stated fact (`size`, `alignment`, `stride`, `instanceSize`, `instanceAlignment`)
    /// came from, when a reading merged several sources: the sources that agree on it. Empty when
    /// the layout has one source (``source``).
    public var factSources: [TypeFact: [LayoutSource]] = [:]
    /// For enums laid out by the toolchain's type lowering: how the cases share storage.
    public var enumStrategy: EnumStrategy? = nil
    /// The bit patterns of the type's storage that are not valid values, which an enclosing
    /// `Optional` or single-payload enum uses for its other cases (the value witness table's
    /// `extraInhabitantCount`), where known.
    public var extraInhabitants: Int? = nil
    /// For enums: the tag bytes stored after the largest payload (the whole value for a
    /// no-payload enum), where known.
    public var enumTagBytes: Int? = nil
    /// For multi-payload enums: the bits of the payload area (the largest payload's bytes) that
    /// hold the case tag, as a mask in memory order (the payloads' spare bits the tag uses);
    /// all zero when the tag is only in ``enumTagBytes``. Nil when unknown.
    public var enumTagSpareBits: [UInt8]? = nil

    /// Creates a layout; everything but the name and kind defaults to unknown or empty.
    public init(
        name: String,
        mangledName: String? = nil,
        kind: TypeKind,
        module: String? = nil,
        size: Int? = nil,
        alignment: Int? = nil,
        stride: Int? = nil,
        instanceSize: Int? = nil,
        instanceAlignment: Int? = nil,
        superclass: String? = nil,
        genericParameters: [String] = [],
        conformances: [String] = [],
        fields: [FieldLayout] = [],
        cases: [EnumCaseLayout] = [],
        source: LayoutSource? = nil
    ) {
        self.name = name
        self.mangledName = mangledName
        self.kind = kind
        self.module = module
        self.size = size
        self.alignment = alignment
        self.stride = stride
        self.instanceSize = instanceSize
        self.instanceAlignment = instanceAlignment
        self.superclass = superclass
        self.genericParameters = genericParameters
        self.conformances = conformances
        self.fields = fields
        self.cases = cases
        self.source = source
    }
}

/// One stored property, tuple element or C member.
public struct FieldLayout: Hashable, Sendable {
    /// The property name (`_x` for a property wrapper's storage, `$__lazy_storage_$_x` for a lazy var).
    public var name: String
    /// The field's type as a user writes it.
    public var type: String
    /// The field's mangled type, where the source has one.
    public var mangledType: String?
    /// Byte offset from the start of the value (for classes, from the start of the object).
    public var offset: Int?
    /// The field's size in bytes, where known.
    public var size: Int?
    /// The alignment in bytes of the field's type, where known (holes and reorder suggestions need it).
    public var alignment: Int?
    /// For C bitfields: the bit offset within the byte at `offset`, and the width in bits.
    public var bitOffset: Int?
    /// For C bitfields: the width in bits.
    public var bitWidth: Int?
    /// `var` (true) or `let` (false); nil where the reading could not tell (its notes say why).
    public var isVar: Bool?
    /// Strong, weak, unowned or unowned(unsafe).
    public var ownership: Ownership
    /// Where each stated fact (`offset`, `size`, `alignment`) came from, when a reading merged
    /// several sources. Empty when the layout has one source.
    public var factSources: [FieldFact: [LayoutSource]] = [:]

    /// Creates a field layout; unknown facts default to `nil`.
    public init(
        name: String,
        type: String,
        mangledType: String? = nil,
        offset: Int? = nil,
        size: Int? = nil,
        alignment: Int? = nil,
        bitOffset: Int? = nil,
        bitWidth: Int? = nil,
        isVar: Bool? = true,
        ownership: Ownership = .strong
    ) {
        self.name = name
        self.type = type
        self.mangledType = mangledType
        self.offset = offset
        self.size = size
        self.alignment = alignment
        self.bitOffset = bitOffset
        self.bitWidth = bitWidth
        self.isVar = isVar
        self.ownership = ownership
    }
}

/// One enum case.
public struct EnumCaseLayout: Hashable, Sendable {
    /// The case name.
    public var name: String
    /// The payload type as a user writes it, or `nil` for a case without payload.
    public var payloadType: String?
    /// Whether the case (or its whole enum) is `indirect`.
    public var indirect: Bool
    /// The payload's size in bytes, where known (`nil` for a case without payload).
    public var payloadSize: Int? = nil

    /// Creates an enum case layout.
    public init(name: String, payloadType: String? = nil, indirect: Bool = false) {
        self.name = name
        self.payloadType = payloadType
        self.indirect = indirect
    }
}

/// How an enum's cases share storage, as the compiler lays them out (and as pahole and Rust's
/// `-Zprint-type-sizes` show it). The raw values are the JSON spellings.
public enum EnumStrategy: String, Hashable, Sendable, Codable, CaseIterable {
    /// No case has a payload: the value is a tag only.
    case noPayload = "no-payload"
    /// One case has a payload; the others use its extra inhabitants or an extra tag byte.
    case singlePayload = "single-payload"
    /// Several cases have payloads: spare bits of the payloads or extra tag bytes hold the case.
    case multiPayload = "multi-payload"
}
