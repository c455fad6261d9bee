extension SwiftImage {
    /// `InvertibleProtocolSet` bit for `Copyable` (InvertibleProtocols.def: `Copyable` is 0).
    static let suppressedCopyableBit: UInt16 = 1 << 0
    /// `GenericContextDescriptorFlags::HasConditionalInvertedProtocols`.
    static let hasConditionalInvertedProtocolsFlag: UInt16 = 1 << 1

    /// Whether the runtime's lookup by textual mangling refuses the type a context reference
    /// names: the runtime returns a noncopyable type only through a symbolic reference (checked
    /// against the runtime: `struct NC: ~Copyable` does not resolve by name; a `~Escapable` type
    /// and a conditionally copyable `G<Int>` do).
    ///
    /// A non-generic struct or enum says so in its trailing `InvertibleProtocolSet`, after the
    /// descriptor's fixed part and its metadata initialization record (Metadata.h, trailing
    /// objects of `TargetStructDescriptor`/`TargetEnumDescriptor`). A generic type that suppresses
    /// an invertible protocol without a condition is counted too, whichever protocol it is: the
    /// set then lies past the generic requirements, and an unknown mangling is never false.
    func refusesLookupByName(_ context: ContextDescriptor) throws(BinaryInfoError) -> Bool {
        guard context.suppressesInvertibleProtocols, let kind = context.kind else { return false }
        let fixedPart: UInt64
        switch kind {
        case .struct, .enum: fixedPart = 28
        case .class: fixedPart = 44
        default: return false
        }
        if context.isGeneric {
            // TypeGenericContextDescriptorHeader: instantiation cache, default pattern, then
            // parameter, requirement and key argument counts and the flags.
            let flags = try space.read(UInt16.self, at: context.address &+ fixedPart &+ 14, what: "generic context flags")
            return flags & Self.hasConditionalInvertedProtocolsFlag == 0
        }
        guard kind != .class else { return true }
        let initialization: UInt64
        switch context.metadataInitialization {
        case Self.foreignMetadataInitialization: initialization = 4
        case 1: initialization = 12  // singleton: cache, incomplete metadata, completion function
        default: initialization = 0
        }
        let suppressed = try space.read(UInt16.self, at: context.address &+ fixedPart &+ initialization, what: "invertible protocol set")
        return suppressed & Self.suppressedCopyableBit != 0
    }
}
