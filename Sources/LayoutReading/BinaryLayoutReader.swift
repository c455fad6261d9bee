import BinaryInfo
import DWARFInfo
import TypeLayout
import TypeLowering

/// The one way every command reads a file's type layouts.
///
/// Sources, merged in this order, each fact keeping the sources that state it (`factSources`):
/// 1. the binary's static metadata (BinaryInfo): what the runtime reads;
/// 2. the layouts the toolchain's type lowering computes (TypeLowering): a fact the metadata
///    lacks is taken, a fact both state must agree, else it becomes unknown and a note names both;
/// 3. DWARF (DWARFInfo): the only source of C and C++ types; for Swift types a second witness,
///    compared fact by fact, a disagreement noted with the source the kept value came from.
public enum BinaryLayoutReader {
    /// Reads the file at `path` and keeps the types `selection` matches.
    ///
    /// With a selection, the notes describe the selected types and the file as a whole: notes
    /// about the file stay, notes about other types go, and counts are of the selected types
    /// (``selectionNotes(_:selected:)``).
    ///
    /// - Parameters:
    ///   - path: an ELF executable, shared library or object file.
    ///   - selection: which types to keep (all by default).
    ///   - options: which sources to use, and the runtime libraries and tools they need.
    /// - Returns: the document, the types the selected ones refer to, and warnings.
    /// - Throws: ``LayoutReadingError`` naming the file and what is wrong with it.
    public static func read(path: String, selection: TypeFilter = .all, options: LayoutReadOptions = LayoutReadOptions())
        throws(LayoutReadingError) -> LayoutReadResult
    {
        try read(path: path, selection: selection, options: options, metadataBytes: .file)
    }

    /// Where the static metadata's bytes are read from; the file at the reading's path supplies
    /// the layout, DWARF and the dependencies either way.
    enum MetadataBytes {
        /// The file's own bytes.
        case file
        /// The bytes a target that loaded the file holds (`dump --pid`, `dump CORE`).
        case target(TargetImage, TargetMemory)
    }

    /// ``read(path:selection:options:)`` with the static metadata read from `metadataBytes`.
    static func read(path: String, selection: TypeFilter, options: LayoutReadOptions, metadataBytes: MetadataBytes)
        throws(LayoutReadingError) -> LayoutReadResult
    {
        if !selection.isEmpty, options.selectionReachesReaders {
            return try readSelected(path: path, selection: selection, options: options, metadataBytes: metadataBytes)
        }
        let whole = try readWhole(path: path, options: options, metadataBytes: metadataBytes)
        guard !selection.isEmpty else { return whole.result() }
        return whole.selecting(selection)
    }

    /// Tunes the readers for a process that reads and then exits, such as the `typeinfo`
    /// command; call it before the first reading (``DWARFInfo/DWARFReader/forgoAllocationRecord()``).
    ///
    /// - Returns: whether it took effect (false once a reading has begun).
    @discardableResult
    public static func tuneForShortLivedProcess() -> Bool { DWARFReader.forgoAllocationRecord() }

    /// Every type of the file, all sources merged.
    static func readAll(path: String, options: LayoutReadOptions) throws(LayoutReadingError) -> LayoutReadResult {
        try readWhole(path: path, options: options, metadataBytes: .file).result()
    }

    /// Every type of the file, all sources merged, with DWARF's Swift types kept apart for the
    /// agreement notes.
    private static func readWhole(path: String, options: LayoutReadOptions, metadataBytes: MetadataBytes) throws(LayoutReadingError)
        -> MergedReading
    {
        let file = try imageFile(path)
        var document: LayoutDocument
        do {
            document = try readSwift(path: path, options: options, file: file, metadataBytes: metadataBytes)
        } catch .notSwift {
            // A C program or library: DWARF alone may still describe its types.
            guard options.readsDWARF else { throw .noTypes(path: path) }
            let cTypes: [TypeLayout]
            do {
                var reader = try DWARFReader(file: file)
                reader.shortcuts = options.dwarfShortcuts
                cTypes = try reader.typeLayouts(languages: .cFamily)
            } catch .noDebugInfo {
                throw .noTypes(path: path)
            } catch {
                throw .dwarfUnreadable(path: path, error)
            }
            guard !cTypes.isEmpty else { throw .noTypes(path: path) }
            var summary = ImageSummary(path: path, hasDebugInfo: true)
            summary.notes.append(.typesFromDWARFOnly)
            return MergedReading(document: LayoutDocument(image: summary, types: cTypes))
        } catch {
            throw .unreadable(path: path, error)
        }
        var reading = MergedReading(document: document)
        if options.readsDWARF, document.image.hasDebugInfo != false {
            reading.mergeDWARF(
                file: file, shortcuts: options.dwarfShortcuts, includesCFamily: true, comparingSwift: options.checksSwiftAgainstDWARF)
        }
        return reading
    }

