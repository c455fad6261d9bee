import BinaryInfo
import TypeLayout

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

    /// The one generic argument of `instantiation`, spelled so that it stands on its own (its
    /// module written out where the instantiation refers back to it), and its name; nil when the
    /// instantiation has another number of arguments or no spelling is confirmed.
    private static func standaloneArgument(of instantiation: String) -> (mangling: String, name: String)? {
        guard instantiation.hasSuffix("G"), let name = SwiftDemangler.demangle(symbol: "$s" + instantiation + "D") else { return nil }
        let bytes = Array(instantiation.utf8)
        let descriptorPrefix = "nominal type descriptor for "
        for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "y") {
            let nominal = String(decoding: bytes[..<index], as: UTF8.self)
            guard let text = SwiftDemangler.demangle(symbol: "$s" + nominal + "Mn"), text.hasPrefix(descriptorPrefix) else { continue }
            let nominalName = String(text.dropFirst(descriptorPrefix.count))
            guard name.hasPrefix(nominalName + "<"), name.hasSuffix(">") else { continue }
            let argumentName = String(name.dropFirst(nominalName.count + 1).dropLast())
            let argument = String(decoding: bytes[(index + 1)..<(bytes.count - 1)], as: UTF8.self)
            // The argument as it is, or with a reference back to the module (`AA`) written out.
            var candidates = [argument]
            if argument.hasPrefix("AA"), let module = leadingModule(of: nominal) { candidates.append(module + argument.dropFirst(2)) }
            for candidate in candidates {
                // One type, named as the instantiation names its argument, which it rebuilds alone.
                guard SwiftDemangler.demangle(symbol: "$s" + candidate + "D") == argumentName,
                    SwiftDemangler.demangle(symbol: "$s" + nominal + "y" + candidate + "GD") == name
                else { continue }
                return (candidate, argumentName)
            }
            return nil
        }
        return nil
    }

    /// The module identifier a nominal type's mangling starts with (`10LiveShapes`), `s` for the
    /// standard library's.
    private static func leadingModule(of nominal: String) -> String? {
        if nominal.hasPrefix("s") { return "s" }
        let digits = nominal.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0, nominal.utf8.count >= digits.count + length else { return nil }
        return String(nominal.prefix(digits.count + length))
    }
}
