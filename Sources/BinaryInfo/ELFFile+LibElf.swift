import CLibElf
import TypeLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One ELF section header, as libelf reads it, with the questions the readers ask of it
/// answered once from libelf's constants (`SHT_*`, `SHF_*`).
public struct ImageSection: Sendable {
    /// The section's index in the header table.
    public var index: Int
    /// The section's name (from the section name table).
    public var name: String
    /// `sh_type`.
    public var type: UInt32
    /// `sh_flags`.
    public var flags: UInt64
    /// `sh_addr`.
    public var address: UInt64
    /// `sh_offset`: where its bytes start in the file (meaningless for `SHT_NOBITS`).
    public var offset: UInt64
    /// `sh_size`.
    public var size: UInt64
    /// `sh_link`.
    public var link: UInt32
    /// `sh_info`.
    public var info: UInt32

    /// A section header with the given fields (for readers that find headers elsewhere than
    /// through ``ImageFile/sectionHeaders()`` and want the same questions answered).
    public init(
        index: Int, name: String, type: UInt32, flags: UInt64, address: UInt64, offset: UInt64, size: UInt64,
        link: UInt32, info: UInt32
    ) {
        self.index = index
        self.name = name
        self.type = type
        self.flags = flags
        self.address = address
        self.offset = offset
        self.size = size
        self.link = link
        self.info = info
    }

    /// False for `SHT_NOBITS` sections (`.bss`), which occupy no bytes in the file.
    public var hasFileBytes: Bool { type != UInt32(SHT_NOBITS) }
    /// `SHF_TLS`: a thread-local template whose addresses overlap other sections.
    public var isThreadLocal: Bool { flags & UInt64(SHF_TLS) != 0 }
    /// `SHF_ALLOC`: the section is part of the loaded image.
    public var isAllocated: Bool { flags & UInt64(SHF_ALLOC) != 0 }
    /// `SHF_COMPRESSED`: the bytes are a compression header and compressed data.
    public var isCompressed: Bool { flags & UInt64(SHF_COMPRESSED) != 0 }
    /// `SHT_GROUP`: a COMDAT group of a relocatable object.
    public var isGroup: Bool { type == UInt32(SHT_GROUP) }
    /// `SHF_EXECINSTR`: machine code.
    public var isExecutable: Bool { flags & UInt64(SHF_EXECINSTR) != 0 }
    /// `SHT_DYNAMIC`: the dynamic section (`DT_NEEDED`, `DT_RUNPATH`, …).
    public var isDynamic: Bool { type == UInt32(SHT_DYNAMIC) }
    /// `SHT_GNU_HASH`: the dynamic loader's hash table of exported symbols.
    public var isGNUHashTable: Bool { type == UInt32(SHT_GNU_HASH) }
    /// `SHT_DYNSYM`: the dynamic symbol table.
    public var isDynamicSymbolTable: Bool { type == UInt32(SHT_DYNSYM) }
    /// `SHT_SYMTAB`: the static symbol table.
    var isStaticSymbolTable: Bool { type == UInt32(SHT_SYMTAB) }
    /// A static symbol table or a relocation section (`SHT_RELA`, `SHT_REL`): tables whose
    /// entries ELFFile copies out when it reads them, so their bytes are not read again.
    var isCopiedTable: Bool { isStaticSymbolTable || type == UInt32(SHT_RELA) || type == UInt32(SHT_REL) }
    /// The size of one `Elf64_Sym` entry of a symbol table.
    static let symbolEntrySize = UInt64(MemoryLayout<Elf64_Sym>.size)
}

/// One program header (a segment), as libelf reads it.
public struct ImageSegment: Sendable, Hashable {
    /// `p_type`.
    public var type: UInt32
    /// `p_flags`.
    public var flags: UInt32
    /// `p_offset`: where its bytes start in the file.
    public var offset: UInt64
    /// `p_vaddr`.
    public var address: UInt64
    /// `p_filesz`: how many of its bytes the file holds.
    public var fileSize: UInt64
    /// `p_memsz`: how many bytes it occupies in memory.
    public var memorySize: UInt64

