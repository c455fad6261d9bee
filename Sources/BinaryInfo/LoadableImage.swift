#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TypeLayout

/// A linked ELF image described the way a loader sees it, for a reader that must lay it out in
/// memory without running it (TypeLowering's worker hands such images to libswiftRemoteMirror).
///
/// Nothing here executes or maps the file executable: ``copyContents(into:capacity:excluding:)`` copies the
/// allocated sections' bytes to where their virtual addresses say, and ``relocations`` lists what
/// the dynamic loader would write into pointer slots.
///
/// Not Sendable: symbol lookups fill a cache; one reader uses one image on one thread.
///
/// ```swift
/// let image = try LoadableImage(path: "/usr/lib/libFoo.so")
/// print(image.neededLibraries, image.swiftSections.keys)
/// ```
public final class LoadableImage {
    /// What the dynamic loader writes into one pointer-sized slot.
    public enum Relocation: Hashable, Sendable {
        /// The image's base plus `addend` (R_X86_64_RELATIVE, RELR).
        case relative(place: UInt64, addend: UInt64)
        /// The address of a symbol this image defines, plus the addend.
        case defined(place: UInt64, address: UInt64)
        /// The address of a symbol another image defines, plus `addend`.
        case imported(place: UInt64, symbol: String, addend: Int64)
    }

    /// The path the image was read from.
    public let path: String
    /// One past the highest virtual address of an allocated section: the memory a copy needs.
    public let addressLimit: UInt64
    /// Swift reflection sections (`swift5_fieldmd`, ...) by name: virtual address and size.
    public let swiftSections: [String: (address: UInt64, size: UInt64)]
    /// DT_NEEDED entries, in order.
    public let neededLibraries: [String]
    /// DT_RUNPATH, else DT_RPATH, split at `:` (`$ORIGIN` left as written).
    public let searchPaths: [String]
    /// Pointer slots the dynamic loader fills (read on first use when the tables are deferred).
    public private(set) lazy var relocations: [Relocation] = Self.relocations(of: tables, space: space)

    /// The section headers (and, unless deferred, the symbol and relocation tables).
    private let file: ELFFile
    /// The file with its symbol and relocation tables: ``file`` itself unless they were deferred.
    private lazy var tables: ELFFile = readDeferredTables()
    private let tablesDeferred: Bool
    private let hasStaticSymbols: Bool
    private let space: AddressSpace

    /// Why the symbol and relocation tables, read on first use, could not be read; nil when they
    /// were read (or not yet asked for). Such an image has no relocations and no symbols.
    public private(set) var tableProblem: String?

    private func readDeferredTables() -> ELFFile {
        guard tablesDeferred else { return file }
        do throws(BinaryInfoError) {
            let tables = try ELFFile(bytes: space.bytes, includeStaticSymbols: hasStaticSymbols, sortsSymbols: false)
            tables.releaseCopiedTablePages(in: space.bytes)
            return tables
        } catch {
            tableProblem = error.problem
            return file
        }
    }

    /// The largest image this reader lays out in memory (the biggest toolchain library is ~60 MB).
    public static let maximumAddressLimit: UInt64 = 1 << 31

    /// Reads the ELF structure of the file at `path`.
    ///
    /// - Throws: ``BinaryInfoError`` for a missing or malformed file, an object file (`.o`, which
    ///   has no load addresses), or an image whose addresses span more than ``maximumAddressLimit``.
    /// - Parameters:
    ///   - path: the ELF file to read.
    ///   - includeStaticSymbols: read `.symtab` now; without it, only `.dynsym` is read
    ///     up front and `.symtab` on the first descriptor lookup (most images never need it).
    ///   - deferringTables: read only the section headers and `.dynamic` now, and the symbol and
    ///     relocation tables when ``relocations`` or a symbol is first asked for (a dependency
    ///     a reading never touches costs no more); their errors then end in ``tableProblem``.
    public convenience init(path: String, includeStaticSymbols: Bool = true, deferringTables: Bool = false) throws(BinaryInfoError) {
        try self.init(
            bytes: try ImageLoader.readFile(path), path: path, includeStaticSymbols: includeStaticSymbols, deferringTables: deferringTables)
    }

    /// Reads an image held in memory (for fuzzing and tests); `name` stands for its path.
    public convenience init(bytes: [UInt8], name: String, deferringTables: Bool = false) throws(BinaryInfoError) {
        try self.init(
            bytes: FileBytes(bytes, path: name), path: name, includeStaticSymbols: !deferringTables, deferringTables: deferringTables)
    }

