#if canImport(Glibc)
import Algorithms
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TypeLayout

/// Where a pointer-sized slot of the image points once the loader has done its work.
enum PointerTarget: Hashable, Sendable {
    /// An address inside this image.
    case address(UInt64)
    /// A symbol defined in another image (resolved by name only: we never load it).
    case symbol(String)
}

/// Where an address space reads its sections' bytes from.
enum LoadedBytes: Sendable {
    /// The file's own bytes, at each section's file offset; zero-filled sections read as zeros.
    case file
    /// The memory of a process or core that loaded the file: each section's bytes at its address
    /// plus `bias`. The file still supplies the layout (sections, relocations, symbols).
    case target(any ByteReader & Sendable, bias: UInt64)
}

/// The image's virtual address space, bounds-checked on every read: its layout from the file,
/// its bytes from the file or from a target that loaded it (``LoadedBytes``).
///
/// Linked images (executables, shared libraries) use their section addresses. Relocatable
/// objects have none, so ``AddressSpace/init(file:bytes:)`` lays their sections out at synthetic
/// addresses and applies the relocations the Swift sections need.
///
/// Pointer slots are the file's relocations, resolved at the file's addresses, also when the
/// bytes come from a target (whose slots hold the same values plus the bias): every address a
/// reader sees is the file's, whichever it reads.
struct AddressSpace: ByteReader, Sendable {
    struct Region: Sendable {
        var start: UInt64
        var size: UInt64
        var fileOffset: UInt64
        var hasFileBytes: Bool
        /// The index of the section this region is.
        var section: Int
    }

    /// Allocated sections, sorted by start address.
    private(set) var regions: [Region] = []
    let bytes: FileBytes
    /// Where the sections' bytes are read from once the file's tables are read.
    private(set) var loaded = LoadedBytes.file
    /// The file's path, or the target's name when the bytes are a target's: what errors name.
    var path: String {
        switch loaded {
        case .file: return bytes.path
        case .target(let memory, _): return memory.path
        }
    }
    /// Pointer slots whose value the loader (or the object file's relocations) supplies.
    private(set) var slots = PointerSlots()
    /// Synthetic addresses standing for undefined symbols (object files only).
    private(set) var externalNames: [UInt64: String] = [:]
    /// Section address by section index, for symbol values.
    private(set) var sectionAddresses: [Int: UInt64] = [:]

    /// - Parameter recordingRelocationSections: record the RELA dynamic relocations' slots too
    ///   (``LoadableImage`` reads those tables itself and needs only the RELR-packed ones here).
    init(file: ELFFile, bytes: FileBytes, recordingRelocationSections: Bool = true) throws(BinaryInfoError) {
        // (Linked images: sections at their addresses, then RELA and RELR dynamic relocations.)
        self.bytes = bytes
        if file.fileType == ELFFile.typeRelocatable {
            try layOutObjectFile(file)
        } else {
            // Thread-local templates (.tdata/.tbss) overlap ordinary sections' addresses; the image never points into them.
            for section in file.sections where section.isAllocated && !section.isThreadLocal && section.address != 0 && section.size > 0 {
                guard !section.address.addingReportingOverflow(section.size).overflow else {
                    throw BinaryInfoError.outOfBounds(
                        path: path, what: "section \(Self.label(section))", address: section.address, length: section.size)
                }
                regions.append(
                    Region(
                        start: section.address, size: section.size, fileOffset: section.offset, hasFileBytes: section.hasFileBytes,
                        section: section.index))
                sectionAddresses[section.index] = section.address
            }
            regions.sort { $0.start < $1.start }
            try Self.refuseOverlaps(regions, file: file)
            if recordingRelocationSections { recordDynamicRelocations(file) }
            try recordPackedRelativeRelocations(file)
        }
        slots.sort()
    }

