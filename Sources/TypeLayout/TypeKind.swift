/// What sort of type a layout describes.
///
/// The cases follow the Swift runtime's metadata kinds, plus the kinds that only an
/// on-disk reader sees (`protocol`) and the C kinds that DWARF describes (`union`).
/// The raw values are the strings used in the JSON schema.
public enum TypeKind: String, Hashable, Sendable, Codable, CaseIterable {
    case `struct`
    case `class`
    case `enum`
    case optional
    case tuple
    case function
    case existential
    case metatype
    case existentialMetatype
    case foreignClass
    case opaque
    /// A protocol declaration (only the on-disk reader sees these; at run time a protocol is an existential).
    case `protocol`
    /// A C union (from DWARF).
    case union
}

/// How a stored property holds its value.
///
/// The raw values are the spellings used in Swift source and in the JSON schema.
public enum Ownership: String, Hashable, Sendable, Codable, CaseIterable {
    /// An ordinary (strong) reference or a value.
    case strong
    /// `weak var`: the storage is a weak reference; reading yields `nil` once the object is gone.
    case weak
    /// `unowned` (safe): the storage keeps an unowned reference count.
    case unowned
    /// `unowned(unsafe)`: a plain pointer with no reference counting at all.
    case unownedUnsafe = "unowned(unsafe)"
}

/// Where the facts in a layout came from.
public enum LayoutSource: String, Hashable, Sendable, Codable, CaseIterable {
    /// Read from the metadata a Swift runtime made: in this process through the runtime
    /// (TypeInfo), or a target's class metadata read from its memory (`typeinfo dump --pid`).
    case runtime
    /// Read from a binary's Swift reflection sections and static metadata (BinaryInfo).
    case metadata
    /// Read from DWARF debug information (DWARFInfo).
    case dwarf
    /// Computed from a binary's reflection records by the toolchain's own type lowering
    /// (libswiftRemoteMirror, through TypeLowering).
    case computed
}
