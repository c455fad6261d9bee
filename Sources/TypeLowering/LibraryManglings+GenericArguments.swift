import TypeLayout

extension LibraryManglings {
    /// The generic arguments of one instantiation as the reflection library binds them
    /// (`swift_reflection_genericArgumentOfTypeRef`: those of the type's own parameters, not of
    /// the generic types it is nested in), each a mangling that stands on its own, confirmed by the
    /// runtime's demangler to be the instantiation's own: its name ends with exactly these
    /// arguments' names.
    public struct GenericArguments: Sendable, Equatable {
        /// Each argument's mangling (without `$s`), by the index of its generic parameter.
        public let manglings: [String]
        /// Each argument's name, as the runtime's demangler spells it.
        public let names: [String]
        /// The depth of the parameters they bind: 0, or for a type nested in generic types, the
        /// number of those that declare parameters (`Outer<A>.Inner<A1>`: 1).
        public var depth = 0

        /// The arguments `arguments` of the instantiation `instantiation` (both as the library
        /// mangles them, without `$s`), or why they are not confirmed as its own.
        ///
        /// - Parameter ownParameters: the depth and count of the generic type's own parameters as
        ///   its descriptors state them (``TargetInspector/ownGenericParameters(ofDescriptor:)``);
        ///   without it, only a type nested in no generic type is confirmed.
        public static func confirmed(
            instantiation: String?, arguments: [String?], ownParameters: (depth: Int, count: Int)? = nil
        ) -> Result<GenericArguments, Unbound> {
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
            if let ownParameters, ownParameters.count != manglings.count {
                return .failure(
                    Unbound("its generic type declares \(ownParameters.count) parameters of its own, and \(name) has \(manglings.count)"))
            }
            // A type nested in a generic type: the enclosing type's arguments are not among them,
            // and its own are at the depth its descriptors state.
            let isNested = name.dropLast(list.count).contains("<")
            guard isNested == ((ownParameters?.depth ?? 0) > 0) else {
                return .failure(
                    Unbound(
                        isNested
                            ? "\(name) is nested in a generic type, and the depth of its own generic parameters is not known"
                            : "its generic type's descriptors state its parameters at depth \(ownParameters?.depth ?? 0), and \(name) is nested in no generic type"
                    ))
            }
            var confirmed = GenericArguments(manglings: manglings, names: names)
            confirmed.depth = ownParameters?.depth ?? 0
            return .success(confirmed)
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
    /// The library spells such a requirement's parameter as the existential's own generalization
    /// parameter (`x` the first, `q_` the second: the existential shape's, not the generic type's),
    /// so `arguments` are the existential's generalization arguments, bound to the instantiation
    /// by the compiler's field record (``GenericArguments/ofExistential(recordArguments:in:)``).
    ///
    /// Each requirement is rewritten only where the runtime's demangler confirms that the
    /// rewrite turned exactly one `A.P.Assoc == B` (`B` the parameter's name: `A`, `B`, … at
    /// depth 0) into `Self.P.Assoc == Arg` and changed nothing else.
    ///
    /// - Parameters:
    ///   - mangling: the field's type mangling without `$s`, as ``corrected(_:)`` left it.
    ///   - arguments: the arguments of the existential's generalization parameters, each the
    ///     instantiation's argument the field record names for it.
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
                guard let (index, length) = parameter(in: bytes, at: start), start + length <= requirement,
                    index < arguments.manglings.count, index < 26
                else { continue }
                var candidate = bytes
                candidate.replaceSubrange(requirement..<(requirement + 3), with: Array("Rts".utf8))
                candidate.replaceSubrange(start..<(start + length), with: Array(arguments.manglings[index].utf8))
                let new = String(decoding: candidate, as: UTF8.self)
                let parameterName = String(UnicodeScalar(UInt8(ascii: "A") + UInt8(index)))
                func isBound(_ newName: String) -> Bool {
                    isOneParameterRequirementBound(oldName, newName, parameter: parameterName, argument: arguments.names[index])
                }
                if let newName = SwiftDemangler.demangle(symbol: "$s" + new + "D"), isBound(newName) { return new }
                // The argument's entries in the demangler's substitution table shift the back-references after it.
                let argument = arguments.manglings[index]
                guard let cost = ManglingRenumbering.substitutionCost(of: argument) else { continue }
                for extra in cost > 1 ? [cost, cost - 1] : [cost] where extra > 0 {
                    let insertion = (position: start, extra: extra)
                    if let renumbered = ManglingRenumbering.renumbered(
                        new, insertions: [insertion], from: start + argument.utf8.count, accepts: isBound)
                    {
                        return renumbered
                    }
                }
            }
        }
        return nil
    }

    /// The depth-0 generic parameter a mangling spells at `start` (`x`: 0, `q_`: 1, `qN_`: N + 2)
    /// and how many bytes it takes; nil when none starts there (a deeper one, `qd…`, included).
    static func parameter(in bytes: [UInt8], at start: Int) -> (index: Int, length: Int)? {
        guard let found = parameterReference(in: bytes, at: start), found.depth == 0 else { return nil }
        return (found.index, found.length)
    }

    /// The generic parameter a mangling spells at `start` (Mangling.rst: `x` is (0, 0), `q INDEX`
    /// (0, INDEX + 1), `qd INDEX INDEX` (INDEX + 1, INDEX), an INDEX `_` for 0 or `N_` for N + 1)
    /// and how many bytes it takes; nil when none starts there.
    static func parameterReference(in bytes: [UInt8], at start: Int) -> (depth: Int, index: Int, length: Int)? {
        guard start < bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "x") { return (0, 0, 1) }
        guard bytes[start] == UInt8(ascii: "q"), start + 1 < bytes.count else { return nil }
        if bytes[start + 1] == UInt8(ascii: "d") {
            guard let (depth, afterDepth) = mangledIndex(in: bytes, at: start + 2),
                let (index, end) = mangledIndex(in: bytes, at: afterDepth)
            else { return nil }
            return (depth + 1, index, end - start)
        }
        guard let (index, end) = mangledIndex(in: bytes, at: start + 1) else { return nil }
        return (0, index + 1, end - start)
    }

    /// The INDEX at `start` (`_` 0, `N_` N + 1) and where it ends.
    private static func mangledIndex(in bytes: [UInt8], at start: Int) -> (value: Int, end: Int)? {
        var end = start
        var number = 0
        while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9"), number < 1_000 {
            number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "_") else { return nil }
        return (end == start ? 0 : number + 1, end + 1)
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