    /// The address space of `file` as the target behind `memory` loaded it, `bias` above the
    /// file's addresses: sections, relocations and symbols from the file, bytes from the target.
    init(file: ELFFile, bytes: FileBytes, loadedIn memory: any ByteReader & Sendable, bias: UInt64) throws(BinaryInfoError) {
        guard file.fileType != ELFFile.typeRelocatable else {
            throw BinaryInfoError.unsupported(path: bytes.path, detail: "a relocatable object (.o) is never loaded by a process")
        }
        // The packed relocations' addends are the file's stored values: read before the target's.
        try self.init(file: file, bytes: bytes)
        loaded = .target(memory, bias: bias)
    }

    /// A loaded image's sections never share an address: where two claim the same byte, which
    /// one a pointer means is unknowable, so the file is refused rather than read either way.
    private static func refuseOverlaps(_ sorted: [Region], file: ELFFile) throws(BinaryInfoError) {
        let path = file.path
        for (lower, upper) in zip(sorted, sorted.dropFirst()) where upper.start - lower.start < lower.size {
            let names = [lower.section, upper.section].map { index in
                file.sections.first { $0.index == index }.map(label) ?? "#\(index)"
            }
            throw BinaryInfoError.malformedELF(
                path: path, detail: "sections \(names[0]) and \(names[1]) overlap at address 0x\(String(upper.start, radix: 16))")
        }
    }

    /// How a section is named in an error: its name and index (names can repeat or be empty).
    static func label(_ section: ImageSection) -> String {
        section.name.isEmpty ? "#\(section.index)" : "\(section.name) (#\(section.index))"
    }