    private init(bytes: FileBytes, path: String, includeStaticSymbols: Bool, deferringTables: Bool) throws(BinaryInfoError) {
        // Symbols are only ever looked up by name here: no sort by value.
        let file = try ELFFile(
            bytes: bytes, includeStaticSymbols: includeStaticSymbols, includeTables: !deferringTables, sortsSymbols: false)
        guard file.fileType != ELFFile.typeRelocatable else {
            throw BinaryInfoError.unsupported(path: path, detail: "a relocatable object (.o) has no load addresses; link it first")
        }
        let space = try AddressSpace(file: file, bytes: bytes, recordingRelocationSections: false)
        var limit: UInt64 = 0
        for region in space.regions {
            let (end, overflow) = region.start.addingReportingOverflow(region.size)
            guard !overflow, end <= Self.maximumAddressLimit else {
                throw BinaryInfoError.unsupported(
                    path: path,
                    detail:
                        "section at 0x\(String(region.start, radix: 16)) (\(region.size) bytes) lies beyond the \(Self.maximumAddressLimit)-byte address limit"
                )
            }
            limit = max(limit, end)
        }
        var sections: [String: (address: UInt64, size: UInt64)] = [:]
        for section in file.sections where section.name.hasPrefix("swift5_") {
            if let address = space.sectionAddresses[section.index] { sections[section.name] = (address, section.size) }
        }
        let dynamic = try file.dynamicEntries(in: bytes)
        self.path = path
        self.file = file
        self.hasStaticSymbols = includeStaticSymbols
        self.tablesDeferred = deferringTables
        self.space = space
        self.addressLimit = limit
        self.swiftSections = sections
        self.neededLibraries = dynamic.needed
        self.searchPaths = dynamic.searchPaths
        if !deferringTables { file.releaseCopiedTablePages(in: bytes) }
    }

    /// Copies every allocated section's file bytes to `base + address` (NOBITS sections are left
    /// as they are: the caller provides zeroed memory). Relocations are not applied.
    ///
    /// - Parameters:
    ///   - base: where the image's address 0 goes.
    ///   - capacity: the bytes available at `base`; at least ``addressLimit``.
    ///   - excluded: names of further sections to leave zero (ones the caller's reader never
    ///     reads, so their pages are never touched).
    ///   - included: which of the other sections to copy, by name (all by default).
    public func copyContents(
        into base: UnsafeMutableRawPointer, capacity: UInt64, excluding excluded: Set<String> = [],
        including included: (String) -> Bool = { _ in true }
    ) throws(BinaryInfoError) {
        guard capacity >= addressLimit else {
            throw BinaryInfoError.outOfBounds(path: path, what: "image copy", address: 0, length: addressLimit)
        }
        // Code is never read by a reflection reader: executable sections stay zero (untouched
        // anonymous pages cost no memory).
        for section in file.sections
        where section.isAllocated && !section.isThreadLocal && section.hasFileBytes
            && section.address != 0 && section.size > 0 && !section.isExecutable && !excluded.contains(section.name)
            && included(section.name)
        {
            let destination = UnsafeMutableRawBufferPointer(start: base + Int(section.address), count: Int(section.size))
            try space.bytes.fetch(into: destination, fromOffset: section.offset, what: "section \(section.name)")
            // What the reading is done with leaves this process's resident memory (the worker's
            // peak is the reading's): a section's file bytes once copied, the symbol and relocation
            // tables once ELFFile has copied their entries out, `.symtab`'s names once the
            // descriptor table holds them. `.dynsym`, `.dynstr` and `.gnu.hash` stay: exported
            // names are looked up in place. Released bytes read the same if touched again.
            space.bytes.releasePages(offset: section.offset, size: section.size)
        }
    }

    /// One allocated section as a loader places it: where it goes and whether it has bytes to copy.
    public struct PlacedSection: Sendable {
        /// The section's name (not unique in a hostile file).
        public let name: String
        /// Its virtual address and size.
        public let address: UInt64
        public let size: UInt64
        /// Whether ``copyContents(into:capacity:excluding:including:)`` copies it (it has file
        /// bytes and is not code).
        public let hasCopiedBytes: Bool
        let fileOffset: UInt64
    }

