import Algorithms
import TypeLayout

/// A file mapped into a dumped process, from the core's `NT_FILE` note.
public struct MappedFile: Sendable, Hashable {
    /// The mapping's first address.
    public var start: UInt64
    /// The address just past the mapping.
    public var end: UInt64
    /// The offset in the file that `start` maps.
    public var fileOffset: UInt64
    /// The file's path when the process mapped it.
    public var path: String
}

/// One entry of a process's auxiliary vector (`AT_*`, `getauxval(3)`).
public struct AuxiliaryEntry: Sendable, Hashable {
    /// `a_type`: `AT_PHDR` (3), `AT_BASE` (7), `AT_ENTRY` (9), `AT_EXECFN` (31), …
    public var key: UInt64
    /// `a_val`.
    public var value: UInt64
}

/// A core file (`gcore`, systemd-coredump, the kernel's `ulimit -c` dumps): the memory of a
/// process as it was when it was dumped, read from disk.
///
/// Its memory is the bytes of the `PT_LOAD` segments; which process it was, how many threads it
/// had and which files it had mapped come from the notes. Every read is bounds-checked against
/// the segments, and a segment the file is too short for is refused when the core is opened.
/// The file is read with `pread`, never mapped (``CoreFileReader``): a core of any size is read,
/// and one that shrinks while it is read is an error naming the offset, never a crash.
public struct CoreFile: Sendable {
    /// The core file's path.
    public var path: String { reader.path }
    /// The dumped process's machine, as `uname -m` spells it.
    public let architecture: String
    /// The dumped process's id (`NT_PRPSINFO`), when the core records it.
    public let processID: Int32?
    /// The first 15 bytes of the dumped program's name (`NT_PRPSINFO`'s `pr_fname`), when recorded.
    public let command: String?
    /// How many threads the process had (one `NT_PRSTATUS` each).
    public let threadCount: Int
    /// The memory the core holds, sorted by address.
    public let segments: [ImageSegment]
    /// The files the process had mapped (`NT_FILE`), in the note's order.
    public let mappedFiles: [MappedFile]
    /// The process's auxiliary vector (`NT_AUXV`), without its terminating `AT_NULL`.
    public let auxiliaryVector: [AuxiliaryEntry]
    /// Each thread's `NT_PRSTATUS` note, in the file's order: decoded by ``threads()``.
    let threadNotes: [ImageNote]
    /// Each thread's vector registers, beside ``threadNotes``: the `NT_X86_XSTATE` note after its
    /// `NT_PRSTATUS` (before the next thread's), else its `NT_PRFPREG`; nil where it has neither.
    let threadVectorNotes: [ImageNote?]
    let reader: CoreFileReader

    /// Opens the core file at `path`.
    ///
    /// - Throws: ``BinaryInfoError`` when the file cannot be read or is not a regular file
    ///   (``BinaryInfoError/notRegularFile(path:kind:)``), is not an ELF core file, is a core of
    ///   another machine (``BinaryInfoError/unsupported(path:detail:)``), is shorter than its
    ///   program headers (``BinaryInfoError/coreHeadersOutsideFile(path:offset:size:fileSize:)``)
    ///   or its segments (``BinaryInfoError/truncatedCore(path:segmentAddress:neededSize:fileSize:)``)
    ///   or has malformed notes.
    public init(path: String) throws(BinaryInfoError) {
        let file = try CoreFileDescriptor(path: path)
        let elf = try ELFFile(descriptor: file.descriptor.rawValue, size: file.size, identification: try file.prefix(64), path: path)
        try self.init(file: elf, reader: CoreFileReader(file, size: file.size))
    }

    /// Whether the file at `path` is an ELF core file (`e_type` `ET_CORE`, in the byte order its
    /// header states, so that a core of another machine is still recognised and refused by
    /// ``init(path:)`` with its architecture); false for any other file, or one that cannot be read.
    public static func isCoreFile(atPath path: String) -> Bool {
        guard let file = try? CoreFileDescriptor(path: path), let prefix = try? file.prefix(64) else { return false }
        let header = FileBytes(prefix, path: path)
        guard (try? header.read(UInt32.self, at: 0, what: "ELF magic")) == 0x464C_457F,
            let encoding = try? header.read(UInt8.self, at: 5, what: "ELF data encoding"),
            let type = try? header.read(UInt16.self, at: 16, what: "ELF type")
        else { return false }
        // EI_DATA: 1 little-endian, 2 big-endian.
        return (encoding == 2 ? type.byteSwapped : type) == ELFFile.typeCore
    }

    /// Reads a core file held in memory; `name` stands for its path in errors.
    ///
    /// - Throws: as ``init(path:)``.
    public init(bytes: [UInt8], name: String) throws(BinaryInfoError) {
        try self.init(bytes: FileBytes(bytes, path: name))
    }

    init(bytes: FileBytes) throws(BinaryInfoError) {
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
        try self.init(file: file, reader: CoreFileReader(bytes, size: UInt64(bytes.count)))
    }