    /// `PT_LOAD`: memory of the image (or, in a core file, of the process).
    public var isLoadable: Bool { type == UInt32(PT_LOAD) }
    /// `PT_NOTE`: a list of notes.
    public var isNote: Bool { type == UInt32(PT_NOTE) }
    /// `PF_R`, `PF_W`, `PF_X`.
    public var isReadable: Bool { flags & UInt32(PF_R) != 0 }
    public var isWritable: Bool { flags & UInt32(PF_W) != 0 }
    public var isExecutable: Bool { flags & UInt32(PF_X) != 0 }
}

/// One ELF note: who wrote it, its type, and where its descriptor lies in the file.
public struct ImageNote: Sendable, Hashable {
    /// The owner's name (`CORE`, `LINUX`, `GNU`).
    public var owner: String
    /// `n_type`, whose meaning depends on the owner.
    public var type: UInt32
    /// The file offset of the descriptor's first byte.
    public var descriptorOffset: UInt64
    /// The descriptor's size in bytes.
    public var descriptorSize: UInt64

    /// `NT_PRSTATUS` from `CORE`: one per thread of a dumped process.
    public var isThreadStatus: Bool { owner == "CORE" && type == UInt32(NT_PRSTATUS) }
    /// `NT_PRFPREG` from `CORE`: a thread's x87 and SSE registers (`FXSAVE`'s 512 bytes).
    public var isLegacyVectorState: Bool { owner == "CORE" && type == UInt32(NT_PRFPREG) }
    /// `NT_X86_XSTATE` from `LINUX`: a thread's `XSAVE` area (x87, SSE, AVX and later registers).
    public var isExtendedVectorState: Bool { owner == "LINUX" && type == UInt32(NT_X86_XSTATE) }
    /// The note type's name, for messages.
    public var typeName: String {
        if isThreadStatus { return "NT_PRSTATUS" }
        if isLegacyVectorState { return "NT_PRFPREG" }
        if isExtendedVectorState { return "NT_X86_XSTATE" }
        return "note type \(type) of \(owner)"
    }
    /// `NT_PRPSINFO` from `CORE`: the dumped process's identity.
    public var isProcessInfo: Bool { owner == "CORE" && type == UInt32(NT_PRPSINFO) }
    /// `NT_AUXV` from `CORE`: the dumped process's auxiliary vector.
    public var isAuxiliaryVector: Bool { owner == "CORE" && type == UInt32(NT_AUXV) }
    /// `NT_FILE` from `CORE`: the files mapped into the dumped process.
    public var isMappedFiles: Bool { owner == "CORE" && type == UInt32(NT_FILE) }
    /// `NT_GNU_BUILD_ID` from `GNU`: the image's build id.
    public var isBuildID: Bool { owner == "GNU" && type == UInt32(NT_GNU_BUILD_ID) }
}

/// One symbol from `.symtab` or `.dynsym`.
struct ELFSymbol: Sendable {
    /// The name of an undefined symbol (relocations name what they import); empty for defined
    /// symbols, whose names are read on demand (``ELFFile/name(of:in:)``) so that a large
    /// `.symtab` costs neither a heap string per symbol nor a walk over its string table.
    var name: String
    /// Offset of the name in the symbol table's string table.
    var nameOffset: UInt32
    /// Section index of that string table.
    var stringTable: Int
    var value: UInt64
    var sectionIndex: Int
    /// `st_size`: the object's or function's size in bytes, 0 when unknown.
    var size: UInt64 = 0
    /// Whether `st_info`'s type is `STT_FUNC` (code) or `STT_GNU_IFUNC`.
    var isFunction = false
    var isDefined: Bool { sectionIndex != Int(SHN_UNDEF) }
}

/// A defined symbol in compact form: where it is and where its name is, nothing else.
struct DefinedSymbol: Sendable {
    /// `st_value`: an address in linked images, an offset into its section in object files.
    var value: UInt64
    var nameOffset: UInt32
    var stringTable: UInt32
    var sectionIndex: UInt32
    /// `st_size`, 0 when unknown.
    var size: UInt64
    /// `STT_FUNC` or `STT_GNU_IFUNC`.
    var isFunction: Bool
}

/// One RELA relocation.
struct ELFRelocation: Sendable {
    var offset: UInt64
    var type: UInt32
    var symbolIndex: Int
    var addend: Int64
}

