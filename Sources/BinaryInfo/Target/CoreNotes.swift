/// Decodes the descriptors of a core file's notes (Linux's layouts for 64-bit processes:
/// `elf_prpsinfo`, `NT_FILE`, the auxiliary vector), every read bounds-checked by the note's size.
/// Each descriptor is read from the file once, whole (a process's `NT_FILE` lists thousands of
/// paths), and decoded from memory.
struct CoreNotes {
    let reader: CoreFileReader
    /// The largest descriptor read: no real note comes near it (a process's `NT_FILE` with
    /// 65,535 mappings of long paths is a few MiB).
    static let maximumDescriptorSize: UInt64 = 256 << 20

    /// `note`'s descriptor bytes, as a buffer addressed from the descriptor's start.
    private func descriptor(_ note: ImageNote, what: String) throws(BinaryInfoError) -> FileBytes {
        guard note.descriptorSize <= Self.maximumDescriptorSize else {
            throw BinaryInfoError.malformedELF(
                path: reader.path,
                detail: "\(what): the note at offset \(note.descriptorOffset) claims \(note.descriptorSize) bytes, more than any note holds"
            )
        }
        let bytes = try filledBytes(count: Int(note.descriptorSize)) { buffer throws(BinaryInfoError) in
            try reader.fetch(into: buffer, fromOffset: note.descriptorOffset, what: what)
        }
        return FileBytes(bytes, path: reader.path)
    }

    /// Reads a little-endian integer `offset` bytes into `note`'s descriptor, held in `bytes`.
    private func read<T: FixedWidthInteger>(_ type: T.Type, _ note: ImageNote, _ bytes: FileBytes, at offset: UInt64, what: String)
        throws(BinaryInfoError) -> T
    {
        let size = UInt64(MemoryLayout<T>.size)
        guard offset <= note.descriptorSize, size <= note.descriptorSize - offset else {
            throw BinaryInfoError.malformedELF(
                path: reader.path,
                detail: "\(what): the note at offset \(note.descriptorOffset) has \(note.descriptorSize) bytes, too few for its fields")
        }
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { buffer throws(BinaryInfoError) in
            try bytes.fetch(into: buffer, fromOffset: offset, what: what)
        }
        return T(littleEndian: value)
    }

    /// `pr_pid` and `pr_fname` of `NT_PRPSINFO` (`struct elf_prpsinfo`: the id at 24, the name's 16 bytes at 40).
    func processInfo(_ note: ImageNote) throws(BinaryInfoError) -> (processID: Int32, command: String) {
        let bytes = try descriptor(note, what: "NT_PRPSINFO")
        let processID = try read(Int32.self, note, bytes, at: 24, what: "NT_PRPSINFO")
        var name: [UInt8] = []
        for offset in UInt64(40)..<56 {
            let byte = try read(UInt8.self, note, bytes, at: offset, what: "NT_PRPSINFO")
            if byte == 0 { break }
            name.append(byte)
        }
        return (processID, String(decoding: name, as: UTF8.self))
    }

    /// `NT_FILE`: a count, the page size, `count` (start, end, page offset) triples, then `count`
    /// NUL-terminated paths.
    func mappedFiles(_ note: ImageNote) throws(BinaryInfoError) -> [MappedFile] {
        let bytes = try descriptor(note, what: "NT_FILE")
        let count = try read(UInt64.self, note, bytes, at: 0, what: "NT_FILE")
        let pageSize = try read(UInt64.self, note, bytes, at: 8, what: "NT_FILE")
        // Each entry takes 24 bytes of triple and at least one of path: the note's size bounds the count.
        guard count <= note.descriptorSize / 25 else {
            throw BinaryInfoError.malformedELF(
                path: reader.path, detail: "NT_FILE: \(count) mapped files cannot fit the note's \(note.descriptorSize) bytes")
        }
        var files: [MappedFile] = []
        files.reserveCapacity(Int(count))
        var pathOffset = 16 + count * 24
        for index in 0..<count {
            let start = try read(UInt64.self, note, bytes, at: 16 + index * 24, what: "NT_FILE")
            let end = try read(UInt64.self, note, bytes, at: 24 + index * 24, what: "NT_FILE")
            let page = try read(UInt64.self, note, bytes, at: 32 + index * 24, what: "NT_FILE")
            let (fileOffset, overflow) = page.multipliedReportingOverflow(by: pageSize)
            guard start <= end, !overflow, pathOffset < note.descriptorSize,
                let path = bytes.cString(atOffset: pathOffset, limit: note.descriptorSize - pathOffset)
            else {
                throw BinaryInfoError.malformedELF(path: reader.path, detail: "NT_FILE: mapped file #\(index) is malformed")
            }
            files.append(MappedFile(start: start, end: end, fileOffset: fileOffset, path: path))
            pathOffset += UInt64(path.utf8.count) + 1
        }
        return files
    }

    /// `NT_AUXV`: (key, value) pairs of 64-bit words up to `AT_NULL`.
    func auxiliaryVector(_ note: ImageNote) throws(BinaryInfoError) -> [AuxiliaryEntry] {
        let bytes = try descriptor(note, what: "NT_AUXV")
        var entries: [AuxiliaryEntry] = []
        var offset: UInt64 = 0
        while offset + 16 <= note.descriptorSize {
            let key = try read(UInt64.self, note, bytes, at: offset, what: "NT_AUXV")
            if key == 0 { break }
            entries.append(AuxiliaryEntry(key: key, value: try read(UInt64.self, note, bytes, at: offset + 8, what: "NT_AUXV")))
            offset += 16
        }
        return entries
    }
}
