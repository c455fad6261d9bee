import TypeLayout
/// An image opened for reading Swift metadata: the address space, the symbols that name
/// descriptors and metadata, and memo tables for the references that many records share.
///
/// Not Sendable: one reader works on one image on one thread, and its caches are plain dictionaries.
final class SwiftImage {
    let file: ELFFile
    let space: AddressSpace
    /// The file's path, for errors.
    var path: String { space.path }
    /// Swift sections by name (`swift5_fieldmd`, ...): start address and size of each
    /// (object files hold one section of a name per symbol group, hence the lists).
    let sections: [String: [(address: UInt64, size: UInt64)]]
    /// Defined symbols by address, for ``descriptorSymbol(at:)``: descriptor symbols carry the
    /// private discriminators that the descriptors themselves do not.
    let symbolsByAddress: [DefinedSymbol]
    /// Things the reader could not do, said plainly, for ``ImageSummary/notes``.
    var notes: [String] = []
    /// Imported C types the runtime merges by name although their layouts differ (found by ``readTypes()``).
    var runtimeSharedForeignTypes: [RuntimeSharedForeignTypes] = []

    /// Memoised context manglings by descriptor address.
    var contextManglings: [UInt64: String] = [:]
    /// Memoised demangled type names by mangling (nil: the runtime cannot demangle it), and
    /// protocol names by `"protocol " + mangling`.
    var demangled: [String: String?] = [:]
    /// Memoised names of manglings with symbolic references (nil: not printable exactly), keyed
    /// by their pieces (hashed as they are: interpolating them into a string key cost more than
    /// the demangling it saved).
    var resolvedNames: [[MangledName.Piece]: String?] = [:]

    /// The deepest chain of parent contexts or superclasses a real program has, with room to spare.
    static let maximumChainDepth = 64

    init(file: ELFFile, space: AddressSpace) {
        self.file = file
        self.space = space
        var sections: [String: [(address: UInt64, size: UInt64)]] = [:]
        // Every section of a name is read, in section-header order (object files have one per
        // symbol group; a linked image normally has one). A descriptor listed twice is listed once.
        for section in file.sections where section.name.hasPrefix("swift5_") {
            if !section.hasFileBytes {
                // SHT_NOBITS: the file holds none of its bytes, so it holds no records either,
                // whatever size the header claims.
                if section.size > 0 {
                    notes.append(
                        "section \(section.name) (#\(section.index)) is SHT_NOBITS (no bytes in the file) but claims \(section.size) bytes: its records are not read"
                    )
                }
                continue
            }
            if let address = space.sectionAddresses[section.index] {
                sections[section.name, default: []].append((address, section.size))
            } else if section.size == 0 {
                sections[section.name, default: []].append((0, 0))
            }
        }
        self.sections = sections
        // Defined symbols sorted by address; their names are read only for the descriptor
        // addresses that are looked up (``descriptorSymbol(at:)``).
        let isObjectFile = file.fileType == ELFFile.typeRelocatable
        var sorted = file.definedSymbols  // already sorted by value: for linked images, by address
        if isObjectFile {
            // Object files' symbol values are offsets into their sections: make them addresses.
            sorted = sorted.compactMap { symbol in
                guard let base = space.sectionAddresses[Int(symbol.sectionIndex)] else { return nil }
                var moved = symbol
                moved.value = base &+ symbol.value
                return moved
            }
            sorted.sort { $0.value < $1.value }
        }
        symbolsByAddress = sorted
    }

    /// The `$s…Mn` / `$s…Mp` symbol naming the descriptor at `address`, if the image has one.
    func descriptorSymbol(at address: UInt64) -> String? {
        var low = 0
        var high = symbolsByAddress.count
        while low < high {
            let mid = (low + high) / 2
            if symbolsByAddress[mid].value < address { low = mid + 1 } else { high = mid }
        }
        while low < symbolsByAddress.count, symbolsByAddress[low].value == address {
            if file.symbol(symbolsByAddress[low], in: space.bytes, hasPrefix: "$s", suffix: "Mn", orSuffix: "Mp") {
                return file.name(of: symbolsByAddress[low], in: space.bytes)
            }
            low += 1
        }
        return nil
    }

    /// Demangles a type mangling (memoised); falls back to the mangling itself when the runtime cannot.
    func typeName(forMangling mangling: String) -> String {
        demangledTypeName(mangling) ?? mangling
    }

    /// The runtime's name for a type mangling (memoised), nil when it cannot demangle it: asking
    /// whether a mangling demangles costs no second demangling.
    func demangledTypeName(_ mangling: String) -> String? {
        if let known = demangled[mangling] { return known }
        let name = SwiftDemangler.typeName(mangling: mangling)
        demangled[mangling] = .some(name)
        return name
    }
}
