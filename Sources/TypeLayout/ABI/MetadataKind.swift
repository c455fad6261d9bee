/// The kind word at the start of every Swift type metadata record, as the runtime stores it
/// (include/swift/ABI/MetadataKind.def in swiftlang/swift). Shared by the readers of live
/// metadata (TypeInfo) so that the numbers are written once, with their names.
public enum MetadataKind: UInt, Sendable, CaseIterable {
    /// A Swift class (on platforms without Objective-C interop the kind word is 0).
    case `class` = 0
    case `struct` = 0x200
    case `enum` = 0x201
    case optional = 0x202
    case foreignClass = 0x203
    case foreignReferenceType = 0x204
    case opaque = 0x300
    case tuple = 0x301
    case function = 0x302
    case existential = 0x303
    case metatype = 0x304
    case objcClassWrapper = 0x305
    case existentialMetatype = 0x306
    case extendedExistential = 0x307
    case fixedArray = 0x308

    /// The largest kind value; a larger kind word is an isa pointer, that is a class
    /// (`MetadataKind::LastEnumerated`).
    public static let lastEnumerated: UInt = 0x7FF

    /// The kind a metadata record's first word says, or nil for a value no kind has.
    public init?(kindWord: UInt) {
        if kindWord > Self.lastEnumerated {
            self = .class
        } else {
            self.init(rawValue: kindWord)
        }
    }
}
