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
    let source: Source

    enum Source: Sendable {
        /// A process; its memory map is read again for each reader that asks (``regions()``),
        /// unless tests fixed another.
        case process(ProcessMemory, fixedMap: MemoryMap?)
        case core(CoreFile)

        /// A process's memory map as it is now (or the one tests fixed).
        static func currentMap(of memory: ProcessMemory, fixedMap: MemoryMap?) throws(BinaryInfoError) -> MemoryMap {
            if let fixedMap { return fixedMap }
            return try MemoryMap(processID: memory.processID)
        }
    }

    /// The name errors give the target: `process 1234`, or the core file's path.
    public var path: String { target.description }

    /// The core file, when the target is one.
    public var core: CoreFile? {
        if case .core(let core) = source { return core }
        return nil
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
        switch target {
        case .process(let id):
            try self.init(processID: id, map: nil, imageSearchPaths: imageSearchPaths)
        case .core(let path):
            try self.init(core: try CoreFile(path: path), imageSearchPaths: imageSearchPaths)
        }
    }

    /// Opens a core file already read (``CoreFile/init(bytes:name:)`` for bytes held in memory),
    /// matching each image it had loaded to its file as ``init(_:imageSearchPaths:)`` does.
    ///
    /// - Throws: as ``init(_:imageSearchPaths:)`` for an image file.
    public convenience init(core: CoreFile, imageSearchPaths: [String] = []) throws(BinaryInfoError) {
        try self.init(target: .core(path: core.path), source: .core(core), imageSearchPaths: imageSearchPaths)
    }

    /// Opens process `processID`, as if `map` were its memory map when one is given (tests give a
    /// changed one).
    convenience init(processID: Int32, map: MemoryMap?, imageSearchPaths: [String] = []) throws(BinaryInfoError) {
        let memory = try ProcessMemory(processID: processID)
        try self.init(target: .process(processID), source: .process(memory, fixedMap: map), imageSearchPaths: imageSearchPaths)
    }

    /// A target whose images are already known (``init(_:imageMap:)``).
    init(target: TargetSpecifier, source: Source, images: [TargetImage], executable: TargetImage?) {
        self.target = target
        self.source = source
        self.images = images
        self.executable = executable
    }

    /// Opens `source`, finding its images in its memory map or notes and matching each to its file.
    private convenience init(target: TargetSpecifier, source: Source, imageSearchPaths: [String]) throws(BinaryInfoError) {
        var found: [TargetImage] = []
        var auxiliaryVector: [AuxiliaryEntry] = []
        switch source {
        case .process(let memory, let fixedMap):
            let id = memory.processID
            let map = try Source.currentMap(of: memory, fixedMap: fixedMap)
            let mapped = map.mappings.filter(\.isFileBacked).map {
                (start: $0.start, end: $0.end, fileOffset: $0.fileOffset, path: Self.deletedSuffixRemoved($0.name))
            }
            for candidate in MappedImageCandidate.group(mapped) {
                // The kernel's own handles on the mapped file find it even when deleted or moved,
                // and through the process's root when it runs in another mount namespace.
                let handles = [
                    "/proc/\(id)/map_files/\(String(candidate.loadAddress, radix: 16))-\(String(candidate.mappings[0].range.upperBound, radix: 16))",
                    "/proc/\(id)/root" + candidate.path,
                ]
                let paths = TargetImage.filePaths(for: candidate.path, first: handles, searchDirectories: imageSearchPaths)
                if let image = try TargetImage.resolve(candidate, in: memory, filePaths: paths) { found.append(image) }
            }
            auxiliaryVector = (try? ImageLoader.readFile("/proc/\(id)/auxv")).map(Self.auxiliaryVector(of:)) ?? []
        case .core(let core):
            let mapped = core.mappedFiles.sorted { $0.start < $1.start }.map {
                (start: $0.start, end: $0.end, fileOffset: $0.fileOffset, path: Self.deletedSuffixRemoved($0.path))
            }
            for candidate in MappedImageCandidate.group(mapped) {
                let paths = TargetImage.filePaths(for: candidate.path, searchDirectories: imageSearchPaths)
                if let image = try TargetImage.resolve(candidate, in: core, filePaths: paths) { found.append(image) }
            }
            auxiliaryVector = core.auxiliaryVector
        }
        let sorted = found.sorted { $0.loadAddress < $1.loadAddress }
        let entry = auxiliaryVector.first { $0.key == Self.entryKey }?.value
        self.init(
            target: target, source: source, images: sorted,
            executable: entry.flatMap { entry in sorted.first { $0.addressRange.contains(entry) } })
    }

    /// The image whose mappings hold `address`, if any.
    public func image(containing address: UInt64) -> TargetImage? {
        let index = images.partitioningIndex { $0.loadAddress > address } - 1
        guard index >= 0, images[index].addressRange.contains(address) else { return nil }
        return images[index]
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
        switch source {
        case .process(let memory, _):
            try memory.fetch(into: destination, from: address, what: what())
        case .core(let core):
            try fetch(into: destination, from: address, core: core, what: what)
        }
    }

    /// A core's bytes piece by piece: each piece from the segment holding it, or else from the
    /// matched file of the image mapping it.
    private func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, core: CoreFile, what: () -> String)
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
            let segments = core.segments
            let index = segments.partitioningIndex { $0.address > cursor } - 1
            if index >= 0, cursor - segments[index].address < segments[index].fileSize {
                let segment = segments[index]
                piece = Int(min(remaining, segment.fileSize - (cursor - segment.address)))
                try core.fetch(
                    into: UnsafeMutableRawBufferPointer(rebasing: destination[copied..<copied + piece]), from: cursor, what: what())
            } else if let image = image(containing: cursor), let mapping = image.fileMappings.first(where: { $0.range.contains(cursor) }) {
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

    /// `AT_ENTRY`: the program's entry point.
    static let entryKey: UInt64 = 9

    /// The (key, value) pairs of a `/proc/PID/auxv` file, up to `AT_NULL`.
    private static func auxiliaryVector(of bytes: FileBytes) -> [AuxiliaryEntry] {
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
