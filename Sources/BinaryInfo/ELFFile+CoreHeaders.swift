extension ELFFile {
    /// The size of one 64-bit program header (`sizeof(Elf64_Phdr)`).
    static let programHeaderSize: UInt64 = 56

    /// Checks that a core's `count` program headers of `entrySize` bytes at file offset `offset`
    /// lie inside its `fileSize` bytes, so that a core cut short inside them, or whose `e_phoff`
    /// is corrupt, is called that (libelf would only refuse each header, and a core without its
    /// headers would read as one without memory).
    ///
    /// - Throws: ``BinaryInfoError/coreHeadersOutsideFile(path:offset:size:fileSize:)``, or
    ///   ``BinaryInfoError/malformedELF(path:detail:)`` for an entry size that is not a program header's.
    static func checkCoreProgramHeaders(offset: UInt64, entrySize: UInt64, count: Int, fileSize: UInt64, path: String)
        throws(BinaryInfoError)
    {
        guard count > 0 else { return }
        guard entrySize == programHeaderSize else {
            throw BinaryInfoError.malformedELF(
                path: path, detail: "core program headers of \(entrySize) bytes each (e_phentsize), not \(programHeaderSize)")
        }
        let (size, sizeOverflow) = UInt64(count).multipliedReportingOverflow(by: entrySize)
        let (end, endOverflow) = offset.addingReportingOverflow(size)
        guard !sizeOverflow, !endOverflow, end <= fileSize else {
            throw BinaryInfoError.coreHeadersOutsideFile(path: path, offset: offset, size: sizeOverflow ? .max : size, fileSize: fileSize)
        }
    }
}
