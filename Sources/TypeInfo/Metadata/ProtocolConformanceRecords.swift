import TypeLayout
// The protocol conformance records of every Swift image loaded in the process, as the runtime
// registered them (`swift_enumerateAllMetadataSections`, stdlib/public/SwiftShims/MetadataSections.h),
// read per include/swift/ABI/Metadata.h (TargetProtocolConformanceDescriptor) and
// MetadataValues.h (ConformanceFlags, TypeReferenceKind). Whether a type really conforms
// (conditional conformances included) is the runtime's own answer, `swift_conformsToProtocol`;
// names come from the existential type `any P` the runtime builds for each protocol.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One conformance record: the conforming type's descriptor and the protocol's descriptor.
struct ConformanceRecordFacts {
    var typeDescriptor: UnsafeRawPointer
    var protocolDescriptor: UnsafeRawPointer
    var isRetroactive: Bool
    var conditionalRequirementCount: Int
}

/// The runtime entry points this file calls, looked up by name (the compiler reserves them).
struct ConformanceRuntime: @unchecked Sendable {
    typealias SectionVisitor = @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool
    typealias EnumerateSections = @convention(c) (SectionVisitor, UnsafeMutableRawPointer) -> Void
    typealias ConformsToProtocol = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UnsafeRawPointer?
    typealias ExistentialMetadata = @convention(c) (UInt8, UnsafeRawPointer?, Int, UnsafePointer<UnsafeRawPointer>) -> UnsafeRawPointer

    let enumerateSections: EnumerateSections?
    let conformsToProtocol: ConformsToProtocol?
    let existentialMetadata: ExistentialMetadata?

    static let shared = ConformanceRuntime()

    private init() {
        func resolve<F>(_ name: String, as: F.Type) -> F? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: F.self) }
        }
        enumerateSections = resolve("swift_enumerateAllMetadataSections", as: EnumerateSections.self)
        conformsToProtocol = resolve("swift_conformsToProtocol", as: ConformsToProtocol.self)
        existentialMetadata = resolve("swift_getExistentialTypeMetadata", as: ExistentialMetadata.self)
    }

    /// Whether this runtime exports everything needed.
    var isAvailable: Bool { enumerateSections != nil && conformsToProtocol != nil && existentialMetadata != nil }
}

enum ProtocolConformanceRecords {
    /// Every conformance record of every loaded image whose conforming type is given by a
    /// (direct or indirect) type descriptor; nil when the runtime does not export the enumeration.
    static func all() -> [ConformanceRecordFacts]? {
        guard let enumerate = ConformanceRuntime.shared.enumerateSections else { return nil }
        var records: [ConformanceRecordFacts] = []
        withUnsafeMutablePointer(to: &records) { list in
            enumerate(collectConformanceRecords, UnsafeMutableRawPointer(list))
        }
        return records
    }

    /// Appends the records of one image's conformance section to the list at `context`.
    static let collectConformanceRecords: ConformanceRuntime.SectionVisitor = { sections, context in
        // MetadataSections: version, reserved, next, prev, then {start, length} ranges:
        // swift5_protocols, swift5_protocol_conformances, ...
        let word = MemoryLayout<UInt>.size
        let start = sections.load(fromByteOffset: 6 * word, as: UInt.self)
        let length = sections.load(fromByteOffset: 7 * word, as: Int.self)
        guard let base = UnsafeRawPointer(bitPattern: start), length > 0 else { return true }
        let list = context.assumingMemoryBound(to: [ConformanceRecordFacts].self)
        for index in 0..<(length / 4) {
            // Each entry is a relative pointer to a conformance descriptor.
            let entry = base + index * 4
            if let record = ProtocolConformanceRecords.read(entry + Int(entry.load(as: Int32.self))) {
                list.pointee.append(record)
            }
        }
        return true
    }

    /// One TargetProtocolConformanceDescriptor: protocol (relative, indirectable), type reference
    /// (relative, kind in the flags), witness table pattern, flags.
    private static func read(_ descriptor: UnsafeRawPointer) -> ConformanceRecordFacts? {
        let flags = descriptor.load(fromByteOffset: 12, as: UInt32.self)
        let typeReferenceKind = (flags >> 3) & 0x7
        guard let protocolDescriptor = indirectable(descriptor) else { return nil }
        let typeField = descriptor + 4
        let typeOffset = Int(typeField.load(as: Int32.self))
        guard typeOffset != 0 else { return nil }
        let typeDescriptor: UnsafeRawPointer
        switch typeReferenceKind {
        case 0:  // DirectTypeDescriptor
            typeDescriptor = typeField + typeOffset
        case 1:  // IndirectTypeDescriptor
            guard let pointer = (typeField + typeOffset).load(as: UnsafeRawPointer?.self) else { return nil }
            typeDescriptor = pointer
        default:  // Objective-C class names and classes: none on Linux
            return nil
        }
        return ConformanceRecordFacts(
            typeDescriptor: typeDescriptor,
            protocolDescriptor: protocolDescriptor,
            isRetroactive: flags & (1 << 6) != 0,
            conditionalRequirementCount: Int((flags >> 8) & 0xFF)
        )
    }

    /// A relative pointer whose low bit says the target holds the address (RelativeIndirectablePointer).
    private static func indirectable(_ field: UnsafeRawPointer) -> UnsafeRawPointer? {
        let raw = Int(field.load(as: Int32.self))
        guard raw != 0 else { return nil }
        if raw & 1 == 0 { return field + raw }
        return (field + (raw & ~1)).load(as: UnsafeRawPointer?.self)
    }

    /// Whether the type whose metadata is `metadata` conforms to the protocol (the runtime's answer,
    /// conditional requirements checked).
    static func conforms(_ metadata: Any.Type, to protocolDescriptor: UnsafeRawPointer) -> Bool {
        guard let conforms = ConformanceRuntime.shared.conformsToProtocol else { return false }
        return conforms(unsafeBitCast(metadata, to: UnsafeRawPointer.self), protocolDescriptor) != nil
    }

    /// The existential type `any P` for a protocol descriptor.
    static func existentialType(of protocolDescriptor: UnsafeRawPointer) -> Any.Type? {
        guard let make = ConformanceRuntime.shared.existentialMetadata else { return nil }
        // ProtocolContextDescriptorFlags (kind-specific flags): bit 0 is the class constraint,
        // 0 for class-bound protocols, 1 for any (ProtocolClassConstraint uses the same values).
        let flags = protocolDescriptor.load(as: UInt32.self)
        guard ContextDescriptorKind(flags: flags) == .protocol else { return nil }
        let classConstraint = UInt8((flags >> 16) & 1)
        let metadata = withUnsafePointer(to: protocolDescriptor) { make(classConstraint, nil, 1, $0) }
        return unsafeBitCast(metadata, to: Any.Type.self)
    }

    /// The type descriptors of a type and, for classes, its superclasses (own first).
    static func descriptors(of type: Any.Type) -> [(type: Any.Type, descriptor: UnsafeRawPointer)] {
        var result: [(Any.Type, UnsafeRawPointer)] = []
        var current: Any.Type? = type
        while let candidate = current {
            let reader = MetadataReader(candidate)
            if let descriptor = reader.descriptor { result.append((candidate, descriptor)) }
            current = reader.superclass
        }
        return result
    }
}
