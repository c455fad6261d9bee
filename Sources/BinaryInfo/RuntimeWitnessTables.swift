import Synchronization

/// The value witness tables that the Swift runtime library exports (`$sBi64_WV`, `$sBoWV`, …),
/// read from a libswiftCore.so on disk that the reading is given (``BinaryImage/read(atPath:runtimeLibrary:)``).
///
/// Binaries reuse the runtime's tables for types whose layout equals a builtin's, so without
/// these a plain `struct { var x: Int }` would have no size. The library is parsed like any other
/// image (never executed through these tables); if it cannot be found, those sizes stay unknown.
final class RuntimeWitnessTables: Sendable {
    let path: String
    private let space: AddressSpace
    /// The library's exported symbols, found through its `.gnu.hash` table as the loader finds
    /// them: a question about a few types looks up a few names, not all of `.dynsym`.
    private let exports: GNUHashTable?
    /// `$s…WV` and `$s…N` symbols by name, only for a library without `.gnu.hash`.
    private let scannedSymbols: [String: UInt64]

    /// The tables of the library at `path`, read once per process and path: a process that
    /// reads many files reads the runtime library once.
    static func loaded(path: String) -> Result<RuntimeWitnessTables, BinaryInfoError> {
        loadedLibraries.withLock { loaded in
            if let found = loaded[path] { return found }
            let result = Result { () throws(BinaryInfoError) in try RuntimeWitnessTables(path: path) }
            loaded[path] = result
            return result
        }
    }
    private static let loadedLibraries = Mutex<[String: Result<RuntimeWitnessTables, BinaryInfoError>]>([:])

    /// Reads the library at `path`.
    ///
    /// - Parameter findsSymbolsThroughHashTable: look names up through `.gnu.hash` when the
    ///   library has one (false: scan `.dynsym`, as for a library without one; for tests).
    init(path: String, findsSymbolsThroughHashTable: Bool = true) throws(BinaryInfoError) {
        self.path = path
        let bytes = try ImageLoader.readFile(path)
        // The runtime exports its witness tables and metadata: .dynsym is enough, and it is looked
        // up by name, never walked by address, so it is not sorted.
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, sortsSymbols: false)
        space = try AddressSpace(file: file, bytes: bytes)
        exports = findsSymbolsThroughHashTable ? GNUHashTable(file: file, bytes: bytes) : nil
        var symbols: [String: UInt64] = [:]
        if exports == nil {
            for symbol in file.definedSymbols {
                guard file.symbol(symbol, in: bytes, hasPrefix: "$s", suffix: "WV", orSuffix: "N"),
                    let name = file.name(of: symbol, in: bytes)
                else {
                    continue
                }
                symbols[name] = symbol.value
            }
        }
        scannedSymbols = symbols
    }

    /// The value of the exported symbol `name` (a `$s…WV` or `$s…N` name).
    private func symbol(named name: String) -> UInt64? {
        guard let exports else { return scannedSymbols[name] }
        return exports.value(of: ExportedSymbolName(name))
    }

    /// The layout an exported value witness table (`$sBi64_WV`) records.
    func table(named name: String) -> ValueWitnessLayout? {
        guard name.hasSuffix("WV"), name.hasPrefix("$s"), let address = symbol(named: name) else { return nil }
        return try? SwiftImage.valueWitnesses(in: space, at: address)
    }

    /// The layout of one of the runtime library's non-generic value types (`Si`, `SS`, `Sd`), by
    /// type mangling, from the witness table its static metadata points to.
    func typeLayout(mangling: String) -> ValueWitnessLayout? {
        guard let metadata = symbol(named: "$s" + mangling + "N"), metadata >= 8,
            // Only value-type metadata (struct, enum, optional) has the witness table pointer just before it.
            let kind = try? space.read(UInt64.self, at: metadata, what: "metadata kind"),
            SwiftImage.valueMetadataKinds.contains(kind)
        else { return nil }
        switch try? space.pointer(at: metadata - 8, what: "value witness table pointer") {
        case .address(let table)?:
            return try? SwiftImage.valueWitnesses(in: space, at: table)
        case .symbol(let name)?:
            return table(named: name)
        case nil:
            return nil
        }
    }
}