/// A relocation section: which section it patches and which symbol table it names symbols from.
struct ELFRelocationSection: Sendable {
    var targetSection: Int
    var symbolTableSection: Int
    var isDynamic: Bool
    var entries: [ELFRelocation]
}

/// Everything BinaryInfo needs from the ELF container, extracted through libelf in one pass.
///
/// This is the only file that calls libelf; no C type leaves it.
struct ELFFile: Sendable {
    static let typeRelocatable: UInt16 = UInt16(ET_REL)
    static let typeExecutable: UInt16 = UInt16(ET_EXEC)
    static let typeShared: UInt16 = UInt16(ET_DYN)
    static let typeCore: UInt16 = UInt16(ET_CORE)

    /// The file's path (``FileBytes/path``), for errors.
    var path: String
    var fileType: UInt16
    var machine: UInt16
    var sections: [ImageSection]
    /// Symbol tables that relocation sections refer to, by the index of the section that holds them.
    var symbolTables: [Int: [ELFSymbol]]
    /// Every named, defined symbol of every symbol table, compactly (a `.symtab` of a large
    /// library holds tens of thousands; only a few are ever looked at), sorted by value unless
    /// the reader asked for no sort.
    var definedSymbols: [DefinedSymbol]
    var relocationSections: [ELFRelocationSection]
    var hasSymtab: Bool
    var hasDebugInfo: Bool
    /// Whether a PT_INTERP program header names a dynamic loader (a PIE executable has one; a library does not).
    var hasInterpreter: Bool
    /// The program headers, in file order.
    var segments: [ImageSegment]
    /// The notes of every `PT_NOTE` segment, in file order (read for core files only).
    var notes: [ImageNote]

    /// The machine name as `uname -m` spells it (BinaryInfo reads little-endian files only).
    var architecture: String {
        ELFMachine.architectureName(of: machine, isLittleEndian: true) ?? "machine \(machine)"
    }

    /// Parses the ELF structure of `bytes` with libelf.
    ///
    /// - Throws: ``BinaryInfoError`` when the bytes are not a 64-bit little-endian ELF file
    ///   or a header, section or table lies outside them.
    /// - Parameter includeStaticSymbols: read `.symtab` as well as `.dynsym` (a reader that needs
    ///   only exported symbols skips the much larger static table).
    /// - Parameter includeTables: read symbols and relocations at all (a reader that needs only
    ///   section headers and `.dynamic` skips them).
    /// - Parameter sortsSymbols: sort ``definedSymbols`` by value (a reader that only walks them
    ///   by name, as ``LoadableImage`` does, skips the sort).
    init(bytes: FileBytes, includeStaticSymbols: Bool = true, includeTables: Bool = true, sortsSymbols: Bool = true)
        throws(BinaryInfoError)
    {
        let path = bytes.path
        guard let base = bytes.buffer.baseAddress else { throw BinaryInfoError.notELF(path: path) }
        try Self.checkIdentification(Array(UnsafeRawBufferPointer(start: base, count: min(bytes.count, 64))), path: path)
        _ = elf_version(UInt32(EV_CURRENT))
        guard let elf = elf_memory(base.assumingMemoryBound(to: CChar.self), bytes.count) else {
            throw BinaryInfoError.malformedELF(path: path, detail: Self.lastError())
        }
        defer { elf_end(elf) }
        try self.init(
            elf: elf, fileSize: UInt64(bytes.count), path: path, includeStaticSymbols: includeStaticSymbols, includeTables: includeTables,
            sortsSymbols: sortsSymbols)
    }

