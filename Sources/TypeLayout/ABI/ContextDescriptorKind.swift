/// The kind in the flags word that starts every context descriptor, as the runtime stores it
/// (`ContextDescriptorKind` in include/swift/ABI/MetadataValues.h in swiftlang/swift). Shared by
/// the reader of live metadata (TypeInfo) and of files on disk (BinaryInfo), so that the
/// numbers are written once, with their names.
public enum ContextDescriptorKind: UInt8, Sendable, CaseIterable {
    case module = 0
    case `extension` = 1
    case anonymous = 2
    case `protocol` = 3
    case opaqueType = 4
    case `class` = 16
    case `struct` = 17
    case `enum` = 18

    /// The kind's bits in the flags word.
    public static let kindMask: UInt32 = 0x1F
    /// Flags bit 7: the context has a generic context header (`isGeneric`).
    public static let isGenericFlag: UInt32 = 0x80
    /// Flags bit 5: the type suppresses an invertible protocol (`~Copyable`, `~Escapable`), and
    /// a trailing `InvertibleProtocolSet` says which (`hasInvertibleProtocols`).
    public static let hasInvertibleProtocolsFlag: UInt32 = 0x20

    /// The raw kind bits of a flags word (also for values no kind has).
    public static func rawKind(ofFlags flags: UInt32) -> UInt8 {
        UInt8(flags & kindMask)
    }

    /// The kind a context descriptor's flags word says, or nil for a value no kind has.
    public init?(flags: UInt32) {
        self.init(rawValue: Self.rawKind(ofFlags: flags))
    }

    /// Struct, class or enum: a type context descriptor with a name and a field descriptor.
    public var isTypeContext: Bool { self == .class || self == .struct || self == .enum }
}
