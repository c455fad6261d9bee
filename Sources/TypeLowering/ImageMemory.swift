import Algorithms
import BinaryInfo
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The worker's copies of a reading's images: each file's allocated sections copied into
/// anonymous, non-executable memory at their virtual addresses, and the dynamic relocations
/// applied with symbols resolved across the images, as a loader would (but nothing runs).
///
/// The first image (the file read) is laid out at once. A dependency gets its address range
/// reserved and its reflection sections copied (the library reads those through the pointers it
/// is given); its tables are read on the first read that reaches into it, and each of its
/// sections is copied, with the relocations whose place it holds applied (imports resolved then),
/// on the first read that reaches that section: a one-type question lays out what its types
/// reach. Reflection sections hold relative offsets only, never a dynamic relocation, so the
/// library sees the same bytes either way.
///
/// The reflection library reads these copies through ``bytes(at:count:)``, which refuses any
/// range outside them, so a corrupt pointer in a file makes a failed read, not a wild one.
final class ImageMemory {
    struct MappedImage {
        let image: LoadableImage
        let base: UnsafeMutableRawPointer
        let size: Int

        var range: Range<UInt> { UInt(bitPattern: base)..<UInt(bitPattern: base) + UInt(size) }
    }

    private(set) var images: [MappedImage] = []
    /// How each dependency is laid out, section by section; nil for the file (laid out at once).
    private var dependencyLayouts: [DependencyLayout?] = []
    /// Room for synthetic metadata records (``syntheticMetadata(kind:descriptor:)``).
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
    private var scratchUsed = 0
    /// Bytes reserved per synthetic record: kind, descriptor, and zeroed words the reader may look at.
    static let syntheticRecordSize = 64
    /// A value the library is asked to read (``probe``): enum bit patterns, for the tag's spare bits.
    private let probeArea = UnsafeMutableRawBufferPointer.allocate(byteCount: ImageMemory.probeCapacity, alignment: 16)
    /// The largest value ``probe`` holds.
    static let probeCapacity = 256
    /// Swift symbols the laid-out images import that no image defines, for one note.
    private(set) var unresolvedSymbols: Set<String> = []

    /// Allocated sections the reflection library never reaches (it follows pointers into type
    /// metadata, descriptors, reflection records and strings; symbols it asks for through a
    /// callback): left uncopied, their pages cost no memory. The worker's RSS is the reading's peak.
    static let unreadSections: Set<String> = [
        ".eh_frame", ".eh_frame_hdr", ".gcc_except_table", ".rela.dyn", ".rela.plt", ".relr.dyn",
        ".dynsym", ".dynstr", ".gnu.hash", ".hash", ".gnu.version", ".gnu.version_r", ".gnu.version_d",
        ".note.gnu.build-id", ".note.gnu.property", ".note.ABI-tag", ".interp",
    ]

    /// Reserves, copies and relocates `images` (the first is the file being read; the rest, its
    /// dependencies, laid out when first read).
    init(images loadable: [LoadableImage]) throws(TypeLoweringError) {
        for (index, image) in loadable.enumerated() {
            let size = Int(max(image.addressLimit, 1))
            let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            guard let mapped, mapped != MAP_FAILED else {
                throw .imageUnusable(path: image.path, reason: "cannot reserve \(size) bytes: \(String(cString: strerror(errno)))")
            }
            images.append(MappedImage(image: image, base: mapped, size: size))
            dependencyLayouts.append(index == 0 ? nil : DependencyLayout(image.placedSections))
            do {
                if index == 0 {
                    try image.copyContents(into: mapped, capacity: UInt64(size), excluding: Self.unreadSections)
                } else {
                    try image.copyContents(into: mapped, capacity: UInt64(size)) { $0.hasPrefix("swift5_") }
                }
            } catch {
                throw .imageUnusable(path: image.path, reason: error.problem)
            }
        }
        if let file = images.first { apply(file.image.relocations, in: file) }
    }

    /// Addresses of the symbols the library asked for (``symbolAddress(_:)``).
    private var resolved: [String: UInt64] = [:]
    /// Names no image defines.
    private var missing: Set<String> = []
    /// Addresses of the Swift symbols relocations import, found among the images' exported
    /// symbols in load order (first definer wins); nil for one none exports.
    private var imports: [String: UInt64?] = [:]

    /// A dependency's sections, laid out one by one as reads reach them.
    private final class DependencyLayout {
        let sections: [LoadableImage.PlacedSection]
        var laidOut: [Bool]
        /// Relocations by the section holding their place (the last: places in no section), once
        /// the image's tables are read.
        var relocations: [[LoadableImage.Relocation]]?
        /// Its tables or a section could not be read: the image stays unreadable.
        var unusable = false

