import BinaryInfo

extension TargetInspector {
    /// The manglings (without `$s`) of class metadata records' types, as libswiftRemoteMirror
    /// spells them (corrected as ``typeName(libraryMangling:)`` corrects them): what a generic
    /// class's arguments are read from.
    ///
    /// - Parameter addresses: metadata addresses; one that is not a Swift class's metadata is
    ///   never passed to the library and has no mangling in the result.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func manglings(ofMetadata addresses: [UInt64]) throws(TypeLoweringError) -> [UInt64: String] {
        try checkReadable()
        let valid = Set(addresses.filter { classMetadata(at: $0) != nil })
        guard !valid.isEmpty else { return [:] }
        var manglings: [UInt64: String] = [:]
        try ask(valid.sorted().map { .name($0) }) { reply in
            if case .name(let address, let mangling?) = reply { manglings[address] = LibraryManglings.corrected(mangling) }
        }
        return manglings
    }
}

extension LibraryManglings {
    /// The one generic argument of `instantiation` (a mangling without `$s`, `Sa…G`), spelled so
    /// that it stands on its own; nil when it has another number of arguments, or when the
    /// runtime's demangler does not confirm that the argument alone rebuilds the instantiation.
    public static func soleGenericArgument(of instantiation: String) -> String? {
        standaloneArgument(of: instantiation)?.mangling
    }
}
