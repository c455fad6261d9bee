// With MetadataReader+StoredFields.swift, the only place in TypeInfo that reads Swift
// runtime metadata through raw pointers.
//
// Layouts follow include/swift/ABI/Metadata.h and MetadataValues.h in swiftlang/swift
// (64-bit, no Objective-C interop: Linux). Every function here takes a live `Any.Type`,
// whose metadata the runtime keeps alive for the life of the process, and returns safe
// Swift values; no pointer escapes this file.

import TypeLayout

/// The value witness table's layout facts.
struct ValueWitnessFacts {
    var size: Int
    var stride: Int
    var alignment: Int
    var isPOD: Bool
    var isInlineStorage: Bool
    var isBitwiseTakable: Bool
    var extraInhabitantCount: Int
}

/// One record of a field descriptor: a stored property or an enum case.
struct FieldRecordFacts {
    var name: String
    var isVar: Bool
    var isIndirectCase: Bool
    /// Ownership taken from the mangled type's trailing reference-storage marker.
    var ownership: MetadataOwnership
    /// The record's type, resolved in the context of the instantiated metadata; nil when the record has none.
    var type: Any.Type?
}

/// Reference-storage ownership as the mangling spells it (`Xw`, `Xo`, `Xu`).
enum MetadataOwnership {
    case strong, weak, unowned, unownedUnsafe
}

/// Facts from function type metadata.
struct FunctionFacts {
    var parameters: [Any.Type]
    var result: Any.Type
    var isThrowing: Bool
    var isAsync: Bool
    var isEscaping: Bool
    var isSendable: Bool
    var convention: UInt8
}

/// Facts from tuple type metadata.
struct TupleElementFacts {
    var label: String?
    var type: Any.Type
    var offset: Int
}

/// Reads metadata of one live type.
struct MetadataReader {
    let base: UnsafeRawPointer
    static let wordSize = MemoryLayout<UInt>.size

