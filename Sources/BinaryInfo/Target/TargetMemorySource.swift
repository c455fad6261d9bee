import Algorithms

/// What a target's memory is read from: a running process (``ProcessMemory``) or a core file
/// (``CoreFile``). ``TargetMemory`` reads through it and asks it what differs between the two
/// (its memory map, whether its memory can change while it is read, its threads, its process
/// id), so that no reader above switches on the kind of target.
///
/// The model is Swift's RuntimeModule `MemoryReader`: one way to read bytes at an address, with
/// errors that carry the address (``ByteReader``), and a conformer per kind of memory; what is
/// added to every reading (caching, changing bytes for fuzzing) is a decorator over a reader
/// (``CachingReader``, ``ChangingCoreSource``), never a case of an enum.
protocol TargetMemorySource: ByteReader, Sendable {
    /// The target's process id: a process's own, or the one a core records (`NT_PRPSINFO`).
    var targetProcessID: Int32? { get }

    /// The program's name as the kernel kept it (at most 15 bytes), when known.
    var programName: String? { get }

    /// The target's machine, as `uname -m` spells it, when known.
    var targetArchitecture: String? { get }

    /// Whether its memory can change between two reads unless the process is held stopped: a
    /// running process's can, a core's never does.
    var mayChange: Bool { get }

    /// Whether it leaves out file pages the target mapped but never wrote (a core: gcore and the
    /// kernel omit them), which are then read from the image's matched file.
    var leavesOutFilePages: Bool { get }

    /// Whether the target is gone (a process that exited or is a zombie); a core never is.
    var hasGone: Bool { get }

    /// Copies `destination.count` bytes at `address`, reading the pages it left out from the
    /// files of `images` (the target's images, sorted by load address, each matched by build id).
    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, images: [TargetImage], what: () -> String)
        throws(BinaryInfoError)

    /// Copies `size` bytes at each of `addresses` (see ``TargetMemory/fetchRecords(at:size:into:)``).
    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer, images: [TargetImage])
        throws(BinaryInfoError) -> [Bool]

    /// The readable regions as they are now, sorted by address.
    func regions() throws(BinaryInfoError) -> [TargetRegion]

    /// The address just past each guard page (see ``TargetMemory/guardEnds()``).
    func guardEnds() throws(BinaryInfoError) -> Set<UInt64>

    /// The files it had mapped, grouped into candidate images (each with the paths to try for its
    /// file, most likely first), and its auxiliary vector.
    func mappedImages(searchDirectories: [String]) throws(BinaryInfoError)
        -> (candidates: [(candidate: MappedImageCandidate, filePaths: [String])], auxiliaryVector: [AuxiliaryEntry])

    /// Paths that only this target knows of for a file at `path` in its file system, tried before
    /// the path itself: a process's root (another mount namespace, a container).
    func ownPaths(for path: String) -> [String]

    /// The registers of each thread, as held by `pause` for a process, or as dumped for a core.
    func threadRegisters(heldBy pause: ProcessPause?) throws(BinaryInfoError) -> [ThreadRegisters]
}

extension TargetMemorySource {
    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, images: [TargetImage], what: () -> String)
        throws(BinaryInfoError)
    {
        try fetch(into: destination, from: address, what: what())
    }

    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer, images: [TargetImage])
        throws(BinaryInfoError) -> [Bool]
    {
        var read = [Bool](repeating: false, count: addresses.count)
        for (index, address) in addresses.enumerated() {
            let piece = UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size])
            do {
                try fetch(into: piece, from: address, images: images, what: { "memory" })
                read[index] = true
            } catch {
                switch error {
                case .unmapped, .outOfBounds: break
                default: throw error
                }
            }
        }
        return read
    }
}

extension [TargetImage] {
    /// The image whose mappings hold `address`, if any (the images sorted by load address).
    func image(containing address: UInt64) -> TargetImage? {
        let index = partitioningIndex { $0.loadAddress > address } - 1
        guard index >= 0, self[index].addressRange.contains(address) else { return nil }
        return self[index]
    }
}
