import Synchronization

/// The bytes of one ELF file, read (mapped) once and shared by every reader of that file.
///
/// ``BinaryImage/read(_:runtimeLibrary:)`` reads the Swift metadata from it, DWARFInfo's `DWARFReader`
/// hands the same bytes to libdwarf, and TypeLowering finds its dependencies from it, so a file
/// whose types, debug information and dependencies are all read is opened once, and its section
/// headers are parsed once for the readers that need only them (``sectionHeaders()``,
/// ``dependencyInfo()``).
///
/// ```swift
/// let file = try ImageFile(path: "libfoo.so")
/// let reading = try BinaryImage.read(file, runtimeLibrary: "/opt/swift/usr/lib/swift/linux/libswiftCore.so")
/// ```
public final class ImageFile: Sendable {
    let bytes: FileBytes
    /// The section headers and `.dynamic` entries, parsed on first use (or the parse's error).
    private let headers = Mutex<Result<ParsedHeaders, BinaryInfoError>?>(nil)

    private struct ParsedHeaders: Sendable {
        var sections: ImageSections
        var needed: [String]
        var searchPaths: [String]
    }

    /// The path the file was read from.
    public var path: String { bytes.path }
    /// The number of bytes in the file.
    public var count: Int { bytes.count }

    /// Reads (maps) the file at `path`.
    ///
    /// - Throws: ``BinaryInfoError/fileNotFound(path:)``, ``BinaryInfoError/isDirectory(path:)``,
    ///   ``BinaryInfoError/unreadable(path:detail:)`` or ``BinaryInfoError/tooLarge(path:size:limit:)``.
    public init(path: String) throws(BinaryInfoError) {
        bytes = try ImageLoader.readFile(path)
    }

    init(bytes: FileBytes) {
        self.bytes = bytes
    }

    /// Calls `body` with the file's bytes, valid only during the call.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: bytes.buffer[0..<bytes.count]))
    }

    /// Lets the system drop this process's resident copy of the file's bytes in `range` (file
    /// offsets), for a reader that is done with them (a DWARF unit once its layouts are made),
    /// so that a whole-file reading does not keep the whole file resident.
    ///
    /// Safe at any time: the bytes read the same afterwards (a page touched again is read back
    /// from the system's page cache). Bytes that are not an unwritten mapping of the file (an
    /// object file with relocations applied, a file read into memory) are left as they are.
    public func releasePages(inFileRange range: Range<UInt64>) {
        bytes.releasePages(in: range)
    }

    /// The file's section headers (through libelf), each section with bytes checked to lie
    /// inside the file.
    ///
    /// - Throws: ``BinaryInfoError`` when the file is not a 64-bit little-endian ELF file or a
    ///   header or section lies outside it.
    public func sectionHeaders() throws(BinaryInfoError) -> ImageSections {
        try parsedHeaders().sections
    }

    /// What a loader needs to find the file's dependencies: `DT_NEEDED`, the search path
    /// (`DT_RUNPATH`/`DT_RPATH`), and whether it holds Swift reflection sections.
    ///
    /// - Throws: as ``sectionHeaders()``, and ``BinaryInfoError`` for a malformed `.dynamic`.
    public func dependencyInfo() throws(BinaryInfoError) -> (needed: [String], searchPaths: [String], isSwift: Bool) {
        let parsed = try parsedHeaders()
        return (parsed.needed, parsed.searchPaths, parsed.sections.sections.contains { $0.name == "swift5_fieldmd" })
    }

    /// The headers-only parse, made once: every reader that asks shares it.
    private func parsedHeaders() throws(BinaryInfoError) -> ParsedHeaders {
        let result = headers.withLock { cached in
            if let cached { return cached }
            let parsed = Result { () throws(BinaryInfoError) -> ParsedHeaders in
                try Self.headers(of: ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false), in: bytes)
            }
            cached = parsed
            return parsed
        }
        return try result.get()
    }

    /// Keeps the headers of a parse another reader made of these bytes (the metadata reader's
    /// full parse), so that a later ``sectionHeaders()`` or ``dependencyInfo()`` does not parse again.
    func adoptHeaders(of file: ELFFile) {
        headers.withLock { cached in
            guard cached == nil else { return }
            cached = Result { () throws(BinaryInfoError) in try Self.headers(of: file, in: bytes) }
        }
    }

    private static func headers(of file: ELFFile, in bytes: FileBytes) throws(BinaryInfoError) -> ParsedHeaders {
        let dynamic = try file.dynamicEntries(in: bytes)
        return ParsedHeaders(
            sections: ImageSections(fileType: file.fileType, sections: file.sections), needed: dynamic.needed,
            searchPaths: dynamic.searchPaths)
    }
}

/// The section headers of an ``ImageFile``.
public struct ImageSections: Sendable {
    /// The ELF file type (`e_type`): 1 relocatable, 2 executable, 3 shared object.
    public var fileType: UInt16
    /// The sections in index order; inactive (`SHT_NULL`) headers are left out.
    public var sections: [ImageSection]

    /// `ET_REL`: a relocatable object, whose sections have no addresses and whose debug
    /// sections need relocations applied before they can be read.
    public var isRelocatable: Bool { fileType == ELFFile.typeRelocatable }
}
