import Algorithms

/// The symbol tables (`.symtab` and `.dynsym`) of a target image's file, at the addresses the
/// target loaded them: a runtime variable's address by name, and the symbol that starts at a code
/// address (a task's resume function).
///
/// Read through libelf from the file ``TargetImage/filePath`` names, which matched the loaded
/// image by build id; a stripped file answers from `.dynsym` alone.
public struct TargetImageSymbols: Sendable {
    /// The image the symbols are of.
    public let image: TargetImage
    private let file: ELFFile
    /// Defined symbols by value (file addresses), sorted.
    private let symbols: [DefinedSymbol]
    /// The exported symbols' hash table, when the file has one: a name found there costs one
    /// bucket and a short chain instead of a scan of every symbol (a server's executable can hold
    /// millions).
    private let exports: GNUHashTable?
    /// Every defined symbol's value by name (the first of each name), made once: the library asks
    /// for several names, some of which a runtime does not define, and each would otherwise be a
    /// scan of every symbol.
    private let valuesByName: [String: UInt64]
    /// The names defined more than once with different values (local symbols of one name from
    /// several object files): an address looked up by such a name could be any of them.
    private let ambiguousNames: Set<String>
    /// Whether the file has a `.symtab` (an unstripped file): without it, only exported names
    /// are known.
    public var hasStaticSymbolTable: Bool { file.hasSymtab }

    /// Reads the symbol tables of `image`'s file.
    ///
    /// - Throws: ``BinaryInfoError`` when the file's ELF structure cannot be read.
    public init(image: TargetImage) throws(BinaryInfoError) {
        self.image = image
        file = try ELFFile(bytes: image.file, includeStaticSymbols: true, includeTables: true, sortsSymbols: true)
        symbols = file.definedSymbols
        exports = GNUHashTable(file: file, bytes: image.file)
        var valuesByName: [String: UInt64] = [:]
        var ambiguousNames: Set<String> = []
        valuesByName.reserveCapacity(symbols.count)
        for symbol in symbols where symbol.value != 0 {
            guard let name = file.name(of: symbol, in: image.file) else { continue }
            if let known = valuesByName[name] {
                if known != symbol.value { ambiguousNames.insert(name) }
                continue
            }
            valuesByName[name] = symbol.value
        }
        self.valuesByName = valuesByName
        self.ambiguousNames = ambiguousNames
    }

    /// The target address of the symbol `name` (the first of that name), or nil.
    public func address(of name: String) -> UInt64? {
        if let value = exports?.value(of: ExportedSymbolName(name)), value != 0 { return value &+ image.loadBias }
        return valuesByName[name].map { $0 &+ image.loadBias }
    }

    /// The target address of the one symbol named `name`, or nil when there is none or several
    /// with different addresses (a local name defined in more than one object file).
    public func uniqueAddress(of name: String) -> UInt64? {
        guard !ambiguousNames.contains(name) else { return nil }
        return address(of: name)
    }

    /// Whether a defined symbol's name starts with one of `prefixes`.
    public func definesName(withPrefix prefixes: [String]) -> Bool {
        valuesByName.keys.contains { name in prefixes.contains { name.hasPrefix($0) } }
    }

    /// The value the symbol table states for `name` (the first of that name), unrelocated: for a
    /// thread-local variable (`STT_TLS`), its offset in the image's TLS block.
    public func value(of name: String) -> UInt64? {
        if let value = exports?.value(of: ExportedSymbolName(name)), value != 0 { return value }
        return valuesByName[name]
    }

    /// The symbol whose bytes (its value and `st_size`) hold `address` in the target, and the
    /// address's offset in it; nil when no sized symbol covers it (a symbol without a size is
    /// never assumed to reach further than its start). `isFunction`: the symbol is code
    /// (`STT_FUNC`). The address may lie past the image's file mappings: its bss, where the
    /// file ends, is anonymous memory.
    public func symbol(containing address: UInt64) -> (name: String, offset: UInt64, isFunction: Bool)? {
        guard address >= image.loadBias else { return nil }
        let value = address - image.loadBias
        var index = symbols.partitioningIndex { $0.value > value }
        // Symbols that start at or before the address, nearest first; a covering one is among
        // the few nearest (nested or aliased symbols share a start).
        var looked = 0
        while index > 0, looked < 64 {
            index -= 1
            looked += 1
            let symbol = symbols[index]
            if symbol.value <= value, value - symbol.value < symbol.size, let name = file.name(of: symbol, in: image.file), !name.isEmpty {
                return (name, value - symbol.value, symbol.isFunction)
            }
        }
        return nil
    }

    /// The names of the symbols whose value is exactly `address` (a function's entry point) in
    /// the target; empty when no symbol starts there.
    public func names(startingAt address: UInt64) -> [String] {
        guard image.addressRange.contains(address), address >= image.loadBias else { return [] }
        let value = address - image.loadBias
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].value < value { low = middle + 1 } else { high = middle }
        }
        var names: [String] = []
        var index = low
        while index < symbols.count, symbols[index].value == value {
            if let name = file.name(of: symbols[index], in: image.file), !names.contains(name) { names.append(name) }
            index += 1
        }
        return names
    }
}
