/// The C library a target's malloc lives in: its file, where the target loaded it, its `.data`
/// and the glibc release that decides the allocator's layout.
struct GlibcLibrary {
    /// The library's path (the executable's, when glibc is linked statically).
    let path: String
    /// Where the target placed the file's `.data` section.
    let data: Range<UInt64>
    let layout: GlibcMallocLayout
    /// What the target added to the file's addresses where it loaded it.
    let bias: UInt64

    /// Finds `libc.so.*` among the target's mapped files (or, when there is none, the mapped
    /// executable that carries glibc's banner), and reads its section headers and release from
    /// the file on disk.
    init(in target: TargetMemory, regions: [TargetRegion]) throws(BinaryInfoError) {
        let files = regions.compactMap(\.filePath)
        var seen: Set<String> = []
        let distinct = files.filter { seen.insert($0).inserted }
        let named = distinct.filter {
            let name = $0.split(separator: "/").last.map(String.init) ?? $0
            return name.hasPrefix("libc.so") || (name.hasPrefix("libc-") && name.hasSuffix(".so"))
        }
        // A statically linked program carries glibc itself: its executable is the only candidate
        // without `.so` in its name.
        let candidates = named.isEmpty ? distinct.filter { !$0.contains(".so") } : named
        var problems: [BinaryInfoError] = []
        for candidate in candidates {
            do {
                self = try Self(path: candidate, in: target, regions: regions)
                return
            } catch {
                problems.append(error)
            }
        }
        if candidates.isEmpty {
            throw BinaryInfoError.mallocStateNotFound(
                path: target.path, library: "the target", detail: "it maps no libc.so and no executable (is it a glibc program?)")
        }
        if problems.count == 1, let only = problems.first { throw only }
        throw BinaryInfoError.mallocStateNotFound(
            path: target.path, library: candidates.joined(separator: ", "), detail: problems.map(\.problem).joined(separator: "; "))
    }

    private init(path: String, in target: TargetMemory, regions: [TargetRegion]) throws(BinaryInfoError) {
        func notFound(_ detail: String) -> BinaryInfoError { .mallocStateNotFound(path: target.path, library: path, detail: detail) }
        let bytes = try ImageLoader.readFile(path)
        // The file's first page as the target mapped it (ELF header, program headers, build id):
        // a different file at the path (an upgraded library, another machine's) differs there.
        if let mapping = regions.first(where: { $0.filePath == path && $0.fileOffset == 0 }) {
            let count = Int(min(UInt64(bytes.count), mapping.end - mapping.start, 4096))
            if let loaded = try? target.bytes(at: mapping.start, count: count, what: "the library's first page"),
                !loaded.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes.buffer[0..<count]))
            {
                throw notFound("the file on disk is not the one the target loaded (their first pages differ)")
            }
        }
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
        let release = GlibcMallocLayout.release(of: UnsafeRawBufferPointer(rebasing: bytes.buffer[0..<bytes.count]))
        guard let release else {
            throw notFound("the file on disk names no glibc release (no 'release version 2.NN' banner, no one '2.NN' version string)")
        }
        guard let layout = GlibcMallocLayout(major: release.major, minor: release.minor) else {
            let (oldest, newest) = (GlibcMallocLayout.oldestSupported, GlibcMallocLayout.newestSupported)
            throw notFound(
                "glibc \(release.major).\(release.minor)'s malloc is not one this reader knows (\(oldest.0).\(oldest.1) through \(newest.0).\(newest.1))"
            )
        }
        guard let section = file.sections.first(where: { $0.name == ".data" && $0.isAllocated }) else {
            throw notFound("the file on disk has no .data section")
        }
        // The load bias: where the mapping of file offset 0 starts, less the first segment's address.
        guard let firstLoad = file.segments.filter(\.isLoadable).min(by: { $0.address < $1.address }),
            let mapping = regions.first(where: { $0.filePath == path && $0.fileOffset == 0 })
        else { throw notFound("the target has no mapping of the file's first page") }
        let page: UInt64 = 0xFFF
        let (bias, biasOverflow) = mapping.start.subtractingReportingOverflow(firstLoad.address & ~page)
        let (start, startOverflow) = bias.addingReportingOverflow(section.address)
        let (end, endOverflow) = start.addingReportingOverflow(section.size)
        guard !biasOverflow, !startOverflow, !endOverflow else { throw notFound("its .data does not fit the address space") }
        self.path = path
        self.data = start..<end
        self.layout = layout
        self.bias = bias
    }
}

/// What a target's `mp_` (glibc's `struct malloc_par`) says about mmapped chunks and the tcache.
struct GlibcMallocParameters: Sendable, Hashable {
    /// The address of its `sbrk_base` field.
    var sbrkBaseField: UInt64
    /// `n_mmaps`: the mmapped chunks in use.
    var mmappedChunks: UInt64
    /// `mmapped_mem`: their bytes, with each mapping's leading alignment.
    var mmappedBytes: UInt64
    /// `tcache_bins`: how many tcache bins are used.
    var tcacheBins: Int
    /// `tcache_count`: the most chunks a tcache bin holds.
    var tcacheCount: UInt64

    /// Finds `mp_` in the C library's `.data` by the main heap's start, which it holds as
    /// `sbrk_base`: the fields around it must be `n_mmaps`, `n_mmaps_max`, `max_n_mmaps`,
    /// `mmapped_mem` and `max_mmapped_mem` before it and the tcache tunables after it, with values
    /// glibc could hold. Exactly one must match.
    static func find(
        in data: [UInt8], at dataAddress: UInt64, sbrkBase: UInt64, layout: GlibcMallocLayout, target: TargetMemory, library: String,
        within symbol: Range<UInt64>? = nil
    ) throws(BinaryInfoError) -> GlibcMallocParameters {
        var found: [GlibcMallocParameters] = []
        let counts = layout.mmapCountsOffsetFromSbrkBase
        data.withUnsafeBytes { bytes in
            for offset in stride(from: 40, to: bytes.count - 40, by: 8)
            where bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == sbrkBase {
                let count = bytes.loadUnaligned(fromByteOffset: offset + counts, as: Int32.self)
                let countMaximum = bytes.loadUnaligned(fromByteOffset: offset + counts + 4, as: Int32.self)
                let countPeak = bytes.loadUnaligned(fromByteOffset: offset + counts + 8, as: Int32.self)
                let mapped = bytes.loadUnaligned(fromByteOffset: offset - 16, as: UInt64.self)
                let mappedPeak = bytes.loadUnaligned(fromByteOffset: offset - 8, as: UInt64.self)
                let bins = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                let binCount = bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
                guard count >= 0, countMaximum >= 0, countPeak >= count, mappedPeak >= mapped, (count == 0) == (mapped == 0),
                    mapped % 4096 == 0, bins <= UInt64(GlibcMallocLayout.tcacheBinCount), binCount <= UInt64(UInt16.max)
                else { continue }
                // The symbol's bytes, when the file names mp_.
                if let symbol, !symbol.contains(dataAddress + UInt64(offset)) { continue }
                found.append(
                    GlibcMallocParameters(
                        sbrkBaseField: dataAddress + UInt64(offset), mmappedChunks: UInt64(count), mmappedBytes: mapped,
                        tcacheBins: Int(bins), tcacheCount: binCount))
            }
        }
        guard found.count == 1 else {
            throw BinaryInfoError.mallocStateNotFound(
                path: target.path, library: library,
                detail:
                    "\(found.count) places in its .data look like mp_ (struct malloc_par) holding sbrk_base 0x\(String(sbrkBase, radix: 16)); one was expected"
            )
        }
        return found[0]
    }
}
