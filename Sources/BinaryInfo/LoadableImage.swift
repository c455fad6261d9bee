/// A linked ELF image described the way a loader sees it, for a reader that must lay it out in
/// memory without running it (TypeLowering's worker hands such images to libswiftRemoteMirror).
///
/// Nothing here executes or maps the file executable: ``copyContents(into:capacity:)`` copies the
/// allocated sections' bytes to where their virtual addresses say, and ``relocations`` lists what
/// the dynamic loader would write into pointer slots.
///
/// ```swift
/// let image = try LoadableImage(path: "/usr/lib/libFoo.so")
/// print(image.neededLibraries, image.swiftSections.keys)
/// ```
public final class LoadableImage: @unchecked Sendable {
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
    /// Pointer slots the dynamic loader fills.
    public let relocations: [Relocation]

    private let file: ELFFile
    private let space: AddressSpace
    private var symbolAddresses: [String: UInt64]?

    /// The largest image this reader lays out in memory (the biggest toolchain library is ~60 MB).
    public static let maximumAddressLimit: UInt64 = 1 << 31

    /// Reads the ELF structure of the file at `path`.
    ///
    /// - Throws: ``BinaryInfoError`` for a missing or malformed file, an object file (`.o`, which
    ///   has no load addresses), or an image whose addresses span more than ``maximumAddressLimit``.
    public init(path: String) throws {
        let bytes = try ImageLoader.readFile(path)
        let file = try ELFFile(bytes: bytes)
        guard file.fileType != ELFFile.typeRelocatable else {
            throw BinaryInfoError.unsupported(detail: "a relocatable object (.o) has no load addresses; link it first")
        }
        let space = try AddressSpace(file: file, bytes: bytes)
        var limit: UInt64 = 0
        for region in space.regions {
            let (end, overflow) = region.start.addingReportingOverflow(region.size)
            guard !overflow, end <= Self.maximumAddressLimit else {
                throw BinaryInfoError.unsupported(detail: "section at 0x\(String(region.start, radix: 16)) (\(region.size) bytes) lies beyond the \(Self.maximumAddressLimit)-byte address limit")
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
        self.space = space
        self.addressLimit = limit
        self.swiftSections = sections
        self.neededLibraries = dynamic.needed
        self.searchPaths = dynamic.searchPaths
        self.relocations = Self.relocations(of: file, space: space)
    }

    /// Copies every allocated section's file bytes to `base + address` (NOBITS sections are left
    /// as they are: the caller provides zeroed memory). Relocations are not applied.
    ///
    /// - Parameter capacity: the bytes available at `base`; at least ``addressLimit``.
    public func copyContents(into base: UnsafeMutableRawPointer, capacity: UInt64) throws {
        guard capacity >= addressLimit else {
            throw BinaryInfoError.outOfBounds(what: "image copy", address: 0, length: addressLimit)
        }
        for region in space.regions where region.hasFileBytes {
            let destination = UnsafeMutableRawBufferPointer(start: base + Int(region.start), count: Int(region.size))
            try space.bytes.fetch(into: destination, fromOffset: region.fileOffset, what: "section at 0x\(String(region.start, radix: 16))")
        }
    }

    /// The file offset holding the byte at virtual `address`, or nil for an address in no
    /// section with file bytes.
    public func fileOffset(ofAddress address: UInt64) -> UInt64? {
        guard let region = space.region(containing: address), region.hasFileBytes else { return nil }
        return region.fileOffset + (address - region.start)
    }

    /// The address of a symbol this image defines and exports, or nil.
    public func address(ofSymbol name: String) -> UInt64? {
        if symbolAddresses == nil {
            var table: [String: UInt64] = [:]
            for symbol in file.definedSymbols where symbol.value != 0 {
                if let symbolName = file.name(of: symbol, in: space.bytes), !symbolName.isEmpty, table[symbolName] == nil {
                    table[symbolName] = symbol.value
                }
            }
            symbolAddresses = table
        }
        return symbolAddresses?[name]
    }

    private static func relocations(of file: ELFFile, space: AddressSpace) -> [Relocation] {
        let relative: Set<UInt32> = [8, 1027]                   // R_X86_64_RELATIVE, R_AARCH64_RELATIVE
        let symbolic: Set<UInt32> = [1, 6, 7, 257, 1025, 1026] // 64, GLOB_DAT, JUMP_SLOT (x86_64, aarch64)
        var result: [Relocation] = []
        var covered: Set<UInt64> = []
        for section in file.relocationSections where section.isDynamic {
            let symbols = file.symbolTables[section.symbolTableSection] ?? []
            for entry in section.entries {
                if relative.contains(entry.type) {
                    result.append(.relative(place: entry.offset, addend: UInt64(bitPattern: entry.addend)))
                    covered.insert(entry.offset)
                } else if symbolic.contains(entry.type), entry.symbolIndex < symbols.count {
                    let symbol = symbols[entry.symbolIndex]
                    if symbol.isDefined {
                        result.append(.defined(place: entry.offset, address: symbol.value &+ UInt64(bitPattern: entry.addend)))
                    } else if !symbol.name.isEmpty {
                        result.append(.imported(place: entry.offset, symbol: symbol.name, addend: entry.addend))
                    }
                    covered.insert(entry.offset)
                }
            }
        }
        // RELR-packed relative relocations: the address space already holds their targets.
        for (place, target) in space.slots where !covered.contains(place) {
            if case .address(let address) = target { result.append(.relative(place: place, addend: address)) }
        }
        return result
    }
}