    /// Parses the ELF structure of the open file `descriptor` (`size` bytes, its first bytes
    /// `identification`) with libelf reading it piece by piece with `pread` (`ELF_C_READ`):
    /// nothing is mapped, so a file that shrinks meanwhile gives libelf a short read, not this
    /// process a `SIGBUS`, and a file of any size is read. Headers and notes only, as a core
    /// file needs (no symbols or relocations).
    init(descriptor: Int32, size: UInt64, identification: [UInt8], path: String) throws(BinaryInfoError) {
        try Self.checkIdentification(identification, path: path)
        guard size >= 64 else { throw BinaryInfoError.malformedELF(path: path, detail: "truncated ELF header (\(size) bytes)") }
        _ = elf_version(UInt32(EV_CURRENT))
        guard let elf = elf_begin(descriptor, ELF_C_READ, nil) else {
            throw BinaryInfoError.malformedELF(path: path, detail: Self.lastError())
        }
        defer { elf_end(elf) }
        try self.init(elf: elf, fileSize: size, path: path, includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
    }

    /// Checks the identification bytes (`e_ident`) libelf would accept but BinaryInfo does not
    /// read: only 64-bit little-endian ELF files.
    private static func checkIdentification(_ bytes: [UInt8], path: String) throws(BinaryInfoError) {
        guard bytes.count >= 4, bytes[0] == 0x7F, bytes[1] == UInt8(ascii: "E"), bytes[2] == UInt8(ascii: "L"),
            bytes[3] == UInt8(ascii: "F")
        else { throw BinaryInfoError.notELF(path: path) }
        guard bytes.count >= 64 else {
            throw BinaryInfoError.malformedELF(path: path, detail: "truncated ELF header (\(bytes.count) bytes)")
        }
        guard bytes[4] == UInt8(ELFCLASS64) else {
            throw BinaryInfoError.unsupported(path: path, detail: "32-bit ELF; only 64-bit images are read")
        }
        guard bytes[5] == UInt8(ELFDATA2LSB) else {
            throw BinaryInfoError.unsupported(path: path, detail: "big-endian ELF; only little-endian images are read")
        }
    }

    private init(
        elf: OpaquePointer, fileSize: UInt64, path: String, includeStaticSymbols: Bool, includeTables: Bool, sortsSymbols: Bool
    ) throws(BinaryInfoError) {
        self.path = path
        guard elf_kind(elf) == ELF_K_ELF else { throw BinaryInfoError.notELF(path: path) }

        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else {
            throw BinaryInfoError.malformedELF(path: path, detail: "unreadable ELF header: \(Self.lastError())")
        }
        fileType = header.e_type
        machine = header.e_machine

        var stringTableIndex = 0
        guard elf_getshdrstrndx(elf, &stringTableIndex) == 0 else {
            throw BinaryInfoError.malformedELF(path: path, detail: "no section name table: \(Self.lastError())")
        }

        var sections: [ImageSection] = []
        var scn = elf_nextscn(elf, nil)
        while let section = scn {
            var sh = GElf_Shdr()
            guard gelf_getshdr(section, &sh) != nil else {
                throw BinaryInfoError.malformedELF(path: path, detail: "unreadable section header: \(Self.lastError())")
            }
            let index = elf_ndxscn(section)
            let name = elf_strptr(elf, stringTableIndex, Int(sh.sh_name)).map { String(cString: $0) } ?? ""
            let entry = ImageSection(
                index: index, name: name, type: sh.sh_type, flags: sh.sh_flags, address: sh.sh_addr,
                offset: sh.sh_offset, size: sh.sh_size, link: sh.sh_link, info: sh.sh_info
            )
            // SHT_NULL marks an inactive header whose other fields mean nothing (gABI): it is not
            // a section, so no reader sees it (its offset, size or address would be a guess).
            if entry.type == UInt32(SHT_NULL) {
                scn = elf_nextscn(elf, section)
                continue
            }
            if entry.hasFileBytes {
                let (end, overflow) = entry.offset.addingReportingOverflow(entry.size)
                if overflow || end > fileSize {
                    throw BinaryInfoError.outOfBounds(
                        path: path, what: "section \(name.isEmpty ? "#\(index)" : name)", address: entry.offset, length: entry.size)
                }
            }
            sections.append(entry)
            scn = elf_nextscn(elf, section)
        }
        self.sections = sections
        hasSymtab = sections.contains { $0.type == UInt32(SHT_SYMTAB) }
        hasDebugInfo = sections.contains { $0.name == ".debug_info" }

        var segments: [ImageSegment] = []
        var programHeaderCount = 0
        let isCore = header.e_type == UInt16(ET_CORE)
        let counted = elf_getphdrnum(elf, &programHeaderCount) == 0
        // A core's memory and notes are all in its program headers: one it cannot read is an
        // error. libelf counts only the headers that fit the file; the ELF header's own count
        // says how many there are (unless it overflowed into section header 0's sh_info).
        if isCore {
            guard counted || header.e_phnum != UInt16(PN_XNUM) else {
                throw BinaryInfoError.malformedELF(path: path, detail: "unreadable program header count: \(Self.lastError())")
            }
            let statedCount = header.e_phnum == UInt16(PN_XNUM) ? programHeaderCount : Int(header.e_phnum)
            try Self.checkCoreProgramHeaders(
                offset: header.e_phoff, entrySize: UInt64(header.e_phentsize), count: statedCount, fileSize: fileSize, path: path)
        }
        if counted {
            for index in 0..<programHeaderCount {
                var ph = GElf_Phdr()
                guard gelf_getphdr(elf, Int32(index), &ph) != nil else {
                    if isCore {
                        throw BinaryInfoError.malformedELF(path: path, detail: "unreadable program header #\(index): \(Self.lastError())")
                    }
                    continue
                }
                segments.append(
                    ImageSegment(
                        type: ph.p_type, flags: ph.p_flags, offset: ph.p_offset, address: ph.p_vaddr, fileSize: ph.p_filesz,
                        memorySize: ph.p_memsz))
            }
        }
        self.segments = segments
        hasInterpreter = segments.contains { $0.type == UInt32(PT_INTERP) }
        notes = isCore ? try Self.readNotes(elf: elf, segments: segments, fileSize: fileSize, path: path) : []

        var relocationSections: [ELFRelocationSection] = []
        scn = includeTables ? elf_nextscn(elf, nil) : nil
        while let section = scn {
            defer { scn = elf_nextscn(elf, section) }
            var sh = GElf_Shdr()
            guard gelf_getshdr(section, &sh) != nil, sh.sh_type == UInt32(SHT_RELA) else { continue }
            relocationSections.append(try Self.readRelocations(section: section, header: sh, index: elf_ndxscn(section), path: path))
        }
        let referenced = Set(relocationSections.map(\.symbolTableSection))
        var symbolTables: [Int: [ELFSymbol]] = [:]
        var definedSymbols: [DefinedSymbol] = []
        scn = includeTables ? elf_nextscn(elf, nil) : nil
        while let section = scn {
            defer { scn = elf_nextscn(elf, section) }
            var sh = GElf_Shdr()
            guard gelf_getshdr(section, &sh) != nil else { continue }
            let index = elf_ndxscn(section)
            if (sh.sh_type == UInt32(SHT_SYMTAB) && includeStaticSymbols) || sh.sh_type == UInt32(SHT_DYNSYM) {
                let symbols = try Self.readSymbols(elf: elf, section: section, header: sh, path: path)
                definedSymbols.reserveCapacity(definedSymbols.count + symbols.count)
                for symbol in symbols where symbol.isDefined && symbol.nameOffset != 0 {
                    definedSymbols.append(
                        DefinedSymbol(
                            value: symbol.value, nameOffset: symbol.nameOffset,
                            stringTable: UInt32(truncatingIfNeeded: symbol.stringTable),
                            sectionIndex: UInt32(truncatingIfNeeded: symbol.sectionIndex), size: symbol.size,
                            isFunction: symbol.isFunction
                        ))
                }
                if referenced.contains(index) { symbolTables[index] = symbols }
            }
        }
        self.symbolTables = symbolTables
        // Sorted by value once here, so a linked image's address lookups need no second copy.
        if sortsSymbols { definedSymbols.sort { $0.value < $1.value } }
        self.definedSymbols = definedSymbols
        self.relocationSections = relocationSections
    }

    private static func readSymbols(elf: OpaquePointer, section: OpaquePointer, header: GElf_Shdr, path: String) throws(BinaryInfoError)
        -> [ELFSymbol]
    {
        try tableEntries(
            section: section, header: header, path: path, table: "symbol table", entry: "symbol"
        ) { data, index in
            var sym = GElf_Sym()
            guard gelf_getsym(data, index, &sym) != nil else { return nil }
            var name = ""
            if sym.st_shndx == UInt16(SHN_UNDEF), sym.st_name != 0,
                let pointer = elf_strptr(elf, Int(header.sh_link), Int(sym.st_name))
            {
                name = String(cString: pointer)
            }
            return ELFSymbol(
                name: name, nameOffset: sym.st_name, stringTable: Int(header.sh_link),
                value: sym.st_value, sectionIndex: Int(sym.st_shndx), size: sym.st_size,
                isFunction: [UInt8(STT_FUNC), UInt8(STT_GNU_IFUNC)].contains(sym.st_info & 0xF)
            )
        }
    }

    /// The entries of a symbol or relocation table, each read by `read` (nil when libelf cannot
    /// read it); `table` names the table in errors, `entry` and `within` an entry (`relocation #3 in section #5`).
    private static func tableEntries<Entry>(
        section: OpaquePointer, header: GElf_Shdr, path: String, table: String, entry: String, within: String = "",
        read: (_ data: UnsafeMutablePointer<Elf_Data>, _ index: Int32) -> Entry?
    ) throws(BinaryInfoError) -> [Entry] {
        guard header.sh_entsize > 0, let data = elf_getdata(section, nil) else {
            throw BinaryInfoError.malformedELF(path: path, detail: "unreadable \(table): \(lastError())")
        }
        // The section's bytes are inside the file (checked above), so the count is bounded by
        // the file's size; libelf indexes entries with an Int32.
        let count = Int(header.sh_size / header.sh_entsize)
        guard count <= Int(Int32.max) else {
            throw BinaryInfoError.malformedELF(path: path, detail: "\(table) holds \(count) entries, more than libelf can index")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            guard let value = read(data, Int32(index)) else {
                throw BinaryInfoError.malformedELF(path: path, detail: "unreadable \(entry) #\(index)\(within): \(lastError())")
            }
            entries.append(value)
        }
        return entries
    }

    /// The name of a symbol, read from its string table in `bytes` (bounds-checked); nil when the
    /// string table or the offset is out of range.
    /// Whether `symbol`'s name starts with `prefix` and ends with `suffix` (or `otherSuffix`), compared as
    /// bytes: a scan of every symbol for a few names makes no string of the others.
    func symbol(
        _ symbol: DefinedSymbol, in bytes: FileBytes, hasPrefix prefix: StaticString, suffix: StaticString,
        orSuffix otherSuffix: StaticString? = nil
    )
        -> Bool
    {
        guard let table = sections.first(where: { $0.index == Int(symbol.stringTable) }), table.hasFileBytes,
            UInt64(symbol.nameOffset) < table.size
        else { return false }
        return bytes.cString(
            atOffset: table.offset + UInt64(symbol.nameOffset), limit: table.size - UInt64(symbol.nameOffset), hasPrefix: prefix,
            suffix: suffix, orSuffix: otherSuffix)
    }

    func name(of symbol: DefinedSymbol, in bytes: FileBytes) -> String? {
        guard let table = sections.first(where: { $0.index == Int(symbol.stringTable) }), table.hasFileBytes,
            UInt64(symbol.nameOffset) < table.size
        else { return nil }
        return bytes.cString(atOffset: table.offset + UInt64(symbol.nameOffset), limit: table.size - UInt64(symbol.nameOffset))
    }

    private static func readRelocations(section: OpaquePointer, header: GElf_Shdr, index: Int, path: String) throws(BinaryInfoError)
        -> ELFRelocationSection
    {
        let entries = try tableEntries(
            section: section, header: header, path: path, table: "relocation section #\(index)",
            entry: "relocation", within: " in section #\(index)"
        ) { data, entry -> ELFRelocation? in
            var rela = GElf_Rela()
            guard gelf_getrela(data, entry, &rela) != nil else { return nil }
            return ELFRelocation(
                offset: rela.r_offset,
                type: UInt32(truncatingIfNeeded: rela.r_info & 0xFFFF_FFFF),
                symbolIndex: Int(rela.r_info >> 32),
                addend: rela.r_addend
            )
        }
        // SHF_ALLOC relocation sections (.rela.dyn, .rela.plt) are applied by the loader to the image;
        // others (.rela.text in object files) patch the section named by sh_info.
        return ELFRelocationSection(
            targetSection: Int(header.sh_info),
            symbolTableSection: Int(header.sh_link),
            isDynamic: header.sh_flags & UInt64(SHF_ALLOC) != 0,
            entries: entries
        )
    }

    /// The notes of every `PT_NOTE` segment of a core file; a note segment past the file's end
    /// (a truncated core) or a note libelf cannot parse is an error: a core's notes say which
    /// process it was and what it mapped.
    private static func readNotes(elf: OpaquePointer, segments: [ImageSegment], fileSize: UInt64, path: String) throws(BinaryInfoError)
        -> [ImageNote]
    {
        var notes: [ImageNote] = []
        for segment in segments where segment.isNote && segment.fileSize > 0 {
            let (end, overflow) = segment.offset.addingReportingOverflow(segment.fileSize)
            guard !overflow, end <= fileSize, let size = Int(exactly: segment.fileSize), let offset = Int64(exactly: segment.offset)
            else {
                throw BinaryInfoError.truncatedCore(
                    path: path, segmentAddress: nil, neededSize: overflow ? .max : end, fileSize: fileSize)
            }
            guard let data = elf_getdata_rawchunk(elf, offset, size, ELF_T_NHDR) else {
                throw BinaryInfoError.malformedELF(
                    path: path, detail: "unreadable note segment at offset \(segment.offset): \(lastError())")
            }
            var cursor = 0
            while cursor < size {
                var header = GElf_Nhdr()
                var nameOffset = 0
                var descriptorOffset = 0
                let next = gelf_getnote(data, cursor, &header, &nameOffset, &descriptorOffset)
                guard next > cursor else {
                    throw BinaryInfoError.malformedELF(
                        path: path,
                        detail: "malformed note at offset \(segment.offset + UInt64(cursor)) of the note segment at \(segment.offset)")
                }
                var owner = ""
                if header.n_namesz > 0, let base = data.pointee.d_buf {
                    // gelf_getnote checked that the name lies inside the chunk; it ends in a NUL the size counts.
                    let name = UnsafeRawBufferPointer(start: base + nameOffset, count: Int(header.n_namesz))
                    owner = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
                }
                notes.append(
                    ImageNote(
                        owner: owner, type: header.n_type, descriptorOffset: segment.offset + UInt64(descriptorOffset),
                        descriptorSize: UInt64(header.n_descsz)))
                cursor = next
            }
        }
        return notes
    }

    /// The sizes (`st_size`) of the defined functions (`STT_FUNC`) in the symbol tables of
    /// `bytes` whose names start with one of `prefixes`, by name: every size a name has (local
    /// functions of one name can be several). Read in a pass of its own, only by the readers that
    /// compare two builds of a runtime (``ToolchainConcurrencyRuntime``).
    ///
    /// - Throws: ``BinaryInfoError`` when the bytes are not an ELF file libelf reads.
    static func functionSizes(in bytes: FileBytes, prefixes: [String]) throws(BinaryInfoError) -> [String: Set<UInt64>] {
        guard bytes.count >= 64, let base = bytes.buffer.baseAddress else { throw BinaryInfoError.notELF(path: bytes.path) }
        _ = elf_version(UInt32(EV_CURRENT))
        guard let elf = elf_memory(base.assumingMemoryBound(to: CChar.self), bytes.count), elf_kind(elf) == ELF_K_ELF else {
            throw BinaryInfoError.notELF(path: bytes.path)
        }
        defer { elf_end(elf) }
        var sizes: [String: Set<UInt64>] = [:]
        var scn = elf_nextscn(elf, nil)
        while let section = scn {
            defer { scn = elf_nextscn(elf, section) }
            var sh = GElf_Shdr()
            guard gelf_getshdr(section, &sh) != nil, sh.sh_type == UInt32(SHT_SYMTAB) || sh.sh_type == UInt32(SHT_DYNSYM),
                sh.sh_entsize > 0, let data = elf_getdata(section, nil)
            else { continue }
            let count = min(sh.sh_size / sh.sh_entsize, UInt64(Int32.max))
            for index in 0..<Int32(count) {
                var sym = GElf_Sym()
                guard gelf_getsym(data, index, &sym) != nil, Int32(sym.st_info & 0xF) == STT_FUNC,
                    sym.st_shndx != UInt16(SHN_UNDEF), sym.st_name != 0,
                    let name = elf_strptr(elf, Int(sh.sh_link), Int(sym.st_name)),
                    prefixes.contains(where: { strncmp(name, $0, $0.utf8.count) == 0 })
                else { continue }
                sizes[String(cString: name), default: []].insert(sym.st_size)
            }
        }
        return sizes
    }

    private static func lastError() -> String {
        elf_errmsg(-1).map { String(cString: $0) } ?? "unknown libelf error"
    }
}