    /// The section containing `address`, if any.
    func region(containing address: UInt64) -> Region? {
        let low = regions.partitioningIndex { $0.start > address }
        guard low > 0 else { return nil }
        let candidate = regions[low - 1]
        return address - candidate.start < candidate.size ? candidate : nil
    }

    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        let length = UInt64(destination.count)
        guard let region = region(containing: address) else {
            throw BinaryInfoError.outOfBounds(path: path, what: what(), address: address, length: length)
        }
        let offsetInRegion = address - region.start
        guard length <= region.size - offsetInRegion else {
            throw BinaryInfoError.outOfBounds(path: path, what: what(), address: address, length: length)
        }
        guard region.hasFileBytes else {
            // .bss and friends: zero-filled at load time. What a target wrote there since is its
            // data, not its image's, and would hold its own addresses rather than the file's.
            destination.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        switch loaded {
        case .file:
            try bytes.fetch(into: destination, fromOffset: region.fileOffset + offsetInRegion, what: what())
        case .target(let memory, let bias):
            let (loadedAddress, overflow) = address.addingReportingOverflow(bias)
            guard !overflow else { throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: length) }
            try memory.fetch(into: destination, from: loadedAddress, what: what())
        }
    }

    /// Reads a NUL-terminated UTF-8 string as ``ByteReader/cString(at:what:)`` does: where the
    /// terminator lies in the section holding `address`, found there in one search of the file's
    /// bytes instead of a bounds-checked read a byte; otherwise (a string running on into the next
    /// section, or none ending) read a byte at a time, with the same result or error.
    func cString(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> String {
        if case .target = loaded { return try chunkedCString(at: address, what: what()) }
        if let region = region(containing: address), region.hasFileBytes, let base = bytes.buffer.baseAddress {
            let offset = region.fileOffset &+ (address - region.start)
            // A region with file bytes lies inside the file (checked when the sections were read).
            let window = min(
                region.size - (address - region.start), UInt64(maximumStringLength), UInt64(bytes.count) &- min(offset, UInt64(bytes.count))
            )
            if offset < UInt64(bytes.count), let terminator = memchr(base + Int(offset), 0, Int(window)) {
                let start = UnsafeRawPointer(base + Int(offset))
                let text = UnsafeRawBufferPointer(start: start, count: UnsafeRawPointer(terminator) - start)
                return String(decoding: text, as: UTF8.self)
            }
        }
        return try byteWiseCString(at: address, what: what())
    }

    /// ``cString(at:what:)`` from a target: up to 256 bytes a read (one system call for a process),
    /// each inside the section holding the string; a string running on into the next section, or
    /// reads the target refuses, go on a byte at a time, with the same result or error.
    private func chunkedCString(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> String {
        var text: [UInt8] = []
        var cursor = address
        var chunk = [UInt8](repeating: 0, count: 256)
        while text.count < maximumStringLength, let region = region(containing: cursor), region.hasFileBytes {
            let count = Int(min(UInt64(chunk.count), region.size - (cursor - region.start)))
            let filled = chunk.withUnsafeMutableBytes { buffer in
                (try? fetch(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), from: cursor, what: what())) != nil
            }
            guard filled else { break }
            if let end = chunk[0..<count].firstIndex(of: 0) {
                text += chunk[0..<end]
                guard text.count < maximumStringLength else { break }
                return String(decoding: text, as: UTF8.self)
            }
            text += chunk[0..<count]
            cursor &+= UInt64(count)
        }
        guard text.count < maximumStringLength else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: what(), address: address, detail: "string has no terminator within \(maximumStringLength) bytes")
        }
        let rest = try byteWiseCString(at: cursor, what: what())
        return String(decoding: text, as: UTF8.self) + rest
    }

    /// What the pointer-sized slot at `address` points to once loaded, or nil for a null pointer.
    func pointer(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> PointerTarget? {
        if let target = slots[address] { return target }
        let raw = try read(UInt64.self, at: address, what: what())
        if raw == 0 { return nil }
        if let name = externalNames[raw] { return .symbol(name) }
        return .address(raw)
    }

    /// The symbol an address inside an object file's synthetic external zone stands for.
    func externalName(at address: UInt64) -> String? {
        externalNames[address]
    }

    // MARK: - Linked images

    private mutating func recordDynamicRelocations(_ file: ELFFile) {
        guard let types = ELFMachine(rawValue: file.machine)?.relocationTypes else { return }
        // A few types each: searched as lists, which costs less per relocation than hashing into a set.
        let relative = Array(types.relative)
        let symbolic = Array(types.absolute64.union(types.globalData).union(types.jumpSlot))
        for relocationSection in file.relocationSections where relocationSection.isDynamic {
            let symbols = file.symbolTables[relocationSection.symbolTableSection] ?? []
            for entry in relocationSection.entries {
                if relative.contains(entry.type) {
                    slots.record(.address(UInt64(bitPattern: entry.addend)), at: entry.offset)
                } else if symbolic.contains(entry.type), entry.symbolIndex < symbols.count {
                    let symbol = symbols[entry.symbolIndex]
                    if symbol.isDefined {
                        slots.record(.address(symbol.value &+ UInt64(bitPattern: entry.addend)), at: entry.offset)
                    } else if !symbol.name.isEmpty {
                        slots.record(.symbol(symbol.name), at: entry.offset)
                    }
                }
            }
        }
    }

    /// SHT_RELR (`.relr.dyn`, `-z pack-relative-relocs`): relative relocations packed as a list
    /// of words. An even word is an address to relocate; an odd word is a bitmap of the 63 words
    /// after the last address. The addend is the value already stored at the address.
    private mutating func recordPackedRelativeRelocations(_ file: ELFFile) throws(BinaryInfoError) {
        for section in file.sections where section.type == 19 && section.size > 0 {
            var next: UInt64 = 0
            var offset: UInt64 = 0
            while offset + 8 <= section.size {
                var word: UInt64 = 0
                try withUnsafeMutableBytes(of: &word) { buffer throws(BinaryInfoError) in
                    try bytes.fetch(into: buffer, fromOffset: section.offset + offset, what: "packed relocation")
                }
                word = UInt64(littleEndian: word)
                offset += 8
                if word & 1 == 0 {
                    recordRelative(at: word)
                    next = word &+ 8
                } else {
                    var bits = word >> 1
                    var place = next
                    while bits != 0 {
                        if bits & 1 != 0 { recordRelative(at: place) }
                        bits >>= 1
                        place &+= 8
                    }
                    next &+= 63 * 8
                }
            }
        }
    }

    private mutating func recordRelative(at place: UInt64) {
        guard let value = try? read(UInt64.self, at: place, what: "relative relocation") else { return }
        slots.recordFallback(.address(value), at: place)
    }

    // MARK: - Relocatable objects

    private static let objectBase: UInt64 = 0x1_0000
    private static let externalBase: UInt64 = 0x7000_0000_0000
    private static let syntheticSlotBase: UInt64 = 0x7800_0000_0000

    private mutating func layOutObjectFile(_ file: ELFFile) throws(BinaryInfoError) {
        var cursor = Self.objectBase
        for section in file.sections where section.isAllocated && section.size > 0 {
            cursor = (cursor + 15) & ~15
            regions.append(
                Region(
                    start: cursor, size: section.size, fileOffset: section.offset, hasFileBytes: section.hasFileBytes,
                    section: section.index))
            sectionAddresses[section.index] = cursor
            let (next, overflow) = cursor.addingReportingOverflow(section.size)
            guard !overflow, next < Self.externalBase else {
                throw BinaryInfoError.malformedELF(path: path, detail: "section \(section.name) is too large to lay out")
            }
            cursor = next
        }
        regions.sort { $0.start < $1.start }

        var externalAddresses: [String: UInt64] = [:]
        var nextExternal = Self.externalBase
        var gotSlots: [PointerTarget: UInt64] = [:]
        var nextSlot = Self.syntheticSlotBase

        // Another machine's relocations are not applied: the references they fill stay unknown.
        guard let types = ELFMachine(rawValue: file.machine)?.relocationTypes else { return }
        for relocationSection in file.relocationSections {
            guard let targetBase = sectionAddresses[relocationSection.targetSection],
                let target = file.sections.first(where: { $0.index == relocationSection.targetSection }),
                target.hasFileBytes
            else { continue }
            let symbols = file.symbolTables[relocationSection.symbolTableSection] ?? []
            for entry in relocationSection.entries {
                guard entry.symbolIndex < symbols.count, entry.offset < target.size else { continue }
                let symbol = symbols[entry.symbolIndex]
                let symbolAddress: UInt64
                if symbol.isDefined {
                    guard let base = sectionAddresses[symbol.sectionIndex] else { continue }
                    symbolAddress = base &+ symbol.value
                } else {
                    if let known = externalAddresses[symbol.name] {
                        symbolAddress = known
                    } else {
                        symbolAddress = nextExternal
                        externalAddresses[symbol.name] = nextExternal
                        externalNames[nextExternal] = symbol.name
                        nextExternal &+= 16
                    }
                }
                let place = targetBase &+ entry.offset
                let fileOffset = target.offset &+ entry.offset
                let addend = UInt64(bitPattern: entry.addend)
                switch entry.type {
                case let type where types.pcRelative32.contains(type):  // S + A - P
                    let value = Int64(bitPattern: symbolAddress &+ addend &- place)
                    try bytes.patch(Int32(truncatingIfNeeded: value), atOffset: fileOffset)
                case let type where types.gotPCRelative32.contains(type):  // G + GOT + A - P
                    let pointee: PointerTarget = symbol.isDefined ? .address(symbolAddress) : .symbol(symbol.name)
                    let slot: UInt64
                    if let existing = gotSlots[pointee] {
                        slot = existing
                    } else {
                        slot = nextSlot
                        gotSlots[pointee] = slot
                        slots.record(pointee, at: slot)
                        nextSlot &+= 8
                    }
                    let value = Int64(bitPattern: slot &+ addend &- place)
                    try bytes.patch(Int32(truncatingIfNeeded: value), atOffset: fileOffset)
                case let type where types.absolute64.contains(type):  // S + A
                    if symbol.isDefined {
                        slots.record(.address(symbolAddress &+ addend), at: place)
                        try bytes.patch(symbolAddress &+ addend, atOffset: fileOffset)
                    } else {
                        slots.record(.symbol(symbol.name), at: place)
                    }
                default:
                    continue
                }
            }
        }
    }
}
