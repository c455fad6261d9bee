import TypeLayout

/// Cheap checks that a core's memory is the process's: where a core holds bytes of an image's
/// memory that no process changes by itself, they must equal the image file's (matched by build
/// id). Code and read-only data (of the file's read-only segments) must equal the file byte for
/// byte, while memory the process made read-only itself is not compared; relocated read-only data
/// (`PT_GNU_RELRO`) must equal it at every word that no dynamic relocation writes, outside the
/// dynamic section and `.got.plt` (the dynamic linker writes those too). A few pages of each
/// segment are compared (its first, middle and last), so the check reads little: it catches a
/// core whose segments' bytes were exchanged or overwritten, not every changed byte.
///
/// glibc's own images (the C library and the dynamic linker) are left out of the relocated check:
/// they write some of their read-only data while they start (`attribute_relro` variables).
extension TargetMemory {
    /// The pages compared in each segment.
    static let pagesComparedPerSegment = 3
    static let comparedPageSize: UInt64 = 4096

    /// The places where a core's memory differs from its images' files (at most one per
    /// segment); empty for a process, and where nothing differs.
    public func coreMismatches() -> [CoreMismatch] {
        guard let core else { return [] }
        var mismatches: [CoreMismatch] = []
        for image in images {
            guard let file = try? ELFFile(bytes: image.file, includeStaticSymbols: false, includeTables: true, sortsSymbols: false)
            else { continue }
            // The dynamic linker protects whole pages: from the page holding the first byte.
            let relro = file.segments.filter { $0.type == Self.relroType }.map { segment in
                let start = image.loadBias &+ segment.address
                return (start & ~(Self.comparedPageSize - 1))..<(start &+ segment.memorySize)
            }
            var written: Set<UInt64>?
            for segment in core.segments where segment.fileSize > 0 && !segment.isWritable && image.addressRange.contains(segment.address) {
                let isRelro = relro.contains { $0.overlaps(segment.address..<segment.address &+ max(segment.memorySize, 1)) }
                // Memory of a writable segment of the file that the process made read-only
                // itself (outside RELRO) holds what it wrote before: nothing to compare.
                let loads = file.segments.filter(\.isLoadable)
                let inFile = segment.address &- image.loadBias
                let writableInFile = loads.contains { $0.isWritable && inFile >= $0.address && inFile - $0.address < $0.memorySize }
                if writableInFile, !isRelro { continue }
                if isRelro {
                    guard !Self.isGlibcImage(image.mappedPath) else { continue }
                    if written == nil { written = Self.placesWritten(file, image: image) }
                    // An image whose relocation places cannot all be told is not compared.
                    guard written?.isEmpty == false else { continue }
                }
                if let mismatch = firstMismatch(in: segment, image: image, core: core, skipping: isRelro ? written : nil) {
                    mismatches.append(mismatch)
                }
            }
        }
        return mismatches
    }

    static let relroType: UInt32 = 0x6474_E552

    static func isGlibcImage(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasPrefix("libc.so") || name.hasPrefix("libc-") || name.hasPrefix("ld-linux") || name.hasPrefix("ld-")
    }

    /// The first differing byte of the compared pages of `segment`, against the file bytes its
    /// image's mapping places there; words at `skipping` (target addresses) are not compared.
    private func firstMismatch(in segment: ImageSegment, image: TargetImage, core: CoreFile, skipping: Set<UInt64>?) -> CoreMismatch? {
        guard let mapping = image.fileMappings.first(where: { $0.range.contains(segment.address) }) else { return nil }
        let end = min(segment.address + segment.fileSize, mapping.range.upperBound)
        guard end > segment.address else { return nil }
        let pages = (end - segment.address + Self.comparedPageSize - 1) / Self.comparedPageSize
        let chosen = Set([0, pages / 2, pages - 1]).sorted()
        for page in chosen.prefix(Self.pagesComparedPerSegment) {
            let start = segment.address + page * Self.comparedPageSize
            let count = Int(min(Self.comparedPageSize, end - start))
            let fileOffset = mapping.fileOffset + (start - mapping.range.lowerBound)
            // Past the file's end (the last page's tail) the file has no bytes to compare.
            guard fileOffset < UInt64(image.file.count) else { continue }
            let compared = min(count, Int(UInt64(image.file.count) - fileOffset))
            guard let held = try? core.bytes(at: start, count: compared, what: "core bytes"),
                let expected = try? image.file.bytes(at: fileOffset, count: compared, what: "image bytes")
            else { continue }
            var index = 0
            while index < compared {
                let width = min(8, compared - index)
                let place = start + UInt64(index)
                if skipping?.contains(place & ~7) != true, held[index..<index + width] != expected[index..<index + width] {
                    let byte = (index..<index + width).first { held[$0] != expected[$0] } ?? index
                    return CoreMismatch(
                        image: image.mappedPath, segment: segment.address, address: start + UInt64(byte),
                        fileOffset: fileOffset + UInt64(byte), isRelocatedReadOnly: skipping != nil)
                }
                index += width
            }
        }
        return nil
    }

    /// The target addresses of the words the dynamic linker writes in relocated read-only data:
    /// every dynamic relocation's place (of any type), the RELR-packed places, and every word of
    /// the dynamic section and `.got.plt`. Empty when they cannot all be told.
    static func placesWritten(_ file: ELFFile, image: TargetImage) -> Set<UInt64> {
        var places: Set<UInt64> = []
        for section in file.relocationSections where section.isDynamic {
            for entry in section.entries { places.insert((image.loadBias &+ entry.offset) & ~7) }
        }
        for section in file.sections where section.name == ".dynamic" || section.name == ".got.plt" {
            var offset: UInt64 = 0
            while offset < section.size, offset < 1 << 24 {
                places.insert((image.loadBias &+ section.address &+ offset) & ~7)
                offset += 8
            }
        }
        for section in file.sections where section.type == 19 && section.size > 0 {
            guard let packed = packedRelativePlaces(section, file: image.file) else { return [] }
            for place in packed { places.insert((image.loadBias &+ place) & ~7) }
        }
        return places
    }

    /// The places of a SHT_RELR section: an even word is a place; an odd word a bitmap of the 63
    /// words after the last place. Nil when the section cannot be read.
    private static func packedRelativePlaces(_ section: ImageSection, file: FileBytes) -> [UInt64]? {
        guard let bytes = try? file.bytes(at: section.offset, count: Int(min(section.size, 1 << 28)), what: "packed relocations") else {
            return nil
        }
        var places: [UInt64] = []
        var next: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
            offset += 8
            if word & 1 == 0 {
                places.append(word)
                next = word &+ 8
            } else {
                var bits = word >> 1
                var place = next
                while bits != 0 {
                    if bits & 1 != 0 { places.append(place) }
                    bits >>= 1
                    place &+= 8
                }
                next &+= 63 * 8
            }
        }
        return places
    }
}
