import BinaryInfo
import TypeLayout
import TypeLowering

extension BinaryLayoutReader {
    /// Reads the types `names` ask for, as `typeinfo layout --type` does: for each name, the
    /// type with exactly that qualified name; else those whose name contains it or that a
    /// `/REGEX/` matches; else, for a generic instantiation the file does not define
    /// (`Module.Wrapper<Swift.Int>`, `T?`, or a mangled `$s…` name), its computed layout.
    ///
    /// - Returns: the named types in the order asked, each once; with no names, every type.
    /// - Throws: ``LayoutReadingError/noTypeMatches(path:name:)``, ``LayoutReadingError/cannotLayOut(path:name:reason:)``,
    ///   or a reading error.
    public static func read(path: String, typeNames names: [String], options: LayoutReadOptions = LayoutReadOptions())
        throws(LayoutReadingError) -> LayoutReadResult
    {
        guard !names.isEmpty else { return try readAll(path: path, options: options) }
        if options.selectionReachesReaders, !options.wantsFileNotes {
            // Every type a name can select matches the names as patterns (an exact name contains
            // itself): read just those, and fall back to the whole reading only for a name that
            // selects none (an instantiation is found through the fields of every type).
            let patterns: TypeFilter
            do {
                patterns = try TypeFilter(typePatterns: names)
            } catch {
                throw .invalidSelection(error)
            }
            let selected = try readSelected(path: path, selection: patterns, options: options)
            if let chosen = try? choose(names, among: selected.document.types, path: path, options: options, allowInstantiations: false) {
                var result = selected
                result.relatedTypes = related(to: chosen, in: selected.document.types + selected.relatedTypes)
                result.document.types = chosen
                return result
            }
        }
        var full = try readAll(path: path, options: options)
        let chosen = try choose(names, among: full.document.types, path: path, options: options, allowInstantiations: true)
        full.relatedTypes = related(to: chosen, in: full.document.types)
        full.document.types = chosen
        return full
    }

    /// The types `names` pick among `types`, in the order asked, each once.
    private static func choose(
        _ names: [String], among types: [TypeLayout], path: String, options: LayoutReadOptions, allowInstantiations: Bool
    ) throws(LayoutReadingError) -> [TypeLayout] {
        var chosen: [TypeLayout] = []
        for name in names {
            var matches = types.filter { $0.name == name }
            if matches.isEmpty {
                let filter: TypeFilter
                do {
                    filter = try TypeFilter(typePatterns: [name])
                } catch {
                    throw .invalidSelection(error)
                }
                matches = types.filter(filter.matches)
            }
            if matches.isEmpty, allowInstantiations, name.hasPrefix("$s") || name.contains("<") || name.hasSuffix("?") {
                let (instantiation, reason) = Self.instantiation(named: name, path: path, types: types, options: options)
                guard let instantiation else { throw .cannotLayOut(path: path, name: name, reason: reason) }
                matches = [instantiation]
            }
            if matches.isEmpty { throw .noTypeMatches(path: path, name: name) }
            chosen += matches.filter { match in !chosen.contains(match) }
        }
        return chosen
    }

    /// The layout of a type the file does not define but can lay out: a bound generic
    /// instantiation named by its mangling (`$s…`) or by the name the file's own fields print.
    /// Nil, with a reason, when neither works.
    static func instantiation(named name: String, path: String, types: [TypeLayout], options: LayoutReadOptions) -> (TypeLayout?, String) {
        guard options.computesLayouts else { return (nil, "computed layouts are off (--no-computed-layouts)") }
        let mangling = name.hasPrefix("$s") ? name : ComputedLayouts.mangling(ofTypeNamed: name, in: types)
        guard let mangling else {
            return (nil, "no field in the file has that type; give its mangled name ($s…) to lay it out")
        }
        if let declaration = singleCasePayloadEnum(boundBy: mangling, among: types) {
            return (
                nil,
                "\(declaration.name) is a single-case enum with a payload, which the reflection library lowers as the payload itself: its layout as an enum is not known"
            )
        }
        let dependencies = runtimeLibraries(forFileAt: path, options)
        let (layout, notes) = ComputedLayouts.instantiation(
            mangledName: mangling, forFileAt: path, dependencies: dependencies.paths, configuration: loweringConfiguration(options))
        return (layout, notes.last?.text ?? "")
    }

    /// The file's generic single-case enum with a payload that `mangling` binds: `6GenFix3OneOySiG`
    /// starts with `6GenFix3OneO` then `y` (its arguments), and its name without arguments is the
    /// declaration's (`GenFix.One`; not `GenFix.One?`, an Optional the library lays out as one).
    static func singleCasePayloadEnum(boundBy mangling: String, among types: [TypeLayout]) -> TypeLayout? {
        let bare = mangling.hasPrefix("$s") ? String(mangling.dropFirst(2)) : mangling
        guard let name = SwiftDemangler.typeName(mangling: bare) else { return nil }
        return types.first { type in
            guard type.kind == .enum, type.cases.count == 1, type.cases[0].payloadType != nil,
                let declaration = type.nominalMangledName, bare.hasPrefix(declaration + "y")
            else { return false }
            return withoutGenericArguments(name) == withoutGenericArguments(type.name)
        }
    }

    /// `name` with every `<…>` group removed.
    static func withoutGenericArguments(_ name: String) -> String {
        var depth = 0
        var result = ""
        for character in name {
            if character == "<" {
                depth += 1
            } else if character == ">", depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }
}
