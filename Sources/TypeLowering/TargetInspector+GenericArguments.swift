import BinaryInfo

/// A type the worker is asked about: by its mangling (without `$s`) or by its class metadata.
enum TypeSubject: Sendable, Hashable {
    case mangling(String)
    case metadata(UInt64)

    /// As the wire writes it: the mangling, or the address in hex (`0x…`, which starts no mangling).
    var wireText: String {
        switch self {
        case .mangling(let mangling): return mangling
        case .metadata(let address): return TargetWire.hex(address)
        }
    }

    init?(wireText text: some StringProtocol) {
        if text.hasPrefix("0x") {
            guard let address = TargetWire.address(text) else { return nil }
            self = .metadata(address)
        } else {
            guard TargetWire.isMangling(text) else { return nil }
            self = .mangling(String(text))
        }
    }

    /// An `arguments` reply's text after its keyword: `<type> <its mangling or ?> <count>
    /// <mangling or ?>…` or `<type> ?`.
    static func decodeArguments(_ text: String) -> TargetReply? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count >= 2, let subject = TypeSubject(wireText: parts[0]) else { return nil }
        if parts.count == 2, parts[1] == "?" { return .arguments(subject, nil) }
        guard parts.count >= 3, let count = Int(parts[2]), count >= 0, parts.count == count + 3 else { return nil }
        let manglings = parts.dropFirst().map { $0 == "?" ? nil : String($0) }
        guard manglings.allSatisfy({ $0.map(TargetWire.isMangling) ?? true }) else { return nil }
        return .arguments(subject, LibraryGenericArguments(type: manglings[0], arguments: Array(manglings.dropFirst(2))))
    }
}

/// A type's mangling and its generic arguments, as the reflection library gives them (each
/// without `$s`; nil for one it does not name).
struct LibraryGenericArguments: Sendable, Equatable {
    var type: String?
    var arguments: [String?]
}

extension TargetInspector {
    /// `fields` with each type the library left with a parameterized existential's requirement
    /// on a generic parameter of the instantiation that holds the field (`subject` gives it)
    /// named, the requirement bound to the instantiation's argument where the runtime's
    /// demangler confirms it (``LibraryManglings/correctedRequirements(_:arguments:)``), else
    /// with the reason (``TargetField/requirementUnbound``).
    func bindingRequirements(_ fields: [TargetField], in subject: (TargetField) -> TypeSubject) throws(TypeLoweringError) -> [TargetField] {
        let needing = fields.filter(\.leavesRequirementOnParameter)
        guard !needing.isEmpty else { return fields }
        var found: [TypeSubject: LibraryGenericArguments] = [:]
        var failure: String?
        do {
            let asked = Set(needing.map(subject)).sorted { $0.wireText < $1.wireText }
            try ask(asked.map { .arguments($0) }) { reply in
                if case .arguments(let subject, let arguments?) = reply { found[subject] = arguments }
            }
        } catch {
            if case .target = error { throw error }
            failure = "the lowering worker failed on the question of its instantiation's generic arguments: \(error)"
        }
        var confirmed: [TypeSubject: Result<LibraryManglings.GenericArguments, LibraryManglings.Unbound>] = [:]
        return fields.map { field in
            guard field.leavesRequirementOnParameter, let mangling = field.mangledTypeName else { return field }
            var field = field
            let key = subject(field)
            if confirmed[key] == nil {
                confirmed[key] =
                    found[key].map { LibraryManglings.GenericArguments.confirmed(instantiation: $0.type, arguments: $0.arguments) }
                    ?? .failure(.init(failure ?? "the reflection library gives no generic arguments of the instantiation that holds it"))
            }
            switch confirmed[key] {
            case .success(let arguments)?:
                if let corrected = LibraryManglings.correctedRequirements(mangling, arguments: arguments),
                    let name = typeName(libraryMangling: corrected)
                {
                    field.typeName = name
                    field.mangledTypeName = corrected
                } else if arguments.manglings.count > 1 {
                    field.requirementUnbound =
                        "the reflection library spells any generic parameter here as the first (x), so which of the "
                        + "instantiation's \(arguments.manglings.count) arguments (\(arguments.names.joined(separator: ", "))) it is, is not known"
                } else {
                    field.requirementUnbound =
                        "the runtime's demangler does not confirm it bound to the instantiation's argument \(arguments.names[0])"
                }
            case .failure(let unbound)?: field.requirementUnbound = unbound.description
            case nil: break
            }
            return field
        }
    }
}

extension TargetField {
    /// Whether the library left a parameterized existential's requirement in its type on a
    /// generic parameter (`Rtz`), so that only the instantiation's arguments can name it.
    var leavesRequirementOnParameter: Bool { typeName == nil && mangledTypeName?.contains("Rtz") == true }

    /// Why its type has no name, for a reader to print beside `?`; nil when it has one.
    public var whyUnnamed: String? {
        guard typeName == nil else { return nil }
        guard let mangling = mangledTypeName else { return "the reflection library gives no type for it" }
        return LibraryManglings.whyUnnamed(mangling) + (requirementUnbound.map { " (\($0))" } ?? "")
    }
}
