import TypeLayout

/// Why a binary could not be read.
///
/// Every case names the file (`path`: the path it was read from, or the name given to bytes
/// read from memory) and says what went wrong in words a user can act on. Addresses are
/// virtual addresses in the image, or file offsets where the case says so.
/// ``BinaryInfoError/description`` is the one line the CLI prints; ``BinaryInfoError/problem``
/// is the same line without the path, for notes about a file already named.
public enum BinaryInfoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path does not exist.
    case fileNotFound(path: String)
    /// The path names a directory, not a file.
    case isDirectory(path: String)
    /// The file exists but could not be read (`detail` is the system's reason).
    case unreadable(path: String, detail: String)
    /// The file is larger than this reader accepts.
    case tooLarge(path: String, size: Int, limit: Int)
    /// The bytes are not an ELF file.
    case notELF(path: String)
    /// An ELF file this reader does not handle (32-bit, big-endian, another machine).
    case unsupported(path: String, detail: String)
    /// libelf rejected the file's structure.
    case malformedELF(path: String, detail: String)
    /// A read at a file offset or virtual address fell outside the data it belongs to.
    case outOfBounds(path: String, what: String, address: UInt64, length: UInt64)
    /// A value read from the file is not what the Swift ABI allows at that place.
    case malformedRecord(path: String, what: String, address: UInt64, detail: String)
    /// A chain of references (parent contexts, superclasses) loops or is deeper than any real program.
    case referenceCycle(path: String, what: String, address: UInt64)
    /// A valid ELF file with no Swift reflection sections: not built by swiftc, or stripped of them.
    case notSwift(path: String)
    /// A read of a live process or core file at an address the target had not mapped, or whose
    /// bytes the core does not hold (`path` names the target: `process 1234`, a core file's path).
    case unmapped(path: String, what: String, address: UInt64, length: UInt64)
    /// A core file shorter than its program headers say: a dump cut short (a size limit, a full
    /// disk). `segmentAddress` is the memory segment that does not fit, nil for the notes.
    case truncatedCore(path: String, segmentAddress: UInt64?, neededSize: UInt64, fileSize: UInt64)
    /// No process has this id.
    case noSuchProcess(path: String)
    /// The process exists, but the kernel refuses to let this one read it; `reason` says why and what to do.
    case processAccessDenied(path: String, reason: String)
    /// The process ended while it was being read.
    case processExited(path: String)
    /// No file on disk holds the image the target had mapped from `image` (moved or deleted);
    /// `buildID` is the loaded image's, in hex.
    case imageMissing(path: String, image: String, buildID: String?)
    /// A core that does not hold the ELF header of the image it had mapped from `image` (an ELF
    /// file on disk): its build id, and so whether the file is the build the process ran, cannot
    /// be checked.
    case imageUnverifiable(path: String, image: String)
    /// The file found for the image the target had mapped from `image` (at `foundPath`) is another
    /// build: its build id is `found`, the loaded one's `expected` (hex, or `none`).
    case imageDiffers(path: String, image: String, expected: String, found: String, foundPath: String)
    /// The target's C library holds no malloc state this reader can find and verify: `library`
    /// is the C library's path (or the executable's, when it is linked statically).
    case mallocStateNotFound(path: String, library: String, detail: String)
    /// Another allocator replaces glibc's `malloc` in the target: `allocator` names it
    /// (`jemalloc`), `image` is the file the target mapped it from.
    case foreignAllocator(path: String, allocator: String, image: String)
    /// A value of the target's malloc heap (a chunk header, a free list, an arena) that glibc's
    /// allocator could not have left there: the heap changed while it was read, or is corrupt.
    case malformedHeap(path: String, what: String, address: UInt64, detail: String)
    /// The path names something that is not a regular file (a FIFO, a device, a socket): it is
    /// refused before anything is read from it, since reading it could block or never end.
    case notRegularFile(path: String, kind: SpecialFileKind)
    /// A core file whose program headers (`size` bytes at file offset `offset`, from `e_phoff`)
    /// do not fit its `fileSize` bytes: cut short inside them, or `e_phoff` is corrupt.
    case coreHeadersOutsideFile(path: String, offset: UInt64, size: UInt64, fileSize: UInt64)
    /// A core file that ended at byte `fileSize` while it was read, though it was long enough
    /// when opened: the bytes of the segment for `segmentAddress` (nil: of its headers or notes)
    /// reach to byte `neededSize`. It was cut short or replaced while it was read.
    case coreChangedWhileRead(path: String, segmentAddress: UInt64?, neededSize: UInt64, fileSize: UInt64)
    /// A core file that was written, truncated or replaced while it was read (its size, its
    /// modification time or its inode changed): what was read of it may mix two contents.
    case coreModifiedWhileRead(path: String)
    /// The registers of the target's threads could not be read (`thread`: the one refused, when
    /// one was): `reason` says why and what to do.
    case threadRegistersUnreadable(path: String, thread: Int32?, reason: String)
    /// glibc's thread lists (`what`) could not be found or followed (`address`: where, when a
    /// read went wrong there): `detail` says what was missing or malformed.
    case threadListsUnreadable(path: String, what: String, address: UInt64?, detail: String)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .isDirectory(let path), .notELF(let path), .notSwift(let path),
            .unreadable(let path, _), .unsupported(let path, _), .malformedELF(let path, _), .tooLarge(let path, _, _),
            .outOfBounds(let path, _, _, _), .malformedRecord(let path, _, _, _), .referenceCycle(let path, _, _),
            .unmapped(let path, _, _, _), .truncatedCore(let path, _, _, _), .noSuchProcess(let path),
            .processAccessDenied(let path, _), .processExited(let path), .imageMissing(let path, _, _),
            .imageDiffers(let path, _, _, _, _), .imageUnverifiable(let path, _), .mallocStateNotFound(let path, _, _),
            .foreignAllocator(let path, _, _), .malformedHeap(let path, _, _, _), .notRegularFile(let path, _),
            .coreHeadersOutsideFile(let path, _, _, _), .coreChangedWhileRead(let path, _, _, _), .coreModifiedWhileRead(let path),
            .threadRegistersUnreadable(let path, _, _), .threadListsUnreadable(let path, _, _, _):
            return path
        }
    }

    /// One line naming the file and the problem.
    public var description: String {
        "\(path): \(problem)"
    }

    /// The problem in one line, without the file's path.
    public var problem: String {
        switch self {
        case .fileNotFound:
            return "no such file"
        case .isDirectory:
            return "is a directory, not an ELF file"
        case .unreadable(_, let detail):
            return "cannot read the file: \(detail)"
        case .tooLarge(_, let size, let limit):
            return "file is \(size) bytes, more than the \(limit)-byte limit"
        case .notELF:
            return "not an ELF file (no \\x7fELF magic)"
        case .unsupported(_, let detail):
            return "unsupported ELF file: \(detail)"
        case .malformedELF(_, let detail):
            return "malformed ELF file: \(detail)"
        case .outOfBounds(_, let what, let address, let length):
            return "malformed file: \(what) at 0x\(String(address, radix: 16)) (\(length) bytes) lies outside the file's data"
        case .malformedRecord(_, let what, let address, let detail):
            return "malformed Swift metadata: \(what) at 0x\(String(address, radix: 16)): \(detail)"
        case .referenceCycle(_, let what, let address):
            return "malformed Swift metadata: \(what) at 0x\(String(address, radix: 16)) loops back on itself"
        case .notSwift:
            return "no Swift reflection sections (swift5_*): not a Swift binary, or they were stripped"
        case .unmapped(_, let what, let address, let length):
            return "\(what) at 0x\(String(address, radix: 16)) (\(length) bytes) is not in the target's memory"
        case .truncatedCore(_, let address, let needed, let size):
            let what = address.map { "the segment at 0x\(String($0, radix: 16)) needs" } ?? "the notes need"
            return
                "truncated core file: \(what) \(needed) bytes of file, the file has \(size) (the dump was cut short: check the core size limit, `ulimit -c`, and free disk space)"
        case .noSuchProcess:
            return "no such process"
        case .processAccessDenied(_, let reason):
            return "permission denied: \(reason)"
        case .processExited:
            return "the process exited while it was being read"
        case .imageMissing(_, let image, let buildID):
            return
                "the target had \(image)\(buildID.map { " (build id \($0))" } ?? "") mapped, and no such file is on disk (moved or deleted); give the directory that holds it with --image-path DIR"
        case .imageUnverifiable(_, let image):
            return
                "the core does not hold the ELF header of \(image), so its build id cannot be checked against the file; make the core with ELF headers (bit 4 of /proc/PID/coredump_filter, set by default; gcore keeps them)"
        case .imageDiffers(_, let image, let expected, let found, let foundPath):
            return
                "the target had \(image) (build id \(expected)) mapped, but \(foundPath) is another build (build id \(found)); give the directory that holds the build the target ran with --image-path DIR"
        case .mallocStateNotFound(_, let library, let detail):
            return "cannot find glibc's malloc state in \(library): \(detail)"
        case .foreignAllocator(_, let allocator, let image):
            return
                "its malloc is \(allocator) (\(image)), not glibc's; typeinfo reads only glibc's heap, where it finds objects and tasks, so their allocations cannot be listed"
        case .malformedHeap(_, let what, let address, let detail):
            // A core cannot change or be stopped: its heap was corrupt when dumped, or the file was damaged since.
            let advice =
                TargetSpecifier.namesProcess(path)
                ? "the heap changed while it was read, or is corrupt: read a core file of it, or stop the process while it is read"
                : "the heap was corrupt when the process was dumped, or the core file was damaged since"
            return "malformed malloc heap: \(what) at 0x\(String(address, radix: 16)): \(detail) (\(advice))"
        case .notRegularFile(_, let kind):
            return "is \(kind), not a regular file: give an ELF file or a core file"
        case .coreHeadersOutsideFile(_, let offset, let size, let fileSize):
            let headers = size == .max ? "its program headers" : "its program headers (\(size) bytes at offset \(offset))"
            return offset >= fileSize
                ? "truncated or malformed core file: \(headers) start past its end at byte \(fileSize) (e_phoff is corrupt, or the dump was cut short)"
                : "truncated core file: it ends at byte \(fileSize), inside \(headers) (the dump was cut short: check the core size limit, `ulimit -c`, and free disk space)"
        case .coreChangedWhileRead(_, let address, let needed, let size):
            let what = address.map { "its segment for 0x\(String($0, radix: 16)) needs" } ?? "its headers need"
            return "the core file ends at byte \(size), \(what) up to \(needed): it was cut short or changed while read"
        case .coreModifiedWhileRead:
            return
                "the core file was written, truncated or replaced while it was read (its size, modification time or inode changed), so what was read may mix two contents: read it again once nothing writes it"
        case .threadRegistersUnreadable(_, let thread, let reason):
            return "the registers of \(thread.map { "its thread \($0)" } ?? "its threads") could not be read: \(reason)"
        case .threadListsUnreadable(_, let what, let address, let detail):
            return "glibc's thread lists: \(what)\(address.map { " at 0x\(String($0, radix: 16))" } ?? ""): \(detail)"
        }
    }
}
