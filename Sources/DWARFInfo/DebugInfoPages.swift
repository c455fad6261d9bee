import BinaryInfo

/// Where `.debug_info` lies in the file, so that a unit-by-unit reading can release each unit's
/// bytes (``ImageFile/releasePages(inFileRange:)``) once its layouts are made: the whole section
/// is then never resident at once. The reading goes forward through the section and never needs
/// a finished unit's bytes again; if anything does touch them, they read the same.
struct DebugInfoPages {
    private let file: ImageFile
    /// The section's file offset and size.
    private let offset: UInt64
    private let size: UInt64
    /// The start of the unit read before the last (section offset): released again with the
    /// next, so that a page two units share is released once both are done.
    private var previousStart: UInt64 = 0

    /// Nil when `file` has no plain `.debug_info` bytes (compressed, or an object file, which
    /// libdwarf reads from its own copy).
    init?(file: ImageFile) {
        guard let headers = try? file.sectionHeaders(), !headers.isRelocatable,
            let section = headers.sections.first(where: { $0.name == ".debug_info" }), section.hasFileBytes, !section.isCompressed
        else { return nil }
        self.file = file
        offset = section.offset
        size = section.size
    }

    /// Releases the bytes of the unit at `range` (a tagged ``DebugOffset`` range; units of other
    /// sections and groups carry high bits and are left alone) and of the one read before it.
    mutating func release(unit range: Range<UInt64>) {
        guard range.upperBound <= size else { return }
        let start = min(previousStart, range.lowerBound)
        previousStart = range.lowerBound
        file.releasePages(inFileRange: offset + start..<offset + range.upperBound)
    }
}
