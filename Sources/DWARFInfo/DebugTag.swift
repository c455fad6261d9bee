/// The `DW_TAG_*` and `DW_LANG_*` values this reader looks at (DWARF 5, section 7.5 and 7.12).
///
/// Spelled out here rather than imported from `dwarf.h` so that only the libdwarf wrapper
/// imports the C module.
enum DebugTag {
    static let arrayType: UInt16 = 0x01
    static let classType: UInt16 = 0x02
    static let enumerationType: UInt16 = 0x04
    static let formalParameter: UInt16 = 0x05
    static let member: UInt16 = 0x0d
    static let pointerType: UInt16 = 0x0f
    static let referenceType: UInt16 = 0x10
    static let compileUnit: UInt16 = 0x11
    static let structureType: UInt16 = 0x13
    static let subroutineType: UInt16 = 0x15
    static let typedef: UInt16 = 0x16
    static let unionType: UInt16 = 0x17
    static let unspecifiedParameters: UInt16 = 0x18
    static let variant: UInt16 = 0x19
    static let inheritance: UInt16 = 0x1c
    static let module: UInt16 = 0x1e
    static let pointerToMemberType: UInt16 = 0x1f
    static let subrangeType: UInt16 = 0x21
    static let baseType: UInt16 = 0x24
    static let constType: UInt16 = 0x26
    static let enumerator: UInt16 = 0x28
    static let templateTypeParameter: UInt16 = 0x2f
    static let variantPart: UInt16 = 0x33
    static let volatileType: UInt16 = 0x35
    static let restrictType: UInt16 = 0x37
    static let namespace: UInt16 = 0x39
    static let unspecifiedType: UInt16 = 0x3b
    static let partialUnit: UInt16 = 0x3c
    static let typeUnit: UInt16 = 0x41
    static let rvalueReferenceType: UInt16 = 0x42
    static let atomicType: UInt16 = 0x47
    static let immutableType: UInt16 = 0x4b

    /// Whether an entry with this tag is kept. Everything else (functions, variables, lexical
    /// blocks, call sites) is skipped together with its subtree.
    static func isRecorded(_ tag: UInt16, parentTag: UInt16?) -> Bool {
        switch tag {
        case compileUnit, partialUnit, typeUnit, module, namespace,
            structureType, classType, unionType, enumerationType, enumerator,
            member, inheritance, typedef, baseType, unspecifiedType,
            pointerType, referenceType, rvalueReferenceType, pointerToMemberType,
            constType, volatileType, restrictType, atomicType, immutableType,
            arrayType, subrangeType, subroutineType,
            variantPart, variant, templateTypeParameter:
            return true
        case formalParameter, unspecifiedParameters:
            // Only a function type's parameters; a function's parameters are not types.
            return parentTag == subroutineType
        default:
            return false
        }
    }

    /// Whether the children of an entry with this tag can hold anything this reader keeps.
    static func hasRecordedChildren(_ tag: UInt16) -> Bool {
        switch tag {
        case compileUnit, partialUnit, typeUnit, module, namespace,
            structureType, classType, unionType, enumerationType,
            arrayType, subroutineType, variantPart, variant:
            return true
        default:
            return false
        }
    }

    /// Whether the tag declares an aggregate or enumeration with a layout of its own.
    static func isLayoutType(_ tag: UInt16) -> Bool {
        tag == structureType || tag == classType || tag == unionType || tag == enumerationType
    }
}

/// `DW_LANG_*` groups: which naming rules apply to a unit's types.
enum SourceLanguage: Sendable {
    case c
    case cPlusPlus
    case swift
    case other

    init(dwarfLanguage: UInt64?) {
        switch dwarfLanguage {
        case 0x0001, 0x0002, 0x000c, 0x001d, 0x002c: self = .c  // C89, C, C99, C11, C17
        case 0x0004, 0x0019, 0x001a, 0x0021, 0x002a, 0x002b: self = .cPlusPlus  // C++, 03, 11, 14, 17, 20
        case 0x001e: self = .swift
        default: self = .other
        }
    }
}