        init(_ sections: [LoadableImage.PlacedSection]) {
            self.sections = sections
            laidOut = Array(repeating: false, count: sections.count)
        }

        /// The index of the first section ending after `offset`.
        func firstSection(endingAfter offset: UInt64) -> Int {
            sections.partitioningIndex { $0.address &+ $0.size > offset }
        }

        /// The section holding `place`, or `sections.count` for none.
        func section(holding place: UInt64) -> Int {
            let index = firstSection(endingAfter: place)
            return index < sections.count && sections[index].address <= place ? index : sections.count
        }
    }

    /// Lays out the sections of image `index` that `start..<end` (image addresses) reaches: each
    /// section's bytes copied and the relocations whose place it holds applied, once. The first
    /// time, the image's tables are read. False when the image is unreadable.
    private func layOut(_ index: Int, from start: UInt64, to end: UInt64) -> Bool {
        guard let layout = dependencyLayouts[index] else { return true }
        guard !layout.unusable else { return false }
        let mapped = images[index]
        if layout.relocations == nil {
            // Reading the relocations reads the deferred tables: an image whose tables cannot be
            // read stays unreadable (its types unknown), as if it had been left out.
            let all = mapped.image.relocations
            guard mapped.image.tableProblem == nil else {
                layout.unusable = true
                return false
            }
            var buckets = [[LoadableImage.Relocation]](repeating: [], count: layout.sections.count + 1)
            for relocation in all { buckets[layout.section(holding: Self.place(of: relocation))].append(relocation) }
            layout.relocations = buckets
            apply(buckets[layout.sections.count], in: mapped)
        }
        var position = layout.firstSection(endingAfter: start)
        while position < layout.sections.count, layout.sections[position].address < end {
            if !layout.laidOut[position] {
                layout.laidOut[position] = true
                let section = layout.sections[position]
                // Sections the library never reads stay zero, as in the file's own layout.
                if !Self.unreadSections.contains(section.name),
                    (try? mapped.image.copySection(section, into: mapped.base, capacity: UInt64(mapped.size))) == nil
                {
                    layout.unusable = true
                    return false
                }
                apply(layout.relocations?[position] ?? [], in: mapped)
            }
            position += 1
        }
        return true
    }

    private static func place(of relocation: LoadableImage.Relocation) -> UInt64 {
        switch relocation {
        case .relative(let place, _), .defined(let place, _), .imported(let place, _, _): return place
        }
    }

    /// The address of an imported Swift symbol: the first image exporting it. Reflection records
    /// reach other images only through Swift symbols (descriptors, metadata, witness tables); C
    /// imports (`stdout`, `malloc`) are never followed.
    private func importAddress(_ symbol: String) -> UInt64? {
        if let known = imports[symbol] { return known }
        var found: UInt64?
        if symbol.hasPrefix("$s") {
            let name = ExportedSymbolName(symbol)
            for other in images {
                if let address = other.image.address(ofExportedSymbol: name) {
                    found = UInt64(UInt(bitPattern: other.base)) &+ address
                    break
                }
            }
        }
        imports[symbol] = found
        return found
    }

    deinit {
        for image in images { munmap(image.base, image.size) }
        scratch.deallocate()
        probeArea.deallocate()
    }

