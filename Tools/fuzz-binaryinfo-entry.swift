// libFuzzer entry point for BinaryInfo: every input is parsed as an ELF image held in memory,
// and as a core file (with its glibc heap and a Swift metadata allocator pool walked), also one
// whose bytes change while it is read.
// Built and run by Tools/fuzz-binaryinfo; a crash, trap, hang or sanitizer report is a bug.
@_spi(Fuzzing) import BinaryInfo
#if canImport(Glibc)
import Glibc
#endif

/// The libswiftCore.so this fuzzer runs on, so that the input's names reach the runtime
/// library's witness-table lookups as in a real reading.
let fuzzRuntimeLibrary: String? = {
    guard let maps = fopen("/proc/self/maps", "r") else { return nil }
    defer { fclose(maps) }
    var line = [CChar](repeating: 0, count: 4096)
    while fgets(&line, Int32(line.count), maps) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasSuffix("/libswiftCore.so\n"), let slash = text.firstIndex(of: "/") { return String(text[slash...].dropLast()) }
    }
    return nil
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func binaryInfoFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // A clear error is a fine outcome; only a crash is not.
    _ = try? BinaryImage.layouts(of: bytes, name: "fuzz-input", runtimeLibrary: fuzzRuntimeLibrary)
    // The loader's view that TypeLowering's worker lays out: sections, .dynamic, relocations, symbols.
    if let image = try? LoadableImage(bytes: bytes, name: "fuzz-input") {
        _ = image.neededLibraries.count + image.searchPaths.count + image.relocations.count
        _ = image.address(ofSymbol: "$sSiN")
        _ = image.address(ofSymbol: "$sSiMn")
    }
    // As the worker reads a dependency: tables on first use, exported symbols through `.gnu.hash`.
    if let image = try? LoadableImage(bytes: bytes, name: "fuzz-input", deferringTables: true) {
        _ = image.address(ofExportedSymbol: ExportedSymbolName("$sSiN"))
        _ = image.relocations.count
        _ = image.tableProblem
        _ = image.address(ofSymbol: "$sSiMn")
    }
    // A core file: segments, notes (NT_FILE, NT_AUXV, NT_PRPSINFO), reads of its memory.
    if let core = try? CoreFile(bytes: bytes, name: "fuzz-input") {
        readCore(core)
    }
    // The same core read from a file that is cut short and overwritten after it was opened, as a
    // dump still being written or replaced is: its reads must fail cleanly, never crash.
    if let core = changingCore(bytes, seed: size) {
        readCore(core)
    }
    // The same core whose memory changes while it is read, as a running process's does: read as a
    // running process's heap is (going around what changes) and strictly, after a number of
    // stable reads derived from the input.
    let seed = bytes.prefix(64).reduce(UInt64(size)) { $0 &* 31 &+ UInt64($1) }
    for changing in [true, false] {
        if let core = try? CoreFile(bytes: bytes, name: "fuzz-input", changingAfterReads: Int(seed % 48), seed: seed) {
            readCore(core, heapChanging: changing)
        }
    }
    return 0
}

/// The file the changing core is written to, one per fuzzing process, removed when it exits.
let changingCorePath: String = {
    atexit { unlink("/dev/shm/fuzz-binaryinfo-core-\(getpid())") }
    return "/dev/shm/fuzz-binaryinfo-core-\(getpid())"
}()

/// Writes `bytes` to ``changingCorePath``, opens it as a core, then cuts the file short and
/// overwrites a stretch of what is left, both at places derived from `seed`.
func changingCore(_ bytes: [UInt8], seed: Int) -> CoreFile? {
    let descriptor = open(changingCorePath, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count,
        let core = try? CoreFile(path: changingCorePath)
    else { return nil }
    let cut = bytes.isEmpty ? 0 : (seed &* 2_654_435_761) % bytes.count
    _ = ftruncate(descriptor, off_t(cut))
    let junk = [UInt8](repeating: 0xA5, count: min(4096, cut / 2))
    _ = junk.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(cut / 4)) }
    return core
}

