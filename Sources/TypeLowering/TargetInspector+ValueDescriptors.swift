import BinaryInfo
import TypeLayout

extension TargetInspector {
    /// The type descriptor of the struct or enum whose value metadata is at `metadata` (its
    /// second word, `Description`), or nil when the first word is not a struct's, enum's or
    /// optional's metadata kind.
    public func valueTypeDescriptor(ofMetadata metadata: UInt64) -> UInt64? {
        guard let kind = try? memory.read(UInt64.self, at: metadata, what: "value metadata kind"),
            [MetadataKind.struct, .enum, .optional].contains(where: { UInt64($0.rawValue) == kind }),
            let descriptor = try? memory.read(UInt64.self, at: metadata &+ 8, what: "value metadata description"),
            descriptor >= 4096, memory.image(containing: descriptor) != nil
        else { return nil }
        return descriptor
    }

    /// The type descriptor of the generic struct or enum a mangled instantiation binds
    /// (`10LiveShapes18EndpointRespondersVyAA12BasicContextVG`), found by its descriptor symbol
    /// (`$s10LiveShapes18EndpointRespondersVMn`) in the symbol tables of `symbols`, else among the
    /// descriptors the images list (`listed`, for a stripped image, which has no such symbol).
    ///
    /// The symbol is the mangling's nominal part, before the generic arguments; each candidate
    /// is kept only where the runtime's demangler names it the nominal type descriptor of the
    /// type whose instantiation the mangling demangles to, so no other type's records are read.
    /// A listed descriptor is taken only where its context chain gives that same name.
    ///
    /// - Returns: nil when no image defines exactly one such symbol and no one listed descriptor
    ///   has that name.
    public func genericTypeDescriptor(
        ofInstantiation mangling: String, symbols: [TargetImageSymbols], listed: TargetGenericTypeDescriptors? = nil
    ) -> UInt64? {
        guard mangling.hasSuffix("G"), let name = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else { return nil }
        let bytes = Array(mangling.utf8)
        for index in bytes.indices.dropFirst() where bytes[index] == UInt8(ascii: "y") {
            let symbol = "$s" + String(decoding: bytes[..<index], as: UTF8.self) + "Mn"
            let prefix = "nominal type descriptor for "
            // A type nested in a generic type: its name without argument lists is its descriptor's.
            guard let text = SwiftDemangler.demangle(symbol: symbol), text.hasPrefix(prefix),
                name.hasPrefix(text.dropFirst(prefix.count) + "<")
                    || Self.withoutArgumentLists(name) == String(text.dropFirst(prefix.count))
            else { continue }
            let found = Set(symbols.compactMap { $0.uniqueAddress(of: symbol) })
            if found.count == 1 { return found.first }
            return found.isEmpty ? listed?.descriptor(demangledSymbol: text) : nil
        }
        return nil
    }

    /// `name` without its generic argument lists (`M.Outer<Swift.Int>.Inner<M.X>`: `M.Outer.Inner`);
    /// nil when it has none or one is not closed.
    static func withoutArgumentLists(_ name: String) -> String? {
        var depth = 0
        var kept = ""
        for character in name {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                kept.append(character)
            }
            guard depth >= 0 else { return nil }
        }
        return depth == 0 && kept != name ? kept : nil
    }

    /// The generic types the target's Swift images list in `swift5_type_metadata`, for
    /// ``genericTypeDescriptor(ofInstantiation:symbols:listed:)``; nil when a list cannot be read.
    public func listedGenericTypeDescriptors() -> TargetGenericTypeDescriptors? {
        try? TargetGenericTypeDescriptors(memory: memory)
    }

    /// The symbol tables of the target's Swift images (the files they were matched to), for
    /// ``genericTypeDescriptor(ofInstantiation:symbols:listed:)``; an image whose file cannot be read
    /// is left out.
    public func swiftImageSymbols() -> [TargetImageSymbols] {
        images.filter(\.isSwift).compactMap { try? TargetImageSymbols(image: $0) }
    }
}