    /// The static metadata's layouts with the computed ones merged in; with `selection`, only the
    /// types it matches and the types they refer to are lowered, and only they are returned.
    static func readSwift(
        path: String, options: LayoutReadOptions, selection: TypeFilter? = nil, file: ImageFile? = nil,
        metadataBytes: MetadataBytes = .file
    ) throws(BinaryInfoError) -> LayoutDocument {
        guard options.computesLayouts else {
            var document = try metadataLayouts(path, file, selection, options, metadataBytes).document
            if let selection { document.types = selectedWithRelated(document.types, selection) }
            return document
        }
        let dependencies = runtimeLibraries(forFileAt: path, options, file: file)
        // The worker lays the images out while the metadata is read (for a whole reading, it also
        // has the library index every image's records then).
        let pending = PendingLowering(
            forFileAt: path, dependencies: dependencies.paths, configuration: loweringConfiguration(options), wholeFile: selection == nil)
        let reading = try metadataLayouts(path, file, selection, options, metadataBytes)
        var document = reading.document
        if let selection { document.types = selectedWithRelated(document.types, selection) }
        guard document.image.fileType != .relocatable else { return document }
        var merged = pending.compute(types: document.types).merged(into: document)
        // The computed layouts know each imported C type by its own record; which of several
        // same-named ones the runtime uses is still unknown.
        BinaryImage.withholdLayouts(ofRuntimeSharedTypes: reading.runtimeSharedTypes, in: &merged.types)
        merged.image.notes += dependencies.notes
        return merged
    }

    /// The types `selection` matches and those they refer to, in file order.
    private static func selectedWithRelated(_ types: [TypeLayout], _ selection: TypeFilter) -> [TypeLayout] {
        let selected = types.filter(selection.matches)
        let wanted = Set((selected + related(to: selected, in: types)).map(\.name))
        return types.filter { wanted.contains($0.name) }
    }

    /// A reading in which the selection reaches the readers: only the selected types (and the
    /// types they refer to) are lowered; DWARF's C and C++ units are read only when a C type can
    /// be selected, and its Swift units only when the notes compare the selected Swift types with
    /// them (``LayoutReadOptions/wantsFileNotes``).
    static func readSelected(path: String, selection: TypeFilter, options: LayoutReadOptions, metadataBytes: MetadataBytes = .file)
        throws(LayoutReadingError) -> LayoutReadResult
    {
        let file = try imageFile(path)
        let document: LayoutDocument
        do {
            document = try readSwift(path: path, options: options, selection: selection, file: file, metadataBytes: metadataBytes)
        } catch .notSwift {
            return try readWhole(path: path, options: options, metadataBytes: metadataBytes).selecting(selection)
        } catch {
            throw .unreadable(path: path, error)
        }
        var reading = MergedReading(document: document)
        if options.readsDWARF, document.image.hasDebugInfo != false {
            let includesCFamily = !selection.excludesCFamilyTypes || needsOtherTypes(document.types, selection)
            let comparingSwift = options.wantsFileNotes && options.checksSwiftAgainstDWARF
            reading.mergeDWARF(
                file: file, shortcuts: options.dwarfShortcuts, includesCFamily: includesCFamily, comparingSwift: comparingSwift,
                selected: document.types.filter(selection.matches))
        }
        return reading.selecting(selection)
    }

    /// Whether a selected type has a field whose alignment neither it nor the types read so far
    /// give: a C type from DWARF may give it, so DWARF is read as in a whole reading.
    private static func needsOtherTypes(_ types: [TypeLayout], _ selection: TypeFilter) -> Bool {
        let alignments = LayoutAlignments(types)
        return types.contains { type in
            selection.matches(type) && type.fields.contains { alignments.alignment(of: $0) == nil }
        }
    }