    /// The address of a value the library may read, holding `bytes` (at most ``probeCapacity``);
    /// nil when it does not fit. The next call overwrites it.
    func probe(_ bytes: [UInt8]) -> UInt64? {
        guard let base = probeArea.baseAddress, bytes.count <= probeArea.count else { return nil }
        probeArea.initializeMemory(as: UInt8.self, repeating: 0)
        bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(base), byteCount: $0.count) }
        return UInt64(UInt(bitPattern: base))
    }

    /// A minimal metadata record (`kind`, the descriptor pointer at `descriptorOffset`, zeros
    /// elsewhere) for a type known only by its descriptor: the library cannot look private types
    /// (`…LL` names) up by name, but builds their typeref from metadata that points at the
    /// descriptor. A value type's record holds the descriptor at 8; a class's (kind 0, no
    /// superclass) at 40 (`TargetClassMetadata` without Objective-C interop). Nil when out of room.
    func syntheticMetadata(kind: UInt64, descriptor: UInt64, descriptorOffset: Int = 8) -> UInt64? {
        guard descriptorOffset >= 8, descriptorOffset + 8 <= Self.syntheticRecordSize else { return nil }
        guard let base = scratch.baseAddress, scratchUsed + Self.syntheticRecordSize <= scratch.count else { return nil }
        let record = base + scratchUsed
        record.initializeMemory(as: UInt8.self, repeating: 0, count: Self.syntheticRecordSize)
        record.storeBytes(of: kind, as: UInt64.self)
        record.storeBytes(of: descriptor, toByteOffset: descriptorOffset, as: UInt64.self)
        scratchUsed += Self.syntheticRecordSize
        return UInt64(UInt(bitPattern: record))
    }

    private func apply(_ relocations: [LoadableImage.Relocation], in mapped: MappedImage) {
        let base = UInt64(UInt(bitPattern: mapped.base))
        for relocation in relocations {
            switch relocation {
            case .relative(let place, let addend):
                store(base &+ addend, at: place, in: mapped)
            case .defined(let place, let address):
                store(base &+ address, at: place, in: mapped)
            case .imported(let place, let symbol, let addend):
                if let address = importAddress(symbol) {
                    store(address &+ UInt64(bitPattern: addend), at: place, in: mapped)
                } else {
                    unresolvedSymbols.insert(symbol)
                }
            }
        }
    }

    private func store(_ value: UInt64, at place: UInt64, in mapped: MappedImage) {
        let (end, overflow) = place.addingReportingOverflow(8)
        guard !overflow, end <= UInt64(mapped.size) else { return }
        (mapped.base + Int(place)).storeBytes(of: value, as: UInt64.self)
    }

    /// The address of `name` in the first image that defines it (the loader's search order).
    func symbolAddress(_ name: String) -> UInt64? {
        if let known = resolved[name] ?? imports[name] ?? nil { return known }
        // The library asks for some names many times (`_swift_debug_…` variables): remember misses.
        if missing.contains(name) { return nil }
        defer { if resolved[name] == nil { missing.insert(name) } }
        for mapped in images {
            if let address = mapped.image.address(ofSymbol: name) {
                let local = UInt64(UInt(bitPattern: mapped.base)) &+ address
                resolved[name] = local
                return local
            }
        }
        return nil
    }

    /// `count` bytes at `address` if they lie wholly inside one image's copy, else nil.
    func bytes(at address: UInt64, count: UInt64) -> UnsafeRawPointer? {
        if let base = probeArea.baseAddress, address >= UInt64(UInt(bitPattern: base)) {
            let offset = address - UInt64(UInt(bitPattern: base))
            if offset < UInt64(probeArea.count) {
                return count <= UInt64(probeArea.count) - offset ? UnsafeRawPointer(base + Int(offset)) : nil
            }
        }
        if let base = scratch.baseAddress, address >= UInt64(UInt(bitPattern: base)) {
            let offset = address - UInt64(UInt(bitPattern: base))
            if offset < UInt64(scratchUsed) {
                return count <= UInt64(scratchUsed) - offset ? UnsafeRawPointer(base + Int(offset)) : nil
            }
        }
        guard let (index, image) = image(containing: address) else { return nil }
        let offset = UInt64(UInt(address) - image.range.lowerBound)
        guard count <= UInt64(image.size) - offset, layOut(index, from: offset, to: offset + count) else { return nil }
        return UnsafeRawPointer(image.base + Int(offset))
    }

    /// The length of the NUL-terminated string at `address`, or 0 if it runs off its image.
    func stringLength(at address: UInt64) -> UInt64 {
        guard let (index, image) = image(containing: address) else { return 0 }
        let start = Int(UInt(address) - image.range.lowerBound)
        // Laid out a page at a time as the scan goes, so a string never reads a section not laid out.
        var position = start
        while position < image.size {
            let limit = min(image.size, (position / Self.scanStep + 1) * Self.scanStep)
            guard layOut(index, from: UInt64(position), to: UInt64(limit)) else { return 0 }
            let chunk = UnsafeRawBufferPointer(start: image.base + position, count: limit - position)
            if let end = chunk.firstIndex(of: 0) { return UInt64(position + end - start) }
            position = limit
        }
        return 0
    }

    /// How far a string scan lays out ahead.
    static let scanStep = 4096

    /// The image whose copy holds `address`, with its index; nil when none holds it.
    private func image(containing address: UInt64) -> (Int, MappedImage)? {
        guard address <= UInt64(UInt.max) else { return nil }
        let local = UInt(address)
        guard let index = images.firstIndex(where: { $0.range.contains(local) }) else { return nil }
        return (index, images[index])
    }
}
