import Algorithms

extension TargetMemory {
    /// Lets the system drop resident copies of the target's bytes at `address` that a reader
    /// has copied and is done with. Nothing holds any: a process is read with
    /// `process_vm_readv` and a core with `pread`, each into the reader's own buffer.
    func releasePages(address: UInt64, count: Int) {}

    /// The readable regions, sorted by address: the maps of a process; the memory segments of a
    /// core, each named by the `NT_FILE` entry that covers it (segments the core left out of
    /// the file are left out here).
    func regions() throws(BinaryInfoError) -> [TargetRegion] {
        try source.regions()
    }
}

/// One readable range of a target's address space.
struct TargetRegion: Sendable, Hashable {
    var start: UInt64
    var end: UInt64
    var isWritable: Bool
    /// The file mapped there, nil for anonymous memory.
    var filePath: String?
    /// The offset in the file that `start` maps.
    var fileOffset: UInt64
    /// The main thread's stack (`[stack]`), which malloc never uses.
    var isStack: Bool

    func contains(_ address: UInt64) -> Bool { start <= address && address < end }
}

extension [TargetRegion] {
    /// The region that holds `address`.
    func region(containing address: UInt64) -> TargetRegion? {
        let index = partitioningIndex { $0.end > address }
        guard index < count, self[index].start <= address else { return nil }
        return self[index]
    }

    /// The end of the run of adjacent regions that starts with the one holding `address`: a
    /// mapping the kernel split by permissions, or a core's segments of one mapping.
    func contiguousEnd(from address: UInt64) -> UInt64? {
        var index = partitioningIndex { $0.end > address }
        guard index < count, self[index].start <= address else { return nil }
        var end = self[index].end
        index += 1
        while index < count, self[index].start == end, self[index].isWritable {
            end = self[index].end
            index += 1
        }
        return end
    }

    /// The start of the run of adjacent writable regions that ends with the one holding `address`.
    func contiguousStart(to address: UInt64) -> UInt64? {
        var index = partitioningIndex { $0.end > address }
        guard index < count, self[index].start <= address else { return nil }
        var start = self[index].start
        while index > 0, self[index - 1].end == start, self[index - 1].isWritable {
            index -= 1
            start = self[index].start
        }
        return start
    }
}
