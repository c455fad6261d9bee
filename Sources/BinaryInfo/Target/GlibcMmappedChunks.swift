/// A chunk glibc mapped on its own (`IS_MMAPPED`): an allocation above the mmap threshold.
struct GlibcMmappedChunk: Sendable, Hashable {
    /// The chunk header's address.
    var address: UInt64
    /// `chunksize`: the mapping's size less the alignment offset before the chunk.
    var size: UInt64
    /// `prev_size`: the offset of the chunk from the start of its mapping (0 unless `memalign` moved it).
    var offset: UInt64
}

extension TargetWindow {
    /// Finds the mmapped chunks in `ranges` (anonymous writable memory, the heaps' memory taken
    /// out): glibc maps each on its own pages and writes its header at the mapping's start
    /// (`prev_size` 0, `size` the mapping's size with only `IS_MMAPPED` set). A chunk found is
    /// skipped whole. With `everyPage` false only the start of each range and the end of each
    /// chunk are checked (the kernel lists a chunk's mapping on its own unless it merged it with
    /// an adjacent one); with `everyPage` each page start is. `memalign` moves a chunk into its mapping,
    /// leaving the first header in place: the moved header is found where glibc's alignment
    /// arithmetic puts it for some power-of-two alignment, stating its offset as `prev_size`.
    func mmappedChunks(in ranges: [Range<UInt64>], everyPage: Bool, pageSize: UInt64 = 4096) throws(BinaryInfoError)
        -> [GlibcMmappedChunk]
    {
        var chunks: [GlibcMmappedChunk] = []
        for range in ranges {
            let (rounded, overflow) = range.lowerBound.addingReportingOverflow(pageSize - 1)
            guard !overflow else { continue }
            var page = rounded & ~(pageSize - 1)
            while page < range.upperBound, range.upperBound - page >= 32 {
                let previousSize = try word(at: page, limit: range.upperBound, what: "anonymous memory")
                let sizeField = try word(at: page + 8, limit: range.upperBound, what: "anonymous memory")
                let size = sizeField & ~GlibcMallocLayout.flagBits
                guard previousSize == 0, sizeField & GlibcMallocLayout.flagBits == GlibcMallocLayout.isMmapped, size >= pageSize,
                    size % pageSize == 0, size <= range.upperBound - page
                else {
                    guard everyPage else { break }
                    page += pageSize
                    continue
                }
                chunks.append(try alignedChunk(mappedAt: page, size: size, limit: range.upperBound))
                page += size
            }
        }
        return chunks
    }

    /// The chunk in the mapping at `mapping` whose first header says `size`: that header's, or
    /// the one `_int_memalign` wrote further in.
    private func alignedChunk(mappedAt mapping: UInt64, size: UInt64, limit: UInt64) throws(BinaryInfoError) -> GlibcMmappedChunk {
        var offsets: Set<UInt64> = []
        var alignment: UInt64 = 32
        while alignment < size {
            // As _int_memalign: the aligned user pointer, at least MINSIZE after the chunk.
            // mapping + size lies in the address space and alignment < size: no sum below overflows.
            var moved = ((mapping + 16 + alignment - 1) & ~(alignment - 1)) - 16
            if moved - mapping < GlibcMallocLayout.minimumChunkSize { moved += alignment }
            let offset = moved - mapping
            if offset + GlibcMallocLayout.minimumChunkSize <= size, !offsets.contains(offset) {
                let previousSize = try word(at: moved, limit: limit, what: "an mmapped chunk")
                let sizeField = try word(at: moved + 8, limit: limit, what: "an mmapped chunk")
                if previousSize == offset, sizeField == (size - offset) | GlibcMallocLayout.isMmapped { offsets.insert(offset) }
            }
            alignment <<= 1
        }
        guard offsets.count <= 1 else {
            throw BinaryInfoError.malformedHeap(
                path: target.path, what: "the mmapped chunk", address: mapping, detail: "\(offsets.count) aligned headers inside it")
        }
        let offset = offsets.first ?? 0
        return GlibcMmappedChunk(address: mapping + offset, size: size - offset, offset: offset)
    }
}
