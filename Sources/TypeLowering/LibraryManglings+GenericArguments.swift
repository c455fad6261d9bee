import TypeLayout

extension LibraryManglings {
    /// The generic arguments of one instantiation as the reflection library binds them
    /// (`swift_reflection_genericArgumentOfTypeRef`), each a mangling that stands on its own,
    /// confirmed by the runtime's demangler to be the instantiation's arguments at depth 0: the
    /// instantiation's name is its generic type's name, with no generic type around it, followed
    /// by exactly these arguments' names.
    public struct GenericArguments: Sendable, Equatable {
        /// Each argument's mangling (without `$s`), by the index of its generic parameter.
        public let manglings: [String]
        /// Each argument's name, as the runtime's demangler spells it.
        public let names: [String]

        /// The arguments `arguments` of the instantiation `instantiation` (both as the library
        /// mangles them, without `$s`), or why they are not confirmed as its own.
        public static func confirmed(instantiation: String?, arguments: [String?]) -> Result<GenericArguments, Unbound> {
            guard let instantiation, let name = SwiftDemangler.demangle(symbol: "$s" + instantiation + "D") else {
                return .failure(Unbound("the reflection library does not name the instantiation that holds it"))
            }
            let manglings = arguments.compactMap { $0 }
            let names = manglings.compactMap { SwiftDemangler.demangle(symbol: "$s" + $0 + "D") }
            guard !arguments.isEmpty, manglings.count == arguments.count, names.count == manglings.count else {
                return .failure(Unbound("the reflection library does not name every generic argument of \(name)"))
            }
            if let garbled = names.first(where: isGarbledConstraint) {
                return .failure(
                    Unbound("its instantiation's generic argument \(garbled) is itself spelled wrongly by the reflection library"))
            }
            let list = "<" + names.joined(separator: ", ") + ">"
            guard name.hasSuffix(list), name.count > list.count else {
                return .failure(Unbound("the generic arguments the reflection library gives do not spell \(name)"))
            }
            // A type nested in a generic type: the enclosing type's arguments are not among them.
            guard !name.dropLast(list.count).contains("<") else {
                return .failure(
                    Unbound(
                        "\(name) is nested in a generic type, whose generic arguments the reflection library does not give"))
            }
            return .success(GenericArguments(manglings: manglings, names: names))
        }
    }

    /// Why a requirement on a generic parameter was not bound to the instantiation's argument.
    public struct Unbound: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// `mangling`, the type the library spelled for a field of an instantiation, with each
    /// parameterized existential's requirement that the library left on the generic type's
    /// parameter (`any P<A.P.Assoc == B>`: `q_ Assoc … Rtz`) spelled on `Self` and bound to the
    /// instantiation's argument for that parameter (`any P<Self.P.Assoc == Arg>`:
    /// `Arg Assoc … Rts`), as the runtime names the field's type.
    ///
    /// The library spells the parameter of every such requirement it printed so far as the first
    /// (`x`), whichever it is: `x` is bound only in an instantiation of one argument.
    ///
    /// Each requirement is rewritten only where the runtime's demangler confirms that the
    /// rewrite turned exactly one `A.P.Assoc == B` (`B` the parameter's name: `A`, `B`, … at
    /// depth 0) into `Self.P.Assoc == Arg` and changed nothing else.
    ///
    /// - Parameters:
    ///   - mangling: the field's type mangling without `$s`, as ``corrected(_:)`` left it.
    ///   - arguments: the confirmed generic arguments of the instantiation that holds the field.
    /// - Returns: the corrected mangling, or nil when no requirement is, or one is not, confirmed.
    public static func correctedRequirements(_ mangling: String, arguments: GenericArguments) -> String? {
        var current = mangling
        while current.contains("Rtz") {
            guard let next = boundOneRequirement(current, arguments) else { return nil }
            current = next
        }
        return current == mangling ? nil : current
    }

    /// `mangling` with one `Rtz` requirement bound to its argument, where confirmed.
    private static func boundOneRequirement(_ mangling: String, _ arguments: GenericArguments) -> String? {
        guard let oldName = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else { return nil }
        let bytes = Array(mangling.utf8)
        for requirement in bytes.indices.dropLast(2)
        where bytes[requirement] == UInt8(ascii: "R") && bytes[requirement + 1] == UInt8(ascii: "t")
            && bytes[requirement + 2] == UInt8(ascii: "z")
        {
            for start in bytes.indices.prefix(requirement) {
                // The library spells any parameter here as the first (`x`): only one argument makes it certain.
                guard let (index, length) = parameter(in: bytes, at: start), start + length <= requirement,
                    index < arguments.manglings.count, index < 26, index > 0 || arguments.manglings.count == 1
                else { continue }
                var candidate = bytes
                candidate.replaceSubrange(requirement..<(requirement + 3), with: Array("Rts".utf8))
                candidate.replaceSubrange(start..<(start + length), with: Array(arguments.manglings[index].utf8))
                let new = String(decoding: candidate, as: UTF8.self)
                let parameterName = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index)))
                guard let newName = SwiftDemangler.demangle(symbol: "$s" + new + "D"),
                    isOneParameterRequirementBound(oldName, newName, parameter: parameterName, argument: arguments.names[index])
                else { continue }
                return new
            }
        }
        return nil
    }

    /// The depth-0 generic parameter a mangling spells at `start` (`x`: 0, `q_`: 1, `qN_`: N + 2)
    /// and how many bytes it takes; nil when none starts there (a deeper one, `qd…`, included).
    static func parameter(in bytes: [UInt8], at start: Int) -> (index: Int, length: Int)? {
        if bytes[start] == UInt8(ascii: "x") { return (0, 1) }
        guard bytes[start] == UInt8(ascii: "q"), start + 1 < bytes.count else { return nil }
        if bytes[start + 1] == UInt8(ascii: "_") { return (1, 2) }
        var end = start + 1
        var number = 0
        while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9"), number < 1_000 {
            number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
            end += 1
        }
        guard end > start + 1, end < bytes.count, bytes[end] == UInt8(ascii: "_") else { return nil }
        return (number + 2, end + 1 - start)
    }

    /// Whether `new` is `old` with exactly one requirement `A.M == parameter` (the requirement's
    /// subject, `Self`, named as the first generic parameter) written `Self.M == argument`.
    static func isOneParameterRequirementBound(_ old: String, _ new: String, parameter: String, argument: String) -> Bool {
        let text = Array(old.utf8)
        let equals = Array(" == \(parameter)".utf8)
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
