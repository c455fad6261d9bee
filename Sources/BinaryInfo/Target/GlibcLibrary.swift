/// The C library a target's malloc lives in: its file, where the target loaded it, its `.data`
/// and the glibc release that decides the allocator's layout.
struct GlibcLibrary {
    /// The library's path (the executable's, when glibc is linked statically).
    let path: String
    /// The file read for it: ``path``, or where the target's file was found instead.
    let filePath: String
    /// Where the target placed the file's `.data` section.
    let data: Range<UInt64>
    let layout: GlibcMallocLayout
    /// What the target added to the file's addresses where it loaded it.
    let bias: UInt64

    /// Finds `libc.so.*` among the target's images (or, when there is none, the executable that
    /// carries glibc's banner), and reads its section headers and release from the file matched to
    /// it: the same file ``TargetMemory`` found for the image by build id (through the kernel's
    /// handle on the mapping, the process's root, the path, or the image search directories), so
    /// a process in a container, a library replaced since it was loaded, and a core whose
    /// libraries moved are read from the file the target loaded.
    ///
    /// - Throws: ``BinaryInfoError/foreignAllocator(path:allocator:image:)`` when another
    ///   allocator replaces glibc's `malloc`, and
    ///   ``BinaryInfoError/mallocStateNotFound(path:library:detail:)``.
    init(in target: TargetMemory, regions: [TargetRegion]) throws(BinaryInfoError) {
        if let foreign = ForeignAllocator.find(in: target) {
            throw BinaryInfoError.foreignAllocator(path: target.path, allocator: foreign.name, image: foreign.image)
        }
        // One image per path: a file mapped from its start twice is the first image of it.
        var seen: Set<String> = []
        let distinct = target.images.filter { seen.insert($0.mappedPath).inserted }
        let named = distinct.filter { Self.isLibC($0.mappedPath) }
        // A statically linked program carries glibc itself: its executable is the only candidate
        // without `.so` in its name.
        let candidates = named.isEmpty ? distinct.filter { !$0.mappedPath.contains(".so") } : named
        var problems: [BinaryInfoError] = []
        for candidate in candidates {
            do {
                self = try Self(image: candidate, in: target)
                return
            } catch {
                problems.append(error)
            }
        }
        if candidates.isEmpty {
            // A libc the target maps whose loaded bytes are no ELF image cannot be matched to a file.
            if let mapped = regions.compactMap(\.filePath).first(where: Self.isLibC) {
                throw BinaryInfoError.mallocStateNotFound(
                    path: target.path, library: mapped, detail: "the target's bytes where it mapped the file's start are not an ELF image")
            }
            throw BinaryInfoError.mallocStateNotFound(
                path: target.path, library: "the target", detail: "it maps no libc.so and no executable (is it a glibc program?)")
        }
        if problems.count == 1, let only = problems.first { throw only }
        throw BinaryInfoError.mallocStateNotFound(
            path: target.path, library: candidates.map(\.mappedPath).joined(separator: ", "),
            detail: problems.map(\.problem).joined(separator: "; "))
    }

    /// Whether `path` names glibc's C library (`libc.so.6`, or `libc-2.NN.so` before 2.34).
    static func isLibC(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix("libc.so") || (name.hasPrefix("libc-") && name.hasSuffix(".so"))
    }

    private init(image: TargetImage, in target: TargetMemory) throws(BinaryInfoError) {
        let path = image.mappedPath
        func notFound(_ detail: String) -> BinaryInfoError { .mallocStateNotFound(path: target.path, library: path, detail: detail) }
        let bytes = image.file
        // The image was matched to its file by build id; without one, by the file's first page as
        // the target holds it (ELF header, program headers): another build differs there.
        if image.buildID == nil {
            let count = Int(min(UInt64(bytes.count), image.addressRange.upperBound - image.loadAddress, 4096))
            if let loaded = try? target.bytes(at: image.loadAddress, count: count, what: "the library's first page"),
                !loaded.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes.buffer[0..<count]))
            {
                throw notFound("the file on disk (\(image.filePath)) is not the one the target loaded (their first pages differ)")
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
        let (start, startOverflow) = image.loadBias.addingReportingOverflow(section.address)
        let (end, endOverflow) = start.addingReportingOverflow(section.size)
        guard !startOverflow, !endOverflow else { throw notFound("its .data does not fit the address space") }
        self.path = path
        self.filePath = image.filePath
        self.data = start..<end
        self.layout = layout
        self.bias = image.loadBias
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
