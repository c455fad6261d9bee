#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A symbol name with its `.gnu.hash` hash computed once, for looking it up in several images.
public struct ExportedSymbolName: Hashable, Sendable {
    /// The name as written in the symbol tables.
    public let name: String
    let bytes: [UInt8]
    let hash: UInt32

    /// Prepares `name` for lookups.
    public init(_ name: String) {
        self.name = name
        bytes = Array(name.utf8)
        hash = bytes.withUnsafeBytes { GNUHashTable.hash($0) }
    }
}

/// An image's exported symbols found through its `.gnu.hash` table, as the dynamic loader finds
/// them: one bucket and a short chain per name, instead of a scan of every `.dynsym` entry.
///
/// The table comes from the file, so it is hostile input: the header's counts, every bucket and
/// chain index and every name offset are checked against the sections holding them, and a chain
/// walk ends at the symbol table's end. A name is reported found only after its bytes compare
/// equal in `.dynstr`, so a corrupt table can make a symbol missed, never a wrong one found.
struct GNUHashTable {
    /// The size of an `Elf64_Sym`.
    static let symbolSize = ImageSection.symbolEntrySize

    private let bytes: FileBytes
    private let bucketCount: UInt32
    private let symbolOffset: UInt32
    private let bloomCount: UInt32
    private let bloomShift: UInt32
    /// File offsets of the bloom words, the buckets and the chain.
    private let bloomStart: UInt64
    private let bucketStart: UInt64
    private let chainStart: UInt64
    /// `.dynsym`'s offset and entry count, `.dynstr`'s offset and size.
    private let symbolsStart: UInt64
    private let symbolCount: UInt64
    private let stringsStart: UInt64
    private let stringsSize: UInt64

    /// The table of `file`, or nil when it has none or its header does not fit its section (the
    /// caller then scans `.dynsym`).
    init?(file: ELFFile, bytes: FileBytes) {
        guard let table = file.sections.first(where: { $0.isGNUHashTable && $0.hasFileBytes }),
            let symbols = file.sections.first(where: { $0.index == Int(table.link) && $0.isDynamicSymbolTable }),
            symbols.hasFileBytes,
            let strings = file.sections.first(where: { $0.index == Int(symbols.link) && $0.hasFileBytes }),
            table.size >= 16
        else { return nil }
        // Section bounds were checked against the file when the sections were read.
        self.bytes = bytes
        guard let header = Self.words(bytes, at: table.offset, count: 4) else { return nil }
        bucketCount = header[0]
        symbolOffset = header[1]
        bloomCount = header[2]
        bloomShift = header[3]
        guard bucketCount > 0, bloomCount > 0 else { return nil }
        bloomStart = table.offset + 16
        bucketStart = bloomStart + UInt64(bloomCount) * 8
        chainStart = bucketStart + UInt64(bucketCount) * 4
        let tableEnd = table.offset + table.size
        guard chainStart <= tableEnd else { return nil }
        symbolsStart = symbols.offset
        symbolCount = symbols.size / Self.symbolSize
        // Chain entries exist for symbols from symbolOffset on; each must lie inside the table.
        guard UInt64(symbolOffset) <= symbolCount,
            chainStart + (symbolCount - UInt64(symbolOffset)) * 4 <= tableEnd
        else { return nil }
        stringsStart = strings.offset
        stringsSize = strings.size
    }

    /// The GNU hash of a name (`h * 33 + c`, from 5381).
    static func hash(_ name: UnsafeRawBufferPointer) -> UInt32 {
        var value: UInt32 = 5381
        for byte in name { value = value &* 33 &+ UInt32(byte) }
        return value
    }

    /// The longest chain walked for one name: real chains hold a few symbols; a corrupt table
    /// whose chain never ends costs at most this many steps per lookup.
    static let maximumChainLength: UInt64 = 1 << 12

    /// The value of the defined, non-zero symbol `name`, or nil.
    func value(of name: ExportedSymbolName) -> UInt64? {
        name.bytes.withUnsafeBytes { value(of: $0, hash: name.hash) }
    }

    private func value(of name: UnsafeRawBufferPointer, hash: UInt32) -> UInt64? {
        guard let base = bytes.buffer.baseAddress else { return nil }
        // The bloom filter rejects most names another image defines in one load.
        let word = base.loadUnaligned(fromByteOffset: Int(bloomStart) + Int((hash / 64) % bloomCount) * 8, as: UInt64.self)
        let mask = (1 as UInt64) << (hash % 64) | (1 as UInt64) << ((hash >> (bloomShift % 32)) % 64)
        guard UInt64(littleEndian: word) & mask == mask else { return nil }
        var index = UInt64(
            UInt32(littleEndian: base.loadUnaligned(fromByteOffset: Int(bucketStart) + Int(hash % bucketCount) * 4, as: UInt32.self)))
        guard index >= UInt64(symbolOffset) else { return nil }
        let end = min(symbolCount, index + Self.maximumChainLength)
        while index < end {
            let chained = UInt32(
                littleEndian: base.loadUnaligned(fromByteOffset: Int(chainStart + (index - UInt64(symbolOffset)) * 4), as: UInt32.self))
            if chained | 1 == hash | 1, let value = definedValue(at: index, ifNamed: name) { return value }
            if chained & 1 != 0 { return nil }
            index += 1
        }
        return nil
    }

    /// The value of `.dynsym` entry `index` if it is defined, non-zero and named `name`.
    private func definedValue(at index: UInt64, ifNamed name: UnsafeRawBufferPointer) -> UInt64? {
        guard let base = bytes.buffer.baseAddress else { return nil }
        let entry = Int(symbolsStart + index * Self.symbolSize)
        let nameOffset = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: entry, as: UInt32.self)))
        let sectionIndex = UInt16(littleEndian: base.loadUnaligned(fromByteOffset: entry + 6, as: UInt16.self))
        let value = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self))
        // SHN_UNDEF: an import of this image, not a definition.
        guard sectionIndex != 0, value != 0, nameOffset != 0 else { return nil }
        // The name and its terminating NUL must lie inside `.dynstr`.
        guard nameOffset < stringsSize, UInt64(name.count) < stringsSize - nameOffset, let start = name.baseAddress else { return nil }
        let stored = base + Int(stringsStart + nameOffset)
        guard memcmp(stored, start, name.count) == 0, stored.load(fromByteOffset: name.count, as: UInt8.self) == 0 else { return nil }
        return value
    }

    /// `count` little-endian 32-bit words at `offset`, or nil when they run past the file.
    private static func words(_ bytes: FileBytes, at offset: UInt64, count: Int) -> [UInt32]? {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count) * 4)
        guard !overflow, end <= UInt64(bytes.count), let base = bytes.buffer.baseAddress else { return nil }
        return (0..<count).map { UInt32(littleEndian: base.loadUnaligned(fromByteOffset: Int(offset) + $0 * 4, as: UInt32.self)) }
    }
}
