/// The bytes of one ELF file, read (mapped) once and shared by every reader of that file.
///
/// ``BinaryImage/read(_:runtimeLibrary:)`` reads the Swift metadata from it, and DWARFInfo's `DWARFReader`
/// hands the same bytes to libdwarf, so a file whose types and debug information are both read
/// is opened once.
///
/// ```swift
/// let file = try ImageFile(path: "libfoo.so")
/// let reading = try BinaryImage.read(file, runtimeLibrary: "/opt/swift/usr/lib/swift/linux/libswiftCore.so")
/// ```
public final class ImageFile: Sendable {
    let bytes: FileBytes

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
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false)
        return ImageSections(fileType: file.fileType, sections: file.sections)
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
