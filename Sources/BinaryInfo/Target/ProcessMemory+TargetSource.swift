import TypeLayout

/// A running process as a target: its memory map read again each time it is asked (a running
/// heap grows and trims), its files reached through the kernel's handles on them.
extension ProcessMemory: TargetMemorySource {
    var targetProcessID: Int32? { processID }

    var programName: String? { try? command }

    /// A process this typeinfo can read runs on this machine.
    var targetArchitecture: String? { ELFMachine.host?.architectureName(isLittleEndian: true) }

    var mayChange: Bool { true }

    var leavesOutFilePages: Bool { false }

    var hasGone: Bool { Self.hasExited(processID: processID) }

    /// Many pieces per system call (``fetchRecords(at:size:into:)``).
    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer, images: [TargetImage])
        throws(BinaryInfoError) -> [Bool]
    {
        try fetchRecords(at: addresses, size: size, into: destination)
    }

    /// The process's memory map as it is now (or the one tests fixed).
    func currentMap() throws(BinaryInfoError) -> MemoryMap {
        if let fixedMap { return fixedMap }
        return try MemoryMap(processID: processID)
    }

    func regions() throws(BinaryInfoError) -> [TargetRegion] {
        try currentMap().mappings.filter(\.isReadable).map {
            TargetRegion(
                start: $0.start, end: $0.end, isWritable: $0.isWritable, filePath: $0.isFileBacked ? $0.name : nil,
                fileOffset: $0.fileOffset, isStack: $0.name == "[stack]")
        }
    }

    /// Its mappings that are neither readable nor writable, and not of a file.
    func guardEnds() throws(BinaryInfoError) -> Set<UInt64> {
        Set(try currentMap().mappings.filter { !$0.isReadable && !$0.isWritable && !$0.isFileBacked }.map(\.end))
    }

    func mappedImages(searchDirectories: [String]) throws(BinaryInfoError)
        -> (candidates: [(candidate: MappedImageCandidate, filePaths: [String])], auxiliaryVector: [AuxiliaryEntry])
    {
        let mapped = try currentMap().mappings.filter(\.isFileBacked).map {
            (start: $0.start, end: $0.end, fileOffset: $0.fileOffset, path: TargetMemory.deletedSuffixRemoved($0.name))
        }
        let candidates = MappedImageCandidate.group(mapped).map { candidate in
            // The kernel's own handles on the mapped file find it even when deleted or moved,
            // and through the process's root when it runs in another mount namespace.
            let handle =
                "/proc/\(processID)/map_files/\(String(candidate.loadAddress, radix: 16))-\(String(candidate.mappings[0].range.upperBound, radix: 16))"
            let first = [handle] + ownPaths(for: candidate.path)
            return (candidate, TargetImage.filePaths(for: candidate.path, first: first, searchDirectories: searchDirectories))
        }
        let auxiliaryVector = (try? ImageLoader.readFile("/proc/\(processID)/auxv")).map(TargetMemory.auxiliaryVector(of:)) ?? []
        return (candidates, auxiliaryVector)
    }

    func ownPaths(for path: String) -> [String] { ["/proc/\(processID)/root" + path] }

    /// A running process's registers change as it runs: only those of threads `pause` holds.
    func threadRegisters(heldBy pause: ProcessPause?) throws(BinaryInfoError) -> [ThreadRegisters] {
        guard let pause else { throw .threadRegistersUnreadable(path: path, thread: nil, reason: "the process is not held stopped") }
        return try pause.threads()
    }
}