    init(_ type: Any.Type) {
        base = unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The kind word's meaning; values above `MetadataKind.lastEnumerated` are isa pointers, that is classes.
    var kind: MetadataKind? {
        MetadataKind(kindWord: base.load(as: UInt.self))
    }

    /// The value witness table, stored one word before the metadata's address point.
    var valueWitnesses: ValueWitnessFacts {
        let table = base.load(fromByteOffset: -Self.wordSize, as: UnsafeRawPointer.self)
        // Eight function pointers, then size, stride, flags, extra inhabitant count.
        let size = table.load(fromByteOffset: 8 * Self.wordSize, as: Int.self)
        let stride = table.load(fromByteOffset: 9 * Self.wordSize, as: Int.self)
        let flags = table.load(fromByteOffset: 10 * Self.wordSize, as: UInt32.self)
        let extraInhabitants = table.load(fromByteOffset: 10 * Self.wordSize + 4, as: UInt32.self)
        return ValueWitnessFacts(
            size: size,
            stride: stride,
            alignment: Int(flags & 0xFF) + 1,
            isPOD: flags & 0x0001_0000 == 0,
            isInlineStorage: flags & 0x0002_0000 == 0,
            isBitwiseTakable: flags & 0x0010_0000 == 0,
            extraInhabitantCount: Int(extraInhabitants)
        )
    }

    /// The enum value witnesses (`getEnumTag`, `destructiveProjectEnumData`,
    /// `destructiveInjectEnumTag`): the three words after the flags and extra inhabitant
    /// count of an enum's value witness table; nil when the flags say the table has none.
    var enumWitnesses: EnumWitnessFunctions? {
        let table = base.load(fromByteOffset: -Self.wordSize, as: UnsafeRawPointer.self)
        let flags = table.load(fromByteOffset: 10 * Self.wordSize, as: UInt32.self)
        guard flags & 0x0020_0000 != 0 else { return nil }  // HasEnumWitnesses
        func function<F>(_ word: Int, as: F.Type) -> F {
            unsafeBitCast(table.load(fromByteOffset: word * Self.wordSize, as: UnsafeRawPointer.self), to: F.self)
        }
        return EnumWitnessFunctions(
            metadata: base,
            getTag: function(11, as: EnumWitnessFunctions.GetTag.self),
            projectPayload: function(12, as: EnumWitnessFunctions.ProjectPayload.self),
            injectTag: function(13, as: EnumWitnessFunctions.InjectTag.self)
        )
    }

    /// For classes: whether the class is an actor (its instances hold runtime state no field
    /// record describes). Class descriptor flag `IsActor`, bit 7 of the kind-specific flags.
    var isActorClass: Bool {
        guard kind == .class, let flags = descriptorFlags, ContextDescriptorKind(flags: flags) == .class else { return false }
        return (flags >> 16) & (1 << 7) != 0
    }

    // MARK: Nominal types

    /// The nominal type descriptor of a struct, enum, optional or Swift class; nil otherwise.
    var descriptor: UnsafeRawPointer? {
        switch kind {
        case .struct, .enum, .optional:
            return base.load(fromByteOffset: Self.wordSize, as: UnsafeRawPointer?.self)
        case .class:
            // kind, superclass, flags/instance address point, instance size/align mask,
            // class size/address point, then the description (no ObjC interop words on Linux).
            return base.load(fromByteOffset: 5 * Self.wordSize, as: UnsafeRawPointer?.self)
        default:
            return nil
        }
    }

    /// For classes: the direct superclass, if any.
    var superclass: AnyClass? {
        guard kind == .class else { return nil }
        guard let pointer = base.load(fromByteOffset: Self.wordSize, as: UnsafeRawPointer?.self) else { return nil }
        return unsafeBitCast(pointer, to: AnyClass.self)
    }

    /// For classes: instance size and alignment from the class metadata.
    var classInstanceSizeAndAlignment: (size: Int, alignment: Int)? {
        guard kind == .class, descriptor != nil else { return nil }
        let size = base.load(fromByteOffset: 2 * Self.wordSize + 8, as: UInt32.self)
        let alignMask = base.load(fromByteOffset: 2 * Self.wordSize + 12, as: UInt16.self)
        return (Int(size), Int(alignMask) + 1)
    }

    /// The name of the nominal type as written in its declaration.
    var descriptorName: String? {
        guard let descriptor, let name = Self.relativeTarget(descriptor + 8) else { return nil }
        return String(cString: name.assumingMemoryBound(to: CChar.self))
    }

    /// Context descriptor kind (Module 0, Extension 1, Anonymous 2, Protocol 3, Class 16, Struct 17, Enum 18).
    var descriptorFlags: UInt32? {
        descriptor?.load(as: UInt32.self)
    }

    /// Offset of the generic context header, which follows the kind-specific descriptor fields.
    private var genericHeaderOffset: Int? {
        guard let flags = descriptorFlags else { return nil }
        switch ContextDescriptorKind(flags: flags) {
        case .class?: return 44  // class: 20 common bytes + 6 x UInt32
        case .struct?, .enum?: return 28  // struct, enum: 20 common bytes + 2 x UInt32
        default: return nil
        }
    }

    /// Where the generic argument vector starts, in bytes from the metadata's address point.
    var genericArgumentOffset: Int? {
        guard let descriptor, let flags = descriptorFlags else { return nil }
        switch ContextDescriptorKind(flags: flags) {
        case .struct?, .enum?:
            return 2 * Self.wordSize
        case .class?:
            let classFlags = flags >> 16
            if classFlags & (1 << 13) != 0 {
                // Resilient superclass: the runtime stores the bounds beside the descriptor.
                guard let bounds = Self.relativeTarget(descriptor + 24) else { return nil }
                return bounds.load(as: Int.self)
            }
            let negativeWords = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
            let positiveWords = Int(descriptor.load(fromByteOffset: 28, as: UInt32.self))
            let immediateMembers = Int(descriptor.load(fromByteOffset: 32, as: UInt32.self))
            if classFlags & (1 << 12) != 0 {
                return -negativeWords * Self.wordSize
            }
            return (positiveWords - immediateMembers) * Self.wordSize
        default:
            return nil
        }
    }

    /// The generic arguments of a specialised generic nominal type, in parameter order.
    ///
    /// Pack and value parameters have no plain metadata in the argument vector; a type that
    /// has them reports only the type arguments before the first of them.
    var genericArguments: [Any.Type] {
        guard let descriptor, let flags = descriptorFlags, flags & ContextDescriptorKind.isGenericFlag != 0,
            let headerOffset = genericHeaderOffset, let argumentOffset = genericArgumentOffset
        else { return [] }
        // TypeGenericContextDescriptorHeader: two relative pointers, then
        // NumParams, NumRequirements, NumKeyArguments, Flags (UInt16 each).
        let header = descriptor + headerOffset
        let parameterCount = Int(header.load(fromByteOffset: 8, as: UInt16.self))
        let contextFlags = header.load(fromByteOffset: 14, as: UInt16.self)
        guard contextFlags & 0x1 == 0 else { return [] }  // type packs change the vector's shape
        let parameters = header + 16
        var result: [Any.Type] = []
        var slot = 0
        for index in 0..<parameterCount {
            let parameter = parameters.load(fromByteOffset: index, as: UInt8.self)
            guard parameter & 0x80 != 0 else { continue }  // no key argument
            guard parameter & 0x3F == 0 else { break }  // not a plain type parameter
            let argument = base.load(fromByteOffset: argumentOffset + slot * Self.wordSize, as: UnsafeRawPointer.self)
            result.append(unsafeBitCast(argument, to: Any.Type.self))
            slot += 1
        }
        return result
    }

    /// The records of the type's field descriptor (stored properties or enum cases), with
    /// their types resolved against this metadata's generic arguments when asked (resolving
    /// demangles, so callers that need only names and flags skip it).
    func fieldRecords(resolvingTypes: Bool) -> [FieldRecordFacts] {
        guard let descriptor, let fields = Self.relativeTarget(descriptor + 16) else { return [] }
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12 else { return [] }
        let genericArguments = genericArgumentOffset.map { base + $0 }
        var records: [FieldRecordFacts] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            let record = fields + 16 + index * recordSize
            let flags = record.load(as: UInt32.self)
            let name = Self.relativeTarget(record + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            var type: Any.Type?
            var ownership = MetadataOwnership.strong
            if let mangled = Self.relativeTarget(record + 4) {
                let (length, plainFrom) = Self.mangledNameLength(mangled)
                ownership = Self.ownership(ofMangledName: mangled, length: length, plainFrom: plainFrom)
                type =
                    !resolvingTypes
                    ? nil
                    : _getTypeByMangledNameInContext(
                        mangled.assumingMemoryBound(to: UInt8.self),
                        UInt(length),
                        genericContext: descriptor,
                        genericArguments: genericArguments
                    )
            }
            records.append(
                FieldRecordFacts(
                    name: name,
                    isVar: flags & 0x2 != 0,
                    isIndirectCase: flags & 0x1 != 0,
                    ownership: ownership,
                    type: type
                ))
        }
        return records
    }

    // MARK: Structural types

    /// The elements of a tuple type.
    var tupleElements: [TupleElementFacts] {
        guard kind == .tuple else { return [] }
        let count = base.load(fromByteOffset: Self.wordSize, as: Int.self)
        let labelsPointer = base.load(fromByteOffset: 2 * Self.wordSize, as: UnsafePointer<CChar>?.self)
        // Labels are one string, each label followed by a space; an unlabelled element is a lone space.
        var labels: [String?] = []
        if let labelsPointer {
            labels = String(cString: labelsPointer).split(separator: " ", omittingEmptySubsequences: false)
                .dropLast().map { $0.isEmpty ? nil : String($0) }
        }
        var elements: [TupleElementFacts] = []
        for index in 0..<count {
            let element = base + 3 * Self.wordSize + index * 2 * Self.wordSize
            let type = unsafeBitCast(element.load(as: UnsafeRawPointer.self), to: Any.Type.self)
            // Element is { Type pointer; UInt32 offset } padded to two words: the padding is not zeroed.
            let offset = Int(element.load(fromByteOffset: Self.wordSize, as: UInt32.self))
            let label = index < labels.count ? labels[index] : nil
            elements.append(TupleElementFacts(label: label, type: type, offset: offset))
        }
        return elements
    }

    /// Parameters, result and attributes of a function type.
    var function: FunctionFacts? {
        guard kind == .function else { return nil }
        let flags = base.load(fromByteOffset: Self.wordSize, as: UInt.self)
        let parameterCount = Int(flags & 0xFFFF)
        let result = unsafeBitCast(base.load(fromByteOffset: 2 * Self.wordSize, as: UnsafeRawPointer.self), to: Any.Type.self)
        var parameters: [Any.Type] = []
        for index in 0..<parameterCount {
            let pointer = base.load(fromByteOffset: (3 + index) * Self.wordSize, as: UnsafeRawPointer.self)
            parameters.append(unsafeBitCast(pointer, to: Any.Type.self))
        }
        return FunctionFacts(
            parameters: parameters,
            result: result,
            isThrowing: flags & 0x0100_0000 != 0,
            isAsync: flags & 0x2000_0000 != 0,
            isEscaping: flags & 0x0400_0000 != 0,
            isSendable: flags & 0x4000_0000 != 0,
            convention: UInt8((flags >> 16) & 0xFF)
        )
    }

    /// For metatypes and existential metatypes: the instance type.
    var metatypeInstanceType: Any.Type? {
        guard kind == .metatype || kind == .existentialMetatype else { return nil }
        return unsafeBitCast(base.load(fromByteOffset: Self.wordSize, as: UnsafeRawPointer.self), to: Any.Type.self)
    }

    /// For existentials: whether the existential is class-bound; nil for other kinds.
    var isClassBoundExistential: Bool? {
        guard kind == .existential else { return nil }
        let flags = base.load(fromByteOffset: Self.wordSize, as: UInt32.self)
        // ExistentialTypeFlags' ClassConstraint bit is 0 ("Class") when class-bound.
        return flags & 0x8000_0000 == 0
    }

    // MARK: Relative pointers and mangled names

    /// Resolves a 32-bit relative direct pointer; nil for a null (zero) offset.
    static func relativeTarget(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = field.load(as: Int32.self)
        return offset == 0 ? nil : field + Int(offset)
    }

    /// The length of a mangled name that may contain symbolic references, whose
    /// operands can contain zero bytes (docs/ABI/Mangling.rst, "Symbolic references"),
    /// and where the last symbolic reference ends.
    static func mangledNameLength(_ name: UnsafeRawPointer) -> (length: Int, plainFrom: Int) {
        var index = 0
        var plainFrom = 0
        while true {
            let byte = name.load(fromByteOffset: index, as: UInt8.self)
            switch byte {
            case 0: return (index, plainFrom)
            case 0x01...0x17: index += 1 + 4; plainFrom = index
            case 0x18...0x1F: index += 1 + Self.wordSize; plainFrom = index
            default: index += 1
            }
        }
    }

    /// Reference storage is mangled as a trailing `Xw` (weak), `Xo` (unowned) or `Xu` (unowned(unsafe)).
    static func ownership(ofMangledName name: UnsafeRawPointer, length: Int, plainFrom: Int) -> MetadataOwnership {
        // The marker must be plain text, not the operand bytes of a symbolic reference.
        guard length - 2 >= plainFrom, name.load(fromByteOffset: length - 2, as: UInt8.self) == UInt8(ascii: "X") else { return .strong }
        switch name.load(fromByteOffset: length - 1, as: UInt8.self) {
        case UInt8(ascii: "w"): return .weak
        case UInt8(ascii: "o"): return .unowned
        case UInt8(ascii: "u"): return .unownedUnsafe
        default: return .strong
        }
    }
}
