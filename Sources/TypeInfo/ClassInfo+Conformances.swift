/// A protocol a type conforms to in the running process.
public struct ProtocolConformanceInfo: Sendable, CustomStringConvertible {
    /// The protocol's qualified name, as the runtime spells the existential (`Swift.Equatable`).
    public let protocolName: String
    /// The existential type `any P`.
    public let protocolType: Any.Type
    /// The type whose conformance record this is: the type itself, or the superclass a class
    /// inherits the conformance from.
    public let declaringType: Any.Type
    /// The record says the conformance is declared in a module that owns neither the type nor
    /// the protocol (`@retroactive`).
    public let isRetroactive: Bool
    /// The conformance has conditional requirements (`extension Array: Equatable where Element: Equatable`),
    /// which this type satisfies.
    public let isConditional: Bool

    public var description: String { protocolName }
}

extension ClassInfo {
    /// The protocols this type conforms to, from the conformance records of every Swift image
    /// loaded in the process (the records an on-disk dump lists), each confirmed by the
    /// runtime's own `swift_conformsToProtocol`, so conditional conformances appear only when
    /// this type meets their conditions. Classes include the conformances of their superclasses.
    ///
    /// Marker protocols (`Sendable`, `Copyable`) have no records and are not listed. The records
    /// are scanned on every call (a few thousand in a typical process): not for a hot loop.
    /// - Returns: the conformances sorted by protocol name, or nil when the runtime does not
    ///   export what is needed to enumerate them (then nothing is claimed).
    public func conformances() -> [ProtocolConformanceInfo]? {
        guard ConformanceRuntime.shared.isAvailable, let records = ProtocolConformanceRecords.all() else { return nil }
        let owners = ProtocolConformanceRecords.descriptors(of: type)
        guard !owners.isEmpty else { return [] }
        var seen = Set<UnsafeRawPointer>()
        var result: [ProtocolConformanceInfo] = []
        for record in records {
            guard let owner = owners.first(where: { $0.descriptor == record.typeDescriptor }),
                !seen.contains(record.protocolDescriptor),
                ProtocolConformanceRecords.conforms(type, to: record.protocolDescriptor),
                let existential = ProtocolConformanceRecords.existentialType(of: record.protocolDescriptor)
            else { continue }
            seen.insert(record.protocolDescriptor)
            result.append(
                ProtocolConformanceInfo(
                    protocolName: String(reflecting: existential),
                    protocolType: existential,
                    declaringType: owner.type,
                    isRetroactive: record.isRetroactive,
                    isConditional: record.conditionalRequirementCount > 0
                ))
        }
        return result.sorted { $0.protocolName < $1.protocolName }
    }
}