    /// The allocated sections (thread-local templates aside) by address, for a reader that lays
    /// them out one at a time (``copySection(_:into:capacity:)``).
    public var placedSections: [PlacedSection] {
        file.sections.filter { $0.isAllocated && !$0.isThreadLocal && $0.address != 0 && $0.size > 0 }
            .map {
                PlacedSection(
                    name: $0.name, address: $0.address, size: $0.size,
                    hasCopiedBytes: $0.hasFileBytes && !$0.isExecutable, fileOffset: $0.offset)
            }
            .sorted { $0.address < $1.address }
    }

    /// Copies one section's file bytes to `base + address`, as ``copyContents(into:capacity:excluding:including:)``
    /// does for all; nothing for a section without copied bytes.
    public func copySection(_ section: PlacedSection, into base: UnsafeMutableRawPointer, capacity: UInt64) throws(BinaryInfoError) {
        guard section.hasCopiedBytes else { return }
        let (end, overflow) = section.address.addingReportingOverflow(section.size)
        guard !overflow, end <= capacity else {
            throw BinaryInfoError.outOfBounds(path: path, what: "section \(section.name)", address: section.address, length: section.size)
        }
        let destination = UnsafeMutableRawBufferPointer(start: base + Int(section.address), count: Int(section.size))
        try space.bytes.fetch(into: destination, fromOffset: section.fileOffset, what: "section \(section.name)")
        space.bytes.releasePages(offset: section.fileOffset, size: section.size)
    }

    /// The file offset holding the byte at virtual `address`, or nil for an address in no
    /// section with file bytes.
    public func fileOffset(ofAddress address: UInt64) -> UInt64? {
        guard let region = space.region(containing: address), region.hasFileBytes else { return nil }
        return region.fileOffset + (address - region.start)
    }

    /// The address of a symbol this image defines, or nil. Descriptor symbols (`…Mn`, private
    /// ones included) come from a table built on first use; other names from the exported symbols.
    public func address(ofSymbol name: String) -> UInt64? {
        if name.hasSuffix("Mn") { return descriptorSymbols[name] }
        return address(ofExportedSymbol: ExportedSymbolName(name))
    }

    /// The address of `name` if this image exports it (`.dynsym`, as the dynamic loader finds it):
    /// through `.gnu.hash` when the image has a usable one, else by a scan of `.dynsym`.
    public func address(ofExportedSymbol name: ExportedSymbolName) -> UInt64? {
        if let table = exportTable { return table.value(of: name) }
        return addresses(ofSymbols: [name.name], exportedOnly: true)[name.name]
    }

    private lazy var exportTable: GNUHashTable? = GNUHashTable(file: file, bytes: space.bytes)

    /// Every defined `…Mn` (nominal type descriptor) symbol, by name.
    private lazy var descriptorSymbols: [String: UInt64] = {
        var table: [String: UInt64] = [:]
        // Private descriptors are local symbols: only `.symtab` has them.
        let full = hasStaticSymbols ? tables : ((try? ELFFile(bytes: space.bytes, sortsSymbols: false)) ?? tables)
        forEachSymbolName(in: full) { raw, value in
            guard raw.count > 2, raw[raw.count - 2] == UInt8(ascii: "M"), raw[raw.count - 1] == UInt8(ascii: "n") else { return }
            // The lowest address wins, whatever the table order (as when the symbols were sorted).
            let name = String(decoding: raw, as: UTF8.self)
            if let known = table[name], known <= value { return }
            table[name] = value
        }
        full.releaseCopiedTablePages(in: space.bytes)
        full.releaseStaticNamePages(in: space.bytes)
        return table
    }()

    /// Calls `body` with each defined symbol's name bytes (in the file) and value.
    ///
    /// - Parameter exportedOnly: only `.dynsym`'s symbols (what other images can import), not
    ///   `.symtab`'s, which is several times larger.
    private func forEachSymbolName(in file: ELFFile? = nil, exportedOnly: Bool = false, _ body: (UnsafeRawBufferPointer, UInt64) -> Void) {
        let file = file ?? tables
        let bytes = space.bytes
        guard let base = bytes.buffer.baseAddress else { return }
        let dynamicStrings = file.sections.first(where: \.isDynamicSymbolTable).map(\.link)
        var tables: [UInt32: (offset: UInt64, size: UInt64)] = [:]
        for section in file.sections where section.hasFileBytes {
            if exportedOnly && UInt32(truncatingIfNeeded: section.index) != dynamicStrings { continue }
            tables[UInt32(truncatingIfNeeded: section.index)] = (section.offset, section.size)
        }
        for symbol in file.definedSymbols where symbol.value != 0 {
            guard let table = tables[symbol.stringTable], UInt64(symbol.nameOffset) < table.size else { continue }
            let start = table.offset + UInt64(symbol.nameOffset)
            let limit = Int(min(table.size - UInt64(symbol.nameOffset), UInt64(bytes.count) - start))
            let raw = UnsafeRawBufferPointer(start: base + Int(start), count: limit)
            // memchr: names are long (Swift manglings), and this runs over every symbol.
            guard let start = raw.baseAddress, let terminator = memchr(start, 0, raw.count) else { continue }
            body(UnsafeRawBufferPointer(start: start, count: UnsafeRawPointer(terminator) - start), symbol.value)
        }
    }

