// Which of a file's bytes a reading is done with once ELFFile has read it: their pages can leave
// the process's resident memory (FileBytes.releasePages), and read the same if touched again.

extension ELFFile {
    /// Releases the bytes of the static symbol tables and relocation sections, whose entries
    /// ``init(bytes:includeStaticSymbols:includeTables:sortsSymbols:)`` copied out.
    /// `.dynsym` stays: exported names are looked up in place (GNU hash).
    func releaseCopiedTablePages(in bytes: FileBytes) {
        for section in sections where section.isCopiedTable {
            Self.release(section, in: bytes)
        }
    }

    /// Releases the bytes of the static symbol tables' string tables (defined symbols' names are
    /// read from them on demand): for a reader that has looked up every name it needs.
    /// `.dynstr` stays, as `.dynsym` does.
    func releaseStaticNamePages(in bytes: FileBytes) {
        let dynamicStrings = Set(sections.filter(\.isDynamicSymbolTable).map(\.link))
        let staticStrings = Set(sections.filter(\.isStaticSymbolTable).map(\.link)).subtracting(dynamicStrings)
        for section in sections where staticStrings.contains(UInt32(truncatingIfNeeded: section.index)) {
            Self.release(section, in: bytes)
        }
    }

    private static func release(_ section: ImageSection, in bytes: FileBytes) {
        guard section.hasFileBytes else { return }
        bytes.releasePages(offset: section.offset, size: section.size)
    }
}
