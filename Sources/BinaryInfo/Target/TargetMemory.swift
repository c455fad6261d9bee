import Algorithms
import TypeLayout

extension TargetSpecifier {
    /// Whether `description` is how a process is named (`process 1234`): what an error whose
    /// path names its target says, so that its advice fits a process (stop it, read it again)
    /// or a core (which can be neither).
    static func namesProcess(_ description: String) -> Bool {
        guard description.hasPrefix("process ") else { return false }
        let id = description.dropFirst("process ".count)
        return !id.isEmpty && id.allSatisfy(\.isASCII) && Int32(id) != nil
    }
}

/// A target's memory and the images it had loaded: the one reader of a process or a core file.
///
/// A process's bytes come from ``ProcessMemory``. A core's come from its `PT_LOAD` segments and,
/// where the core left bytes out (gcore and the kernel omit file-backed pages the process never
/// wrote: code, read-only data, the type descriptors), from the mapped file, which is used only
/// once its build id equals the one the target holds. Readers (the metadata decoders, the
/// reflection library's callbacks) read through ``ByteReader`` and do not know which it is.
///
/// ```swift
/// let target = try TargetMemory(.process(pid), imageSearchPaths: [])
/// let swiftImages = target.images.filter(\.isSwift)
/// let word = try target.read(UInt64.self, at: address, what: "object header")
/// ```
public final class TargetMemory: ByteReader, Sendable {
    /// What was opened.
    public let target: TargetSpecifier
    /// The ELF images the target had mapped, by load address, each matched to its file.
    public let images: [TargetImage]
    /// The program the process ran: the image holding its entry point (`AT_ENTRY` of the
    /// auxiliary vector: a core's `NT_AUXV`, a process's `/proc/PID/auxv`), when known.
    public let executable: TargetImage?
    /// The process or core read: asked what differs between the two.
    let source: any TargetMemorySource

    /// The name errors give the target: `process 1234`, or the core file's path.
    public var path: String { target.description }

    /// The core file, when the target is one.
    public var core: CoreFile? { source as? CoreFile }

    /// The target's process id: a process's own, or the one a core records, when it does.
    public var processID: Int32? { source.targetProcessID }

    /// The program's name as the kernel kept it (`/proc/PID/comm`, a core's `NT_PRPSINFO`; at
    /// most 15 bytes), when known.
    public var programName: String? { source.programName }

    /// The target's machine, as `uname -m` spells it, when known.
    public var architecture: String? { source.targetArchitecture }

    /// Whether the target's memory can change while it is read unless the process is held
    /// stopped: true for a process, false for a core. Readers of a target that may change go
    /// around what changed under them; of one that cannot, what does not fit is corruption.
    public var mayChange: Bool { source.mayChange }

    /// Whether the target is gone: a process that exited (or is a zombie). A core never is.
    public var hasGone: Bool { source.hasGone }

    /// The registers of each thread: of a process, those `pause` holds stopped (a running
    /// thread's change as it runs); of a core, as they were dumped.
    ///
    /// - Throws: ``BinaryInfoError/threadRegistersUnreadable(path:thread:reason:)`` for a process
    ///   not held stopped, or registers that cannot be read.
    public func threadRegisters(heldBy pause: ProcessPause?) throws(BinaryInfoError) -> [ThreadRegisters] {
        try source.threadRegisters(heldBy: pause)
    }

    /// Opens `target` and matches each image it had loaded to its file by build id.
    ///
    /// - Parameter imageSearchPaths: directories searched, in order, for image files no longer at
    ///   the path the target mapped them from (each directory is tried as a copied root, then for
    ///   the file's name).
    /// - Throws: ``BinaryInfoError``: no such process, permission denied, the process exited, a
    ///   malformed or truncated core, ``BinaryInfoError/imageMissing(path:image:buildID:)`` or
    ///   ``BinaryInfoError/imageDiffers(path:image:expected:found:foundPath:)`` for an image file.
    public convenience init(_ target: TargetSpecifier, imageSearchPaths: [String] = []) throws(BinaryInfoError) {
        try self.init(target: target, source: try Self.source(of: target), imageSearchPaths: imageSearchPaths)
    }