    /// The addresses of those of `names` this image defines (with `exportedOnly`, only those it
    /// exports through `.dynsym`, as the dynamic loader would find them). Symbol names are compared in the
    /// string table's bytes (hashed first), so a large table costs no string per symbol.
    public func addresses(ofSymbols names: Set<String>, exportedOnly: Bool = false) -> [String: UInt64] {
        var wanted: [UInt64: [String]] = [:]
        for name in names { wanted[Self.hash(Array(name.utf8)[...]), default: []].append(name) }
        var found: [String: UInt64] = [:]
        forEachSymbolName(exportedOnly: exportedOnly) { raw, value in
            guard let candidates = wanted[Self.hash(raw)] else { return }
            let name = String(decoding: raw, as: UTF8.self)
            if candidates.contains(name), found[name].map({ value < $0 }) ?? true { found[name] = value }
        }
        return found
    }

    /// FNV-1a over a name's bytes.
    private static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return value
    }

    /// What a loader needs to find a file's dependencies, read without its symbol and relocation
    /// tables: DT_NEEDED, the search path, and whether it holds Swift reflection sections.
    public static func dependencyInfo(ofFileAt path: String) throws(BinaryInfoError) -> (
        needed: [String], searchPaths: [String], isSwift: Bool
    ) {
        try ImageFile(path: path).dependencyInfo()
    }

    private static func relocations(of file: ELFFile, space: AddressSpace) -> [Relocation] {
        let types = ELFMachine(rawValue: file.machine)?.relocationTypes
        let relative = types?.relative ?? []
        // 64 and GLOB_DAT. JUMP_SLOT fills PLT slots of functions, which a reflection reader never
        // follows; those of functions the image defines are filled all the same, below.
        let symbolic = (types?.absolute64 ?? []).union(types?.globalData ?? [])
        let jumpSlot = types?.jumpSlot ?? []
        var result: [Relocation] = []
        // Slots no relative or symbolic entry fills, by place: PLT slots of defined functions,
        // and RELR-packed relative relocations (the address space holds their targets).
        var others: [UInt64: UInt64] = [:]
        for (place, target) in space.slots {
            if case .address(let address) = target { others[place] = address }
        }
        var filled: [UInt64] = []
        for section in file.relocationSections where section.isDynamic {
            let symbols = file.symbolTables[section.symbolTableSection] ?? []
            for entry in section.entries {
                if relative.contains(entry.type) {
                    result.append(.relative(place: entry.offset, addend: UInt64(bitPattern: entry.addend)))
                    filled.append(entry.offset)
                } else if symbolic.contains(entry.type), entry.symbolIndex < symbols.count {
                    let symbol = symbols[entry.symbolIndex]
                    if symbol.isDefined {
                        result.append(.defined(place: entry.offset, address: symbol.value &+ UInt64(bitPattern: entry.addend)))
                    } else if !symbol.name.isEmpty {
                        result.append(.imported(place: entry.offset, symbol: symbol.name, addend: entry.addend))
                    }
                    filled.append(entry.offset)
                } else if jumpSlot.contains(entry.type), entry.symbolIndex < symbols.count, symbols[entry.symbolIndex].isDefined {
                    others[entry.offset] = symbols[entry.symbolIndex].value &+ UInt64(bitPattern: entry.addend)
                }
            }
        }
        // Few such slots: each filled place is looked up among them, with no set of them all.
        if !others.isEmpty {
            for place in filled where others[place] != nil { others[place] = nil }
            for (place, address) in others { result.append(.relative(place: place, addend: address)) }
        }
        return result
    }
}