    init(file: ELFFile, reader: CoreFileReader) throws(BinaryInfoError) {
        let path = reader.path
        guard file.fileType == ELFFile.typeCore else {
            throw BinaryInfoError.unsupported(
                path: path, detail: "not a core file (ELF type \(file.fileType)); give a PID or a core file made by gcore or the kernel")
        }
        guard let host = ELFMachine.host, file.machine == host.rawValue else {
            throw BinaryInfoError.unsupported(
                path: path,
                detail:
                    "a core of an \(file.architecture) process; this typeinfo reads \(ELFMachine.host.map { $0.architectureName(isLittleEndian: true) } ?? "no") cores (run it on the machine the core came from)"
            )
        }
        architecture = file.architecture
        self.reader = reader
        segments = file.segments.filter(\.isLoadable).sorted { $0.address < $1.address }
        for segment in segments {
            let (end, overflow) = segment.offset.addingReportingOverflow(segment.fileSize)
            guard !overflow, end <= reader.size else {
                throw BinaryInfoError.truncatedCore(
                    path: path, segmentAddress: segment.address, neededSize: overflow ? .max : end, fileSize: reader.size)
            }
            guard segment.fileSize <= segment.memorySize, !segment.address.addingReportingOverflow(segment.memorySize).overflow else {
                throw BinaryInfoError.malformedELF(
                    path: path,
                    detail: "core segment at 0x\(String(segment.address, radix: 16)) holds more file bytes than memory, or wraps")
            }
        }
        for (lower, upper) in zip(segments, segments.dropFirst()) where upper.address - lower.address < lower.memorySize {
            throw BinaryInfoError.malformedELF(
                path: path,
                detail: "core segments at 0x\(String(lower.address, radix: 16)) and 0x\(String(upper.address, radix: 16)) overlap")
        }
        try Self.checkFileOrder(segments, path: path)
        let notes = CoreNotes(reader: reader)
        threadCount = file.notes.filter(\.isThreadStatus).count
        threadNotes = file.notes.filter(\.isThreadStatus)
        threadVectorNotes = Self.vectorNotes(file.notes)
        let info = try file.notes.first(where: \.isProcessInfo).map { note throws(BinaryInfoError) in try notes.processInfo(note) }
        processID = info?.processID
        command = info?.command
        mappedFiles = try file.notes.first(where: \.isMappedFiles).map { note throws(BinaryInfoError) in try notes.mappedFiles(note) } ?? []
        auxiliaryVector =
            try file.notes.first(where: \.isAuxiliaryVector).map { note throws(BinaryInfoError) in try notes.auxiliaryVector(note) } ?? []
    }

    /// Copies `count` bytes of the dumped process's memory at `address`.
    ///
    /// - Throws: ``BinaryInfoError/unmapped(path:what:address:length:)`` when a byte of the range
    ///   was not mapped, or was left out of the core.
    public func bytes(at address: UInt64, count: Int) throws(BinaryInfoError) -> [UInt8] {
        try bytes(at: address, count: count, what: "memory")
    }
}

extension CoreFile {
    /// The vector-state note of each thread, in the order of the threads' `NT_PRSTATUS` notes:
    /// the kernel and gcore write a thread's notes together, its `NT_PRSTATUS` first.
    static func vectorNotes(_ notes: [ImageNote]) -> [ImageNote?] {
        var found: [ImageNote?] = []
        for note in notes {
            if note.isThreadStatus {
                found.append(nil)
            } else if note.isExtendedVectorState || note.isLegacyVectorState, let last = found.indices.last {
                if found[last] == nil || note.isExtendedVectorState { found[last] = note }
            }
        }
        return found
    }

    /// Checks that the segments' bytes lie in the file in the order of their addresses, each after
    /// the one before: the kernel and gcore write every segment so, one after another. A segment
    /// whose bytes come before a lower one's, or share its bytes, was moved by an edit or a
    /// damaged header, and its memory would be read as another's (and the heap's numbers be wrong).
    ///
    /// - Throws: ``BinaryInfoError/malformedELF(path:detail:)`` naming both segments.
    static func checkFileOrder(_ segments: [ImageSegment], path: String) throws(BinaryInfoError) {
        let stored = segments.filter { $0.fileSize > 0 }
        for (lower, upper) in zip(stored, stored.dropFirst()) where upper.offset < lower.offset + lower.fileSize {
            func named(_ segment: ImageSegment) -> String {
                "0x\(String(segment.address, radix: 16)) (file bytes \(segment.offset)..<\(segment.offset + segment.fileSize))"
            }
            throw BinaryInfoError.malformedELF(
                path: path,
                detail:
                    "the core's segments at \(named(lower)) and \(named(upper)) are stored out of address order or share bytes, which no dump writes: the core was edited or its program headers are damaged"
            )
        }
    }
}

extension CoreFile: ByteReader {
    /// Copies `destination.count` bytes of the target's memory at `address` (see ``ByteReader``).
    public func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        // A range may run over adjacent segments (one mapping split by permissions): each piece is copied from its own.
        var copied = 0
        while copied < destination.count {
            let cursor = address &+ UInt64(copied)
            let index = segments.partitioningIndex { $0.address > cursor } - 1
            guard copied == 0 || cursor != 0, index >= 0, cursor - segments[index].address < segments[index].memorySize else {
                throw BinaryInfoError.unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
            }
            let segment = segments[index]
            let within = cursor - segment.address
            guard within < segment.fileSize else {
                throw BinaryInfoError.unmapped(
                    path: path, what: "\(what()) (left out of the core)", address: address, length: UInt64(destination.count))
            }
            let piece = Int(min(UInt64(destination.count - copied), segment.fileSize - within))
            do {
                try reader.fetch(
                    into: UnsafeMutableRawBufferPointer(rebasing: destination[copied..<(copied + piece)]),
                    fromOffset: segment.offset + within, what: what())
            } catch .coreChangedWhileRead(let path, nil, _, let fileSize) {
                // The file was long enough for every segment when opened: name the segment it no longer holds.
                throw BinaryInfoError.coreChangedWhileRead(
                    path: path, segmentAddress: segment.address, neededSize: segment.offset + segment.fileSize, fileSize: fileSize)
            }
            copied += piece
        }
    }
}
