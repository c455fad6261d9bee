import Algorithms

/// A core file as a target: its memory the `PT_LOAD` segments, its map the segments named by
/// `NT_FILE`, its threads the `NT_PRSTATUS` notes. It never changes while read (a file changed
/// under the reading is refused by the command, ``CoreFile/checkUnchanged(_:since:)``).
extension CoreFile: TargetMemorySource {
    var targetProcessID: Int32? { processID }

    var programName: String? { command }

    var targetArchitecture: String? { architecture }

    var mayChange: Bool { false }

    var leavesOutFilePages: Bool { true }

    var hasGone: Bool { false }

    /// The bytes piece by piece: each piece from the segment holding it, or else from the matched
    /// file of the image mapping it (gcore and the kernel leave out the file pages the process
    /// never wrote).
    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, images: [TargetImage], what: () -> String)
        throws(BinaryInfoError)
    {
        guard !address.addingReportingOverflow(UInt64(destination.count)).overflow else {
            throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
        }
        var copied = 0
        while copied < destination.count {
            let cursor = address + UInt64(copied)
            let remaining = UInt64(destination.count - copied)
            let piece: Int
            let index = segments.partitioningIndex { $0.address > cursor } - 1
            if index >= 0, cursor - segments[index].address < segments[index].fileSize {
                let segment = segments[index]
                piece = Int(min(remaining, segment.fileSize - (cursor - segment.address)))
                try fetch(into: UnsafeMutableRawBufferPointer(rebasing: destination[copied..<copied + piece]), from: cursor, what: what())
            } else if let image = images.image(containing: cursor),
                let mapping = image.fileMappings.first(where: { $0.range.contains(cursor) })
            {
                piece = Int(min(remaining, mapping.range.upperBound - cursor))
                do {
                    try image.file.fetch(
                        into: UnsafeMutableRawBufferPointer(rebasing: destination[copied..<copied + piece]),
                        fromOffset: mapping.fileOffset + (cursor - mapping.range.lowerBound), what: what())
                } catch {
                    // A mapping past the file's end (the last page's tail) was never in the file.
                    throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
                }
            } else {
                let heldNot = index >= 0 && cursor - segments[index].address < segments[index].memorySize
                throw BinaryInfoError.unmapped(
                    path: path, what: heldNot ? "\(what()) (left out of the core)" : what(), address: address,
                    length: UInt64(destination.count))
            }
            copied += piece
        }
    }

    /// The memory segments the core holds bytes of, each named by the `NT_FILE` entry that covers
    /// it (segments the core left out of the file are left out here).
    func regions() throws(BinaryInfoError) -> [TargetRegion] {
        segments.filter { $0.fileSize > 0 && $0.isReadable }.map { segment in
            let end = segment.address + segment.fileSize
            let file = mappedFiles.first { $0.start <= segment.address && segment.address < $0.end }
            return TargetRegion(
                start: segment.address, end: end, isWritable: segment.isWritable, filePath: file?.path,
                fileOffset: file.map { $0.fileOffset + (segment.address - $0.start) } ?? 0, isStack: false)
        }
    }

    /// Its non-writable anonymous memory: gcore writes a guard page as readable, the kernel as a
    /// segment without permissions.
    func guardEnds() throws(BinaryInfoError) -> Set<UInt64> {
        Set(
            segments.filter { segment in
                !segment.isWritable && !mappedFiles.contains { $0.start <= segment.address && segment.address < $0.end }
            }.map { $0.address + $0.memorySize })
    }

    func mappedImages(searchDirectories: [String]) throws(BinaryInfoError)
        -> (candidates: [(candidate: MappedImageCandidate, filePaths: [String])], auxiliaryVector: [AuxiliaryEntry])
    {
        let mapped = mappedFiles.sorted { $0.start < $1.start }.map {
            (start: $0.start, end: $0.end, fileOffset: $0.fileOffset, path: TargetMemory.deletedSuffixRemoved($0.path))
        }
        let candidates = MappedImageCandidate.group(mapped).map { candidate in
            (candidate, TargetImage.filePaths(for: candidate.path, searchDirectories: searchDirectories))
        }
        return (candidates, auxiliaryVector)
    }

    /// A core's files are found by their paths and the search directories alone.
    func ownPaths(for path: String) -> [String] { [] }

    /// The registers the core recorded for each thread; `pause` has nothing to hold.
    func threadRegisters(heldBy pause: ProcessPause?) throws(BinaryInfoError) -> [ThreadRegisters] {
        try threads()
    }
}
