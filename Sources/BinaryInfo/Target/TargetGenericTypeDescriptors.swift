import TypeLayout

/// The generic structs, enums and classes a target's Swift images list in `swift5_type_metadata`,
/// by the runtime's name of each one's descriptor (`nominal type descriptor for
/// LiveShapes.EndpointResponders`), read from the target's memory: what finds a generic type's
/// descriptor, and with it its field records, where no symbol names it (a stripped image).
///
/// A descriptor is named from its context chain alone: its own name under its parents', each a
/// module or a struct, enum or class. One with an extension, an anonymous context (a private or
/// local type) or anything else in its chain is left out, since its name cannot be spelled
/// exactly from the descriptors; a name two descriptors give is left out too.
public struct TargetGenericTypeDescriptors: Sendable {
    /// Descriptor addresses by the demangled name of their descriptor symbol.
    private let byName: [String: UInt64]

    /// Reads the type lists of `memory`'s Swift images.
    ///
    /// - Throws: ``BinaryInfoError`` when a list itself cannot be read from the target (a record
    ///   whose descriptor cannot be read is left out).
    public init(memory: TargetMemory) throws(BinaryInfoError) {
        let reader = CachingReader(memory, policy: .imageSections)
        var found: [String: UInt64] = [:]
        var ambiguous: Set<String> = []
        for image in memory.images {
            guard let list = image.section("swift5_type_metadata") else { continue }
            let count = UInt64(list.count) / 4
            guard count <= SwiftClassRecognizer.maximumTypeRecords else {
                throw BinaryInfoError.malformedRecord(
                    path: memory.path, what: "swift5_type_metadata of \(image.filePath)", address: list.lowerBound,
                    detail: "\(count) records")
            }
            for index in 0..<count {
                let record = list.lowerBound + index * 4
                guard let descriptor = try? Self.descriptor(listedAt: record, reader),
                    let flags = try? reader.read(UInt32.self, at: descriptor, what: "type descriptor flags"),
                    flags & ContextDescriptorKind.isGenericFlag != 0,
                    let kind = ContextDescriptorKind(flags: flags), [.struct, .enum, .class].contains(kind),
                    let mangling = Self.mangling(ofContextAt: descriptor, reader, depth: 0),
                    let name = SwiftDemangler.demangle(symbol: "$s" + mangling + "Mn")
                else { continue }
                if let known = found[name], known != descriptor { ambiguous.insert(name) }
                found[name] = descriptor
            }
        }
        for name in ambiguous { found[name] = nil }
        byName = found
    }

    /// The descriptor whose symbol the runtime's demangler names `name` (`nominal type descriptor
    /// for LiveShapes.EndpointResponders`), or nil when none or several are.
    public func descriptor(demangledSymbol name: String) -> UInt64? { byName[name] }

    /// The descriptor a `swift5_type_metadata` record points at: directly, or through a pointer
    /// (the record's low two bits; other kinds name no Swift descriptor).
    private static func descriptor(listedAt record: UInt64, _ reader: some ByteReader) throws(BinaryInfoError) -> UInt64? {
        let raw = try reader.read(Int32.self, at: record, what: "type metadata record")
        guard raw & 3 <= 1, let target = try reader.apply(offset: Int64(raw & ~3), to: record, what: "type metadata record") else {
            return nil
        }
        return raw & 3 == 1 ? try reader.read(UInt64.self, at: target, what: "indirect type descriptor") : target
    }

    /// The mangling of the context at `address` (`10LiveShapes18EndpointRespondersV`), spelled
    /// only from modules and nominal types; nil for any other context in the chain.
    private static func mangling(ofContextAt address: UInt64, _ reader: some ByteReader, depth: Int) -> String? {
        guard depth < SwiftImage.maximumChainDepth,
            let flags = try? reader.read(UInt32.self, at: address, what: "context descriptor flags"),
            let kind = ContextDescriptorKind(flags: flags),
            // An imported C type (flag 0x4) is spelled by its import info: not one of these.
            flags & 0x4_0000 == 0,
            let nameAddress = try? reader.relativeTarget(at: address &+ 8, what: "context name"),
            let name = try? reader.cString(at: nameAddress, what: "context name"), !name.isEmpty
        else { return nil }
        switch kind {
        case .module:
            return name == "Swift" ? "s" : SwiftImage.identifier(name)
        case .struct, .enum, .class:
            guard let parent = try? parent(of: address, reader),
                let parentMangling = mangling(ofContextAt: parent, reader, depth: depth + 1)
            else { return nil }
            return parentMangling + SwiftImage.identifier(name) + (kind == .struct ? "V" : kind == .class ? "C" : "O")
        default:
            return nil
        }
    }

    /// The parent context of the descriptor at `address` (a relative indirectable pointer: bit
    /// 0 set means the target is a slot holding the parent's address).
    private static func parent(of address: UInt64, _ reader: some ByteReader) throws(BinaryInfoError) -> UInt64? {
        let raw = try reader.read(Int32.self, at: address &+ 4, what: "context descriptor parent")
        guard let target = try reader.apply(offset: Int64(raw & ~1), to: address &+ 4, what: "context descriptor parent") else {
            return nil
        }
        return raw & 1 != 0 ? try reader.read(UInt64.self, at: target, what: "context descriptor parent slot") : target
    }
}
