import TypeLayout

/// A mangled name read from the image with its symbolic references resolved.
///
/// A symbolic reference counts as one entry in the demangler's substitution table, but its
/// textual spelling (`7Fixture4TreeO`) adds several, which would shift every later
/// substitution (`AA`, `AB`) onto the wrong entity. So for demangling, each reference that
/// stands as a whole type is replaced by a placeholder that adds exactly one entry (a bound
/// generic of standard types with an arity no real type has), and the placeholder's printed
/// form is then replaced by the referenced type's own demangled name.
struct MangledName: Hashable {
    /// The textual mangling, every reference spelled out: what `mangledType` shows.
    var text: String
    /// The same name with placeholders, for the demangler.
    var demanglable: String
    /// Placeholder printed form -> the textual mangling it stands for.
    var placeholders: [String: String]
}

extension SwiftImage {
    /// Follows the relative direct pointer at `address` to a mangled name and resolves it.
    ///
    /// - Returns: nil for a null pointer or a name holding a reference that cannot be spelled.
    func mangledName(at address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws -> String? {
        try mangledNameWithPlaceholders(at: address, what: what(), depth: depth)?.text
    }

    /// Like ``mangledName(at:what:depth:)``, keeping the placeholder form for demangling.
    func mangledNameWithPlaceholders(at address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws -> MangledName? {
        guard let target = try space.relativeTarget(at: address, what: what()) else { return nil }
        return try resolveMangledName(startingAt: target, what: what(), depth: depth)
    }

    /// Standard-library types whose one-entry bound generic forms the placeholders.
    private static let placeholderDigits: [(mangling: String, printed: String)] = [
        ("Si", "Swift.Int"), ("Su", "Swift.UInt"), ("Sd", "Swift.Double"),
        ("Sf", "Swift.Float"), ("Sb", "Swift.Bool"), ("SS", "Swift.String"),
    ]

    /// The placeholder number `index` (0 ..< 216): mangling and printed form.
    static func placeholder(_ index: Int) -> (mangling: String, printed: String)? {
        let base = placeholderDigits.count
        guard index < base * base * base else { return nil }
        let digits = [index / (base * base), (index / base) % base, index % base].map { placeholderDigits[$0] }
        return (
            "Sry" + digits.map(\.mangling).joined() + "G",
            "Swift.UnsafeMutableBufferPointer<" + digits.map(\.printed).joined(separator: ", ") + ">"
        )
    }

    /// Resolves the mangled name that starts at `address`.
    ///
    /// Bytes 0x01...0x17 introduce a 4-byte relative reference, 0x18...0x1F an 8-byte absolute one;
    /// the ones that name context descriptors (0x01 direct, 0x02 indirect) are replaced by the
    /// descriptor's mangling. Others (accessor functions, existential shapes) make the name unspellable.
    func resolveMangledName(startingAt address: UInt64, what: @autoclosure () -> String, depth: Int = 0) throws -> MangledName? {
        guard depth < Self.maximumChainDepth else {
            throw BinaryInfoError.referenceCycle(what: what(), address: address)
        }
        var text: [UInt8] = []
        var demanglable: [UInt8] = []
        var placeholders: [String: String] = [:]
        var cursor = address
        var spellable = true
        while true {
            guard text.count < maximumStringLength, cursor &- address < UInt64(maximumStringLength) else {
                throw BinaryInfoError.malformedRecord(what: what(), address: address, detail: "mangled name has no terminator within \(maximumStringLength) bytes")
            }
            let byte = try space.read(UInt8.self, at: cursor, what: what())
            switch byte {
            case 0:
                guard spellable else { return nil }
                return MangledName(
                    text: String(decoding: text, as: UTF8.self),
                    demanglable: String(decoding: demanglable, as: UTF8.self),
                    placeholders: placeholders
                )
            case 0x01, 0x02:
                let referenceAddress = cursor &+ 1
                let offset = try space.read(Int32.self, at: referenceAddress, what: what())
                guard let target = try AddressSpace.apply(offset: Int64(offset), to: referenceAddress, what: what()) else {
                    throw BinaryInfoError.malformedRecord(what: what(), address: cursor, detail: "null symbolic reference")
                }
                let context: PointerTarget?
                if byte == 0x01 {
                    context = space.externalName(at: target).map(PointerTarget.symbol) ?? .address(target)
                } else {
                    context = try space.pointer(at: target, what: "indirect symbolic reference in \(what())")
                }
                cursor &+= 5
                guard let context, let spelled = try mangling(of: context, depth: depth + 1) else {
                    spellable = false
                    continue
                }
                text.append(contentsOf: spelled.utf8)
                // A reference followed by `y` is the base of a bound generic type, and a protocol
                // reference is part of an existential: both must stay nominal, so they are spelled out.
                let next = try space.read(UInt8.self, at: cursor, what: what())
                let isProtocol = try referencesProtocol(context)
                if next != UInt8(ascii: "y"), !isProtocol, let placeholder = Self.placeholder(placeholders.count) {
                    demanglable.append(contentsOf: placeholder.mangling.utf8)
                    placeholders[placeholder.printed] = spelled
                } else {
                    demanglable.append(contentsOf: spelled.utf8)
                }
            case 0x03...0x17:
                spellable = false
                cursor &+= 5
            case 0x18...0x1F:
                spellable = false
                cursor &+= 9
            default:
                text.append(byte)
                demanglable.append(byte)
                cursor &+= 1
            }
        }
    }

    private func referencesProtocol(_ context: PointerTarget) throws -> Bool {
        switch context {
        case .symbol(let name):
            return name.hasSuffix("Mp")
        case .address(let address):
            return try contextDescriptor(at: address).kind == .protocol
        }
    }

    /// Demangles a resolved name into the type as users write it (memoised).
    func typeName(for name: MangledName) -> String {
        if name.placeholders.isEmpty { return typeName(forMangling: name.text) }
        guard var printed = SwiftDemangler.demangle(symbol: "$s" + name.demanglable + "D") else {
            return typeName(forMangling: name.text)
        }
        // Longest first is unnecessary: every placeholder prints with the same length prefix
        // and a distinct argument list, so none is a prefix of another.
        for (placeholder, mangling) in name.placeholders {
            printed = printed.replacingAll(placeholder, with: typeName(forMangling: mangling))
        }
        return TypeNameSugar.apply(printed)
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation needed). Compares UTF-8 bytes:
    /// `firstRange(of:)` builds a substring searcher per call, which cost more than the rest of
    /// a reading's name printing.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return self }
        let haystack = Array(utf8)
        let inserted = Array(replacement.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        while index < haystack.count {
            if haystack[index] == first, index + needle.count <= haystack.count,
               haystack[index..<index + needle.count].elementsEqual(needle) {
                result += inserted
                index += needle.count
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