    /// The static metadata's layouts, from the file already read when there is one; with a
    /// selection, only of the types it matches and the types they need (the rest are named, not laid out).
    private static func metadataLayouts(
        _ path: String, _ file: ImageFile?, _ selection: TypeFilter?, _ options: LayoutReadOptions, _ metadataBytes: MetadataBytes
    ) throws(BinaryInfoError) -> BinaryReading {
        let runtime = runtimeLibrary(options)
        if case .target(let image, let memory) = metadataBytes {
            return try BinaryImage.read(image, in: memory, selecting: selection?.matches, runtimeLibrary: runtime)
        }
        switch (file, selection) {
        case (let file?, let selection?): return try BinaryImage.read(file, selecting: selection.matches, runtimeLibrary: runtime)
        case (let file?, nil): return try BinaryImage.read(file, runtimeLibrary: runtime)
        case (nil, let selection?): return try BinaryImage.read(atPath: path, selecting: selection.matches, runtimeLibrary: runtime)
        case (nil, nil): return try BinaryImage.read(atPath: path, runtimeLibrary: runtime)
        }
    }

    /// The Swift runtime library whose value witness tables the static metadata reader uses: the
    /// `libswiftCore.so` among explicit runtime libraries, else the toolchain directory's.
    static func runtimeLibrary(_ options: LayoutReadOptions) -> String? {
        switch options.runtimeLibraries {
        case .explicit(let paths):
            return paths.first { $0.split(separator: "/").last == "libswiftCore.so" }
        case .resolved(let toolchainDirectory):
            return (toolchainDirectory ?? LoweringConfiguration.toolchainLibraryDirectory).map { $0 + "/libswiftCore.so" }
        }
    }

    /// The file read once, for the metadata and DWARF readers to share.
    private static func imageFile(_ path: String) throws(LayoutReadingError) -> ImageFile {
        do {
            return try ImageFile(path: path)
        } catch {
            throw .unreadable(path: path, error)
        }
    }

    /// The runtime libraries of the file at `path`; from `file`'s own headers when it was read already.
    static func runtimeLibraries(forFileAt path: String, _ options: LayoutReadOptions, file: ImageFile? = nil) -> (
        paths: [String], notes: [LayoutNote]
    ) {
        switch options.runtimeLibraries {
        case .explicit(let paths):
            return (paths, [])
        case .resolved(let toolchainDirectory):
            let directory = toolchainDirectory ?? LoweringConfiguration.toolchainLibraryDirectory
            if let file { return LibraryDependencies.resolve(for: file, toolchainDirectory: directory) }
            return LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: directory)
        }
    }

    static func loweringConfiguration(_ options: LayoutReadOptions) -> LoweringConfiguration {
        .resolved(remoteMirrorPath: options.remoteMirrorPath, workerPath: options.workerPath)
    }

    /// The types `selected` refer to that are not among them: superclasses (transitively) and
    /// field types, by name.
    static func related(to selected: [TypeLayout], in all: [TypeLayout]) -> [TypeLayout] {
        var byName: [String: TypeLayout] = [:]
        for type in all where byName[type.name] == nil { byName[type.name] = type }
        var wanted = Set(selected.map(\.name))
        var result: [TypeLayout] = []
        var queue = selected
        while let type = queue.popLast() {
            var names = type.fields.map(\.type)
            if let superclass = type.superclass { names.append(superclass) }
            for name in names.flatMap(optionalUnwrapped) where !wanted.contains(name) {
                wanted.insert(name)
                guard let found = byName[name] else { continue }
                result.append(found)
                queue.append(found)
            }
        }
        return result
    }

    /// A type name and, for an optional, its wrapped type's (whose alignment an optional has).
    private static func optionalUnwrapped(_ name: String) -> [String] {
        if name.hasSuffix("?") { return [name] + optionalUnwrapped(String(name.dropLast())) }
        for prefix in ["Swift.Optional<", "Optional<"] where name.hasPrefix(prefix) && name.hasSuffix(">") {
            return [name] + optionalUnwrapped(String(name.dropFirst(prefix.count).dropLast()))
        }
        return [name]
    }
}