    /// What `target` names, opened: the one place a target's kind is chosen.
    static func source(of target: TargetSpecifier) throws(BinaryInfoError) -> any TargetMemorySource {
        switch target {
        case .process(let id): try ProcessMemory(processID: id)
        case .core(let path): try CoreFile(path: path)
        }
    }

    /// Opens a core file already read (``CoreFile/init(bytes:name:)`` for bytes held in memory),
    /// matching each image it had loaded to its file as ``init(_:imageSearchPaths:)`` does.
    ///
    /// - Throws: as ``init(_:imageSearchPaths:)`` for an image file.
    public convenience init(core: CoreFile, imageSearchPaths: [String] = []) throws(BinaryInfoError) {
        try self.init(target: .core(path: core.path), source: core, imageSearchPaths: imageSearchPaths)
    }

    /// Opens process `processID`, as if `map` were its memory map when one is given (tests give a
    /// changed one).
    convenience init(processID: Int32, map: MemoryMap?, imageSearchPaths: [String] = []) throws(BinaryInfoError) {
        var memory = try ProcessMemory(processID: processID)
        memory.fixedMap = map
        try self.init(target: .process(processID), source: memory, imageSearchPaths: imageSearchPaths)
    }

    /// A target whose images are already known (``init(_:imageMap:)``).
    init(target: TargetSpecifier, source: any TargetMemorySource, images: [TargetImage], executable: TargetImage?) {
        self.target = target
        self.source = source
        self.images = images
        self.executable = executable
    }

    /// Opens `source`, finding its images in its memory map or notes and matching each to its file.
    private convenience init(target: TargetSpecifier, source: any TargetMemorySource, imageSearchPaths: [String])
        throws(BinaryInfoError)
    {
        var found: [TargetImage] = []
        let (candidates, auxiliaryVector) = try source.mappedImages(searchDirectories: imageSearchPaths)
        for (candidate, paths) in candidates {
            if let image = try TargetImage.resolve(candidate, in: source, filePaths: paths) { found.append(image) }
        }
        let sorted = found.sorted { $0.loadAddress < $1.loadAddress }
        let entry = auxiliaryVector.first { $0.key == Self.entryKey }?.value
        self.init(
            target: target, source: source, images: sorted,
            executable: entry.flatMap { entry in sorted.first { $0.addressRange.contains(entry) } })
    }

    /// The image whose mappings hold `address`, if any.
    public func image(containing address: UInt64) -> TargetImage? {
        images.image(containing: address)
    }

    /// Copies `destination.count` bytes of the target's memory at `address`.
    ///
    /// - Throws: ``BinaryInfoError/unmapped(path:what:address:length:)`` when a byte was not mapped
    ///   (or a core holds it neither in a segment nor in a matched image's file), and for a
    ///   process ``BinaryInfoError/processExited(path:)`` or
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)``.
    public func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
    {
        try source.fetch(into: destination, from: address, images: images, what: what)
    }

    /// `AT_ENTRY`: the program's entry point.
    static let entryKey: UInt64 = 9

    /// The (key, value) pairs of a `/proc/PID/auxv` file, up to `AT_NULL`.
    static func auxiliaryVector(of bytes: FileBytes) -> [AuxiliaryEntry] {
        let reader = bytes
        var entries: [AuxiliaryEntry] = []
        var offset: UInt64 = 0
        while offset + 16 <= UInt64(bytes.count), entries.count < 1024,
            let key = try? reader.read(UInt64.self, at: offset, what: "auxv"), key != 0,
            let value = try? reader.read(UInt64.self, at: offset + 8, what: "auxv")
        {
            entries.append(AuxiliaryEntry(key: key, value: value))
            offset += 16
        }
        return entries
    }

    /// A mapping's path without the ` (deleted)` the kernel appends to a file removed since.
    static func deletedSuffixRemoved(_ path: String) -> String {
        path.hasSuffix(" (deleted)") ? String(path.dropLast(10)) : path
    }
}
