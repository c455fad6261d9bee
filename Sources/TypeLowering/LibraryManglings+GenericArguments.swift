import TypeLayout

extension LibraryManglings {
    /// `mangling`, the type the library spelled for a field of the instantiation `instantiation`,
    /// with each parameterized existential's requirement that the library left on the generic
    /// type's parameter (`any P<A.P.Assoc == A>`: `x Assoc … Rtz`) spelled on `Self` and bound to
    /// the instantiation's argument (`any P<Self.P.Assoc == Arg>`: `Arg Assoc … Rts`), as the
    /// runtime names the field's type.
    ///
    /// Only an instantiation of one generic argument (`A`, `x`) is corrected, and only where the
    /// runtime's demangler confirms each step: that the argument spelled on its own
    /// (`AA12BasicContextV` with its module written out) rebuilds the instantiation's name, and
    /// that the rewrite turned exactly one `A.P.Assoc == A` into `Self.P.Assoc == Arg` and changed
    /// nothing else.
    ///
    /// - Parameters:
    ///   - mangling: the field's type mangling without `$s`, as ``corrected(_:)`` left it.
    ///   - instantiation: the mangling of the generic type's instantiation that holds the field.
    /// - Returns: the corrected mangling, or nil when no such correction is confirmed.
    public static func correctedRequirements(_ mangling: String, inInstantiation instantiation: String) -> String? {
        guard mangling.contains("Rtz"), let argument = standaloneArgument(of: instantiation),
            let oldName = SwiftDemangler.demangle(symbol: "$s" + mangling + "D")
        else { return nil }
        let bytes = Array(mangling.utf8)
        let argumentBytes = Array(argument.mangling.utf8)
        for requirement in bytes.indices.dropLast(2)
        where bytes[requirement] == UInt8(ascii: "R") && bytes[requirement + 1] == UInt8(ascii: "t")
            && bytes[requirement + 2] == UInt8(ascii: "z")
        {
            for parameter in bytes.indices.prefix(requirement) where bytes[parameter] == UInt8(ascii: "x") {
                var candidate = bytes
                candidate.replaceSubrange(requirement..<(requirement + 3), with: Array("Rts".utf8))
                candidate.replaceSubrange(parameter...parameter, with: argumentBytes)
                let new = String(decoding: candidate, as: UTF8.self)
                guard let newName = SwiftDemangler.demangle(symbol: "$s" + new + "D"),
                    isOneParameterRequirementBound(oldName, newName, argument: argument.name)
                else { continue }
                return new
            }
        }
        return nil
    }

    /// The one generic argument of `instantiation`, spelled so that it stands on its own (its
    /// module written out where the instantiation refers back to it), and its name; nil when the
    /// instantiation has another number of arguments or no spelling is confirmed.
    static func standaloneArgument(of instantiation: String) -> (mangling: String, name: String)? {
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

    /// Whether `new` is `old` with exactly one requirement `A.M == A` (on the generic type's
    /// parameter) written `Self.M == argument`.
    static func isOneParameterRequirementBound(_ old: String, _ new: String, argument: String) -> Bool {
        let text = Array(old.utf8)
        let equals = Array(" == A".utf8)
        var index = 0
        while index + equals.count < text.count {
            defer { index += 1 }
            guard text[index..<(index + equals.count)].elementsEqual(equals),
                text[index + equals.count] == UInt8(ascii: ">") || text[index + equals.count] == UInt8(ascii: ",")
            else { continue }
            // The subject starts after the nearest `<` or `, ` before it, and is `A.`.
            var start = index
            while start > 0, text[start - 1] != UInt8(ascii: "<"), text[start - 1] != UInt8(ascii: " ") { start -= 1 }
            guard text[start...].starts(with: "A.".utf8) else { continue }
            var rewritten: [UInt8] = Array(text[..<start])
            rewritten += "Self.".utf8
            rewritten += text[(start + 2)..<index]
            rewritten += " == ".utf8
            rewritten += argument.utf8
            rewritten += text[(index + equals.count)...]
            if rewritten.elementsEqual(new.utf8) { return true }
        }
        return false
    }
}
