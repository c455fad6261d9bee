/// A GNU build id (`NT_GNU_BUILD_ID`): the bytes the linker derived from an image's contents,
/// the same in the file on disk and in every process that loaded it. Two images with the same
/// build id are the same build.
public struct BuildID: Sendable, Hashable, CustomStringConvertible {
    /// The note's descriptor bytes.
    public let bytes: [UInt8]

    /// A build id of these bytes.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Lowercase hex, as `file(1)` and `readelf -n` print it.
    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// `NT_GNU_BUILD_ID`.
    static let noteType: UInt32 = 3
    /// The most program headers read (real images have about a dozen).
    static let maximumProgramHeaders = 256
    /// The longest note segment walked (build-id notes sit in a few hundred bytes).
    static let maximumNoteSegment: UInt64 = 1 << 16

    /// The build id of the ELF file at `path`, from its note segments.
    ///
    /// - Returns: nil when the file has no build-id note.
    /// - Throws: ``BinaryInfoError`` when the file cannot be read or is not an ELF file.
    public static func read(ofFileAt path: String) throws(BinaryInfoError) -> BuildID? {
        let bytes = try ImageLoader.readFile(path)
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
        return try read(from: bytes, segments: file.segments) { $0.offset }
    }

    /// The build id of the ELF image loaded with its header at `header` in `reader` (a target's
    /// memory), with the load bias its program headers give.
    ///
    /// - Returns: nil when the image has no build-id note.
    /// - Throws: ``BinaryInfoError`` when the header is not readable or not a 64-bit ELF header,
    ///   or a note is malformed.
    public static func loaded(in reader: some ByteReader, headerAt header: UInt64) throws(BinaryInfoError) -> BuildID? {
        let segments = try programHeaders(from: reader, header: header)
        guard let bias = loadBias(of: segments, loadedAt: header) else { return nil }
        return try read(from: reader, segments: segments) { bias &+ $0.address }
    }

    /// What the loader added to the virtual addresses of an image with these program headers,
    /// whose first byte it placed at `address`: nil without a loadable segment of file offset 0.
    static func loadBias(of segments: [ImageSegment], loadedAt address: UInt64) -> UInt64? {
        guard let first = segments.first(where: { $0.isLoadable && $0.offset == 0 }) else { return nil }
        return address &- (first.address & ~0xFFF)
    }

    /// The program headers of the ELF image whose header is at `header` in `reader` (a target's
    /// memory: the loader maps the headers with the image's first page).
    ///
    /// - Throws: ``BinaryInfoError`` when the header is not readable or not a 64-bit ELF header.
    static func programHeaders(from reader: some ByteReader, header: UInt64) throws(BinaryInfoError) -> [ImageSegment] {
        let magic = try reader.read(UInt32.self, at: header, what: "ELF header")
        guard magic == 0x464C_457F, try reader.read(UInt8.self, at: header &+ 4, what: "ELF class") == 2 else {
            throw BinaryInfoError.malformedRecord(path: reader.path, what: "ELF header", address: header, detail: "not a 64-bit ELF header")
        }
        let tableOffset = try reader.read(UInt64.self, at: header &+ 32, what: "e_phoff")
        let entrySize = UInt64(try reader.read(UInt16.self, at: header &+ 54, what: "e_phentsize"))
        let count = Int(try reader.read(UInt16.self, at: header &+ 56, what: "e_phnum"))
        guard entrySize >= 56, count <= maximumProgramHeaders, tableOffset < 1 << 32 else {
            throw BinaryInfoError.malformedRecord(
                path: reader.path, what: "program headers", address: header,
                detail: "\(count) entries of \(entrySize) bytes at \(tableOffset)")
        }
        var segments: [ImageSegment] = []
        for index in 0..<UInt64(count) {
            let entry = header &+ tableOffset &+ index * entrySize
            segments.append(
                ImageSegment(
                    type: try reader.read(UInt32.self, at: entry, what: "p_type"),
                    flags: try reader.read(UInt32.self, at: entry &+ 4, what: "p_flags"),
                    offset: try reader.read(UInt64.self, at: entry &+ 8, what: "p_offset"),
                    address: try reader.read(UInt64.self, at: entry &+ 16, what: "p_vaddr"),
                    fileSize: try reader.read(UInt64.self, at: entry &+ 32, what: "p_filesz"),
                    memorySize: try reader.read(UInt64.self, at: entry &+ 40, what: "p_memsz")))
        }
        return segments
    }

    /// The build id among the notes of `segments`' note segments, whose bytes `noteAddress` places
    /// in `reader` (a loaded image: its load bias plus `p_vaddr`; a file: `p_offset`).
    ///
    /// - Returns: nil when the image has no build-id note.
    /// - Throws: ``BinaryInfoError`` when a note is not readable or malformed.
    static func read(from reader: some ByteReader, segments: [ImageSegment], noteAddress: (ImageSegment) -> UInt64?)
        throws(BinaryInfoError) -> BuildID?
    {
        for segment in segments where segment.isNote {
            guard let start = noteAddress(segment) else { continue }
            if let found = try buildID(inNotesAt: start, size: min(segment.fileSize, maximumNoteSegment), reader: reader) {
                return found
            }
        }
        return nil
    }

    /// Walks the notes of one note segment (`Elf64_Nhdr`: name size, descriptor size, type; the
    /// name and the descriptor each padded to 4 bytes) for `GNU`'s build id.
    private static func buildID(inNotesAt start: UInt64, size: UInt64, reader: some ByteReader) throws(BinaryInfoError) -> BuildID? {
        var cursor: UInt64 = 0
        while cursor + 12 <= size {
            let at = start &+ cursor
            let nameSize = UInt64(try reader.read(UInt32.self, at: at, what: "note header"))
            let descriptorSize = UInt64(try reader.read(UInt32.self, at: at &+ 4, what: "note header"))
            let type = try reader.read(UInt32.self, at: at &+ 8, what: "note header")
            let paddedName = (nameSize + 3) & ~3
            let paddedDescriptor = (descriptorSize + 3) & ~3
            guard nameSize <= size, descriptorSize <= size, cursor + 12 + paddedName + paddedDescriptor <= size else {
                throw BinaryInfoError.malformedRecord(
                    path: reader.path, what: "note", address: at, detail: "sizes \(nameSize) and \(descriptorSize) overrun its segment")
            }
            if type == noteType, nameSize == 4,
                try reader.bytes(at: at &+ 12, count: 4, what: "note name") == Array("GNU\0".utf8), descriptorSize > 0
            {
                return BuildID(try reader.bytes(at: at &+ 12 &+ paddedName, count: Int(descriptorSize), what: "build id"))
            }
            cursor += 12 + paddedName + paddedDescriptor
        }
        return nil
    }
}
