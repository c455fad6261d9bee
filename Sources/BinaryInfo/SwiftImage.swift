import Algorithms
import TypeLayout
/// An image opened for reading Swift metadata: the address space, the symbols that name
/// descriptors and metadata, and memo tables for the references that many records share.
///
/// Not Sendable: one reader works on one image on one thread, and its caches are plain dictionaries.
final class SwiftImage {
    let file: ELFFile
    let space: AddressSpace
    /// The value witness tables of the Swift runtime library the reading was given; nil when none
    /// was given or it could not be read (``runtimeProblem`` says which).
    let runtime: RuntimeWitnessTables?
    /// Why ``runtime`` is nil, for the notes.
    let runtimeProblem: LayoutNote?
    /// The file's path, for errors.
    var path: String { space.path }
    /// Swift sections by name (`swift5_fieldmd`, ...): start address and size of each
    /// (object files hold one section of a name per symbol group, hence the lists).
    let sections: [String: [(address: UInt64, size: UInt64)]]
    /// The descriptor symbols (`$s…Mn`, `$s…Mp`) by address, for ``descriptorSymbol(at:)``: they
    /// carry the private discriminators that the descriptors themselves do not. Found on the
    /// first lookup, by one pass over the symbol tables that sorts only the few that match.
    private(set) lazy var descriptorSymbolsByAddress: [DefinedSymbol] = descriptorSymbols()
    /// Things the reader could not do, said plainly, for ``ImageSummary/notes``.
    var notes: [LayoutNote] = []
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
    /// Memoised substitution-table entries of spelled nominal types (``spelledCost(_:)``).
    var spelledCosts: [String: Int?] = [:]

    /// The deepest chain of parent contexts or superclasses a real program has, with room to spare.
    static let maximumChainDepth = 64

    /// - Parameter runtimeLibrary: the libswiftCore.so whose value witness tables give the sizes
    ///   of types that reuse them (nil: those sizes stay unknown, and a note says so).
    init(file: ELFFile, space: AddressSpace, runtimeLibrary: String?) {
        self.file = file
        self.space = space
        switch runtimeLibrary.map(RuntimeWitnessTables.loaded(path:)) {
        case .success(let tables)?:
            (runtime, runtimeProblem) = (tables, nil)
        case .failure(let error)?:
            (runtime, runtimeProblem) = (nil, .runtimeLibraryUnavailable(problem: error.description))
        case nil:
            (runtime, runtimeProblem) = (nil, .runtimeLibraryUnavailable(problem: nil))
        }
        var sections: [String: [(address: UInt64, size: UInt64)]] = [:]
        // Every section of a name is read, in section-header order (object files have one per
        // symbol group; a linked image normally has one). A descriptor listed twice is listed once.
        for section in file.sections where section.name.hasPrefix("swift5_") {
            if !section.hasFileBytes {
                // SHT_NOBITS: the file holds none of its bytes, so it holds no records either,
                // whatever size the header claims.
                if section.size > 0 {
                    notes.append(.sectionWithoutBytes(name: section.name, index: section.index, size: section.size))
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
    }

    /// The defined symbols named `$s…Mn` or `$s…Mp`, at their addresses (object files' symbol
    /// values are offsets into their sections), sorted by address, in table order at one address.
    private func descriptorSymbols() -> [DefinedSymbol] {
        let isObjectFile = file.fileType == ELFFile.typeRelocatable
        // The string table of the previous symbol: a file has one or two, so this saves a search
        // of the section headers for each of tens of thousands of symbols.
        var table: (index: UInt32, section: ImageSection?)?
        var found: [DefinedSymbol] = []
        for symbol in file.definedSymbols {
            if table?.index != symbol.stringTable {
                table = (symbol.stringTable, file.sections.first { $0.index == Int(symbol.stringTable) })
            }
            guard let strings = table?.section, strings.hasFileBytes, UInt64(symbol.nameOffset) < strings.size,
                space.bytes.cString(
                    atOffset: strings.offset + UInt64(symbol.nameOffset), limit: strings.size - UInt64(symbol.nameOffset),
                    hasPrefix: "$s", suffix: "Mn", orSuffix: "Mp")
            else { continue }
            var located = symbol
            if isObjectFile {
                guard let base = space.sectionAddresses[Int(symbol.sectionIndex)] else { continue }
                located.value = base &+ symbol.value
            }
            found.append(located)
        }
        // Stable: among symbols at one address, the first in the tables is found first.
        found.sort { $0.value < $1.value }
        return found
    }

    /// The `$s…Mn` / `$s…Mp` symbol naming the descriptor at `address`, if the image has one.
    func descriptorSymbol(at address: UInt64) -> String? {
        let symbols = descriptorSymbolsByAddress
        let low = symbols.partitioningIndex { $0.value >= address }
        guard low < symbols.count, symbols[low].value == address else { return nil }
        return file.name(of: symbols[low], in: space.bytes)
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