/// Reads what the live commands read of a core: its memory, its images' headers, its heap.
func readCore(_ core: CoreFile, heapChanging: Bool = false) {
    _ = core.mappedFiles.count + core.auxiliaryVector.count + core.threadCount
    for segment in core.segments.prefix(16) {
        _ = try? core.bytes(at: segment.address, count: 64)
        _ = try? core.bytes(at: segment.address &+ segment.memorySize &- 8, count: 16)
        // An image's ELF header and build-id note, as a target's images are matched to files.
        _ = try? BuildID.loaded(in: core, headerAt: segment.address)
    }
    for file in core.mappedFiles.prefix(16) where file.fileOffset == 0 {
        _ = try? BuildID.loaded(in: core, headerAt: file.start)
    }
    // The Swift runtime's metadata allocator pool, as `dump --pid` walks it, its two debug
    // variables placed in the first segment (where mutations reach them and what they point at).
    if let first = core.segments.first {
        _ = MetadataAllocationPool.walk(memory: core, iterationEnabled: first.address, poolPointer: first.address &+ 8)
    }
    // Its glibc heap: arenas, every chunk, the free lists, the mmapped chunks.
    if let heap = try? GlibcHeap(TargetMemory(core: core), changing: heapChanging) {
        var chunks = 0
        _ = try? heap.forEachChunk { _ in chunks += 1 }
    }
}

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// Structure-aware mutations: byte-level mutation alone almost never produces a coherent section
/// header or record table entry, so half the time one field of the section header table
/// (type, flags, address, offset, size) or one 4-byte record of a `swift5_*` section is set to
/// a value that tests a bound: 0, 1, 2^63, 2^64-1, the file's size, another section's value.
@_cdecl("LLVMFuzzerCustomMutator")
public func binaryInfoFuzzCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    var random = seed == 0 ? 1 : UInt64(seed)
    func next() -> UInt64 {
        random ^= random << 13; random ^= random >> 7; random ^= random << 17
        return random
    }
    func load(_ offset: Int, _ width: Int) -> UInt64? {
        guard offset >= 0, width <= 8, offset <= size - width else { return nil }
        var value: UInt64 = 0
        for index in 0..<width { value |= UInt64(data[offset + index]) << (8 * index) }
        return value
    }
    func store(_ value: UInt64, _ offset: Int, _ width: Int) {
        guard offset >= 0, offset <= size - width else { return }
        for index in 0..<width { data[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
    guard next() % 2 == 0, size >= 64, let tableOffset = load(0x28, 8), let entrySize = load(0x3A, 2),
        let count = load(0x3C, 2), entrySize >= 64, count > 1, tableOffset < UInt64(size)
    else { return libFuzzerMutate(data, size, maxSize) }
    let table = Int(tableOffset)
    let header = table + Int(next() % count) * Int(entrySize)
    let other = table + Int(next() % count) * Int(entrySize)
    guard load(header + 0x20, 8) != nil else { return libFuzzerMutate(data, size, maxSize) }
    let interesting: [UInt64] = [0, 1, 4, 1 << 63, .max, UInt64(size), UInt64(size) - 4, 1 << 36, 0x7fff_ffff]
    switch next() % 4 {
    case 0:  // sh_type: NOBITS, PROGBITS, RELA, RELR, SYMTAB, or another section's
        let types: [UInt64] = [8, 1, 4, 19, 2, load(other + 4, 4) ?? 0]
        store(types[Int(next() % UInt64(types.count))], header + 4, 4)
    case 1:  // sh_addr, sh_offset or sh_size: a bound, or copied from another section (overlap, duplicate)
        let field = [0x10, 0x18, 0x20][Int(next() % 3)]
        let value = next() % 2 == 0 ? interesting[Int(next() % UInt64(interesting.count))] : (load(other + field, 8) ?? 0)
        store(value, header + field, 8)
    case 2:  // sh_name: another section's name (duplicate names)
        store(load(other, 4) ?? 0, header, 4)
    default:  // one record of the section's contents: a relative offset that is a bound, or a small step
        guard let offset = load(header + 0x18, 8), let length = load(header + 0x20, 8), length >= 4,
            offset < UInt64(size), length <= UInt64(size) - offset
        else { return libFuzzerMutate(data, size, maxSize) }
        let record = Int(offset) + Int(next() % (length / 4)) * 4
        let values: [UInt64] = [
            0, 1, 2, 3, 0x7fff_ffff, 0x8000_0000, 0xffff_fff0,
            UInt64(truncatingIfNeeded: Int64(Int32(truncatingIfNeeded: next() % 4096) - 2048)),
        ]
        store(values[Int(next() % UInt64(values.count))], record, 4)
    }
    return size
}
