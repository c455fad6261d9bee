/// An image opened for reading Swift metadata: the address space, the symbols that name
/// descriptors and metadata, and memo tables for the references that many records share.
///
/// Not Sendable: one reader works on one image on one thread, and its caches are plain dictionaries.
final class SwiftImage {
    let file: ELFFile
    let space: AddressSpace
    /// Swift sections by name (`swift5_fieldmd`, ...): start address and size of each
    /// (object files hold one section of a name per symbol group, hence the lists).
    let sections: [String: [(address: UInt64, size: UInt64)]]
    /// Defined `$s...Mn` / `$s...Mp` symbols by address: they carry private discriminators that
    /// the descriptors themselves do not.
    let descriptorSymbols: [UInt64: String]
    /// Things the reader could not do, said plainly, for ``ImageSummary/notes``.
    var notes: [String] = []

    /// Memoised context manglings by descriptor address.
    var contextManglings: [UInt64: String] = [:]
    /// Memoised demangled type names by mangling.
    var demangled: [String: String] = [:]

    /// The deepest chain of parent contexts or superclasses a real program has, with room to spare.
    static let maximumChainDepth = 64

    init(file: ELFFile, space: AddressSpace) {
        self.file = file
        self.space = space
        var sections: [String: [(address: UInt64, size: UInt64)]] = [:]
        for section in file.sections where section.name.hasPrefix("swift5_") {
            if let address = space.sectionAddresses[section.index] {
                sections[section.name, default: []].append((address, section.size))
            } else if section.size == 0 {
                sections[section.name, default: []].append((0, 0))
            }
        }
        self.sections = sections
        var symbols: [UInt64: String] = [:]
        for (tableIndex, table) in file.symbolTables {
            let isObjectFile = file.fileType == ELFFile.typeRelocatable
            _ = tableIndex
            for symbol in table where symbol.isDefined && symbol.name.hasPrefix("$s") && (symbol.name.hasSuffix("Mn") || symbol.name.hasSuffix("Mp")) {
                var address = symbol.value
                if isObjectFile {
                    guard let base = space.sectionAddresses[symbol.sectionIndex] else { continue }
                    address = base &+ symbol.value
                }
                symbols[address] = symbol.name
            }
        }
        descriptorSymbols = symbols
    }


    /// Demangles a type mangling (memoised); falls back to the mangling itself when the runtime cannot.
    func typeName(forMangling mangling: String) -> String {
        if let known = demangled[mangling] { return known }
        let name = Demangler.demangle(type: mangling) ?? mangling
        demangled[mangling] = name
        return name
    }
}
