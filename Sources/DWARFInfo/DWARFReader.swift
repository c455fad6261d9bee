import Algorithms
import BinaryInfo
import SystemPackage
import TypeLayout

/// Reads type layouts from the DWARF debug information of an ELF file (executable, shared
/// library or relocatable object), through libdwarf.
///
/// ```swift
/// let layouts = try DWARFReader(path: "libfoo.so").typeLayouts()
/// ```
///
/// C and C++ structs, classes, unions and enums come out as the compiler laid them out
/// (DWARF is the first witness for them). Swift types appear when the binary was built with
/// `swiftc -g -Xfrontend -gdwarf-types`; their member offsets are the compiler's synthesis for
/// debuggers and can differ from the real layout, so compare them with the metadata through
/// `LayoutWitnessComparison` (TypeLayout) rather than trusting them.
///
/// The reader never executes the file. Reading is eager: `init` checks the file, and
/// ``typeLayouts()`` reads the debug information.
public struct DWARFReader: Sendable {
    /// The path the reader was opened with.
    public let path: String
    /// Whether the file stores multi-byte values little-endian (from the ELF header).
    public let isLittleEndian: Bool
    /// Whether the file is a 64-bit ELF file (from the ELF header).
    public let is64Bit: Bool
    /// The ELF machine (`e_machine`) as the JSON schema spells it (`x86_64`, `aarch64`), or
    /// `nil` for another machine.
    public let architecture: String?

    /// The file's bytes, read once: libdwarf reads the debug sections from them.
    let file: ImageFile
    /// The reading's shortcuts (all on by default); each can be turned off to compare the output.
    public var shortcuts = DWARFReadingShortcuts()

    /// The most type-describing entries read from one file.
    public static let entryLimit = 20_000_000

    /// Makes readings faster for the rest of a process that reads and then exits, such as the
    /// `typeinfo` command: libdwarf stops keeping a record of every allocation it hands out.
    ///
    /// The record costs about a tenth of a whole reading's instructions. Its one use here is to
    /// free, when a reading ends, the few bytes libdwarf 20210528 leaks when it fails on a
    /// corrupt file (docs/dwarf.md); a process that exits returns them anyway. A long-running
    /// process that reads many files should keep the record, which is the default.
    ///
    /// - Returns: whether the record is now off: false once any reading has begun in this
    ///   process (the record must not change while libdwarf holds allocations).
    @discardableResult
    public static func forgoAllocationRecord() -> Bool { LibDwarfFile.forgoAllocationRecord() }

    /// Checks that `path` names a readable ELF file, and maps it.
    ///
    /// - Parameter path: an ELF executable, shared library or object file.
    /// - Throws: ``DWARFReaderError`` when the file is missing, not a regular file,
    ///   unreadable, not ELF or shorter than its ELF header.
    public init(path: String) throws(DWARFReaderError) {
        let status: Stat
        do {
            status = try FilePath(path).stat()
        } catch {
            if error == .noSuchFileOrDirectory || error == .notDirectory { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, reason: error.description)
        }
        guard status.type == .regular else { throw .notARegularFile(path: path) }
        let file: ImageFile
        do {
            file = try ImageFile(path: path)
        } catch {
            switch error {
            case .fileNotFound: throw .fileNotFound(path: path)
            case .isDirectory: throw .notARegularFile(path: path)
            default: throw .unreadable(path: path, reason: error.problem)
            }
        }
        try self.init(file: file)
    }

    /// Checks that a file another reader already read (BinaryInfo's ``BinaryInfo/ImageFile``)
    /// is an ELF file; the debug information is then read from the same bytes, without opening
    /// the file again.
    ///
    /// - Parameter file: the file, read once.
    /// - Throws: ``DWARFReaderError`` when the file is not ELF or shorter than its ELF header.
    public init(file: ImageFile) throws(DWARFReaderError) {
        self.path = file.path
        self.file = file
        let header = try Self.readIdentification(ELFFileWindow(file: file), path: file.path)
        is64Bit = header.is64Bit
        isLittleEndian = header.isLittleEndian
        architecture = header.architecture
    }

    /// Reads the layouts of every complete, named type the debug information describes.
    ///
    /// Declarations (`DW_AT_declaration`), incomplete types and anonymous types without a
    /// typedef are left out; a type described identically by several compilation units
    /// appears once; types with the same name but different layouts all appear.
    ///
    /// - Returns: the layouts in file order, each with `source` `.dwarf`.
    /// - Throws: ``DWARFReaderError/noDebugInfo(path:)`` when the file carries no DWARF,
    ///   ``DWARFReaderError/malformedDebugInfo(path:offset:detail:)`` when libdwarf rejects it.
    public func typeLayouts() throws(DWARFReaderError) -> [TypeLayout] {
        try typeLayouts(languages: .all)
    }

    /// Reads the layouts of the types declared in the given source languages.
    ///
    /// `typeLayouts(languages: .cFamily)` gives the C and C++ types that a Swift tool adds to
    /// what the Swift metadata says; `.swift` gives the Swift types to compare with the metadata.
    ///
    /// Units of other languages are not read past their root, unless a unit that is read refers
    /// into one of them (then every unit is read, so that the result is the same either way).
    ///
    /// - Parameter languages: which units' (or, for Swift, which types') languages to include.
    /// - Returns: the layouts in file order, each with `source` `.dwarf`.
    /// - Throws: as ``typeLayouts()``.
    public func typeLayouts(languages: DWARFLanguages) throws(DWARFReaderError) -> [TypeLayout] {
        if let lists = try layoutsUnitByUnit([languages]), let layouts = lists.first { return layouts }
        return try debugInfoTree(languages: languages).typeLayouts(languages: languages)
    }

    /// Reads the file once and returns its C and C++ layouts apart from its Swift layouts:
    /// the first for listing (DWARF is their only witness), the second for
    /// `LayoutWitnessComparison.compare(metadata:dwarf:)`.
    ///
    /// - Returns: both lists, each in file order.
    /// - Throws: as ``typeLayouts()``.
    public func typeLayoutsByLanguage() throws(DWARFReaderError) -> (cFamily: [TypeLayout], swift: [TypeLayout]) {
        if let lists = try layoutsUnitByUnit([.cFamily, .swift]), lists.count == 2 { return (lists[0], lists[1]) }
        let tree = try debugInfoTree(languages: .all)
        return (tree.typeLayouts(languages: .cFamily), tree.typeLayouts(languages: .swift))
    }

    /// Reads the layouts into a document whose image summary says what was read.
    ///
    /// - Parameter languages: as in ``typeLayouts(languages:)``.
    /// - Returns: a document with `hasDebugInfo` true and the file's architecture.
    /// - Throws: as ``typeLayouts()``.
    public func layoutDocument(languages: DWARFLanguages = .all) throws(DWARFReaderError) -> LayoutDocument {
        let types = try typeLayouts(languages: languages)
        let image = ImageSummary(path: path, architecture: architecture, hasDebugInfo: true)
        return LayoutDocument(image: image, types: types)
    }

    /// Reads the entries of the units of `languages` (every unit's root, whatever its language);
    /// with `swiftUnits`, of the Swift units whose top-level names hold one of its types only.
    func debugInfoTree(languages: DWARFLanguages = .all, swiftUnits: SwiftUnitKeys? = nil) throws(DWARFReaderError) -> DebugInfoTree {
        try Self.checkListSections(ELFFileWindow(file: file), path: path, is64Bit: is64Bit, isLittleEndian: isLittleEndian)
        let file = try LibDwarfFile(file: file, sharedBytes: shortcuts.readsSharedBytes)
        var entries: [DebugEntry] = []
        var signatures: [UInt64: DebugOffset] = [:]
        var skipped: [Range<UInt64>] = []
        try file.readEntries(
            limit: Self.entryLimit, group: 0, languages: languages, swiftUnits: swiftUnits, into: &entries, signatures: &signatures,
            skipped: &skipped)
        // Relocatable objects keep each type unit in a COMDAT group of its own.
        for group in file.comdatDebugGroups() {
            let groupFile: LibDwarfFile
            do {
                groupFile = try LibDwarfFile(file: self.file, group: group)
            } catch .noDebugInfo {
                continue
            }
            try groupFile.readEntries(
                limit: Self.entryLimit, group: group, languages: languages, into: &entries, signatures: &signatures, skipped: &skipped)
        }
        LibDwarfFile.resolveSignatures(in: &entries, using: signatures)
        // A unit that was read may describe a member by a type in a skipped unit (DW_FORM_ref_addr,
        // as after LTO): read everything, so that no fact depends on what was skipped.
        if !skipped.isEmpty, Self.refersInto(skipped, from: entries) {
            return try debugInfoTree(languages: .all)
        }
        return tree(of: entries)
    }

    /// Whether an entry refers (by type, specification or type unit) into one of the `skipped`
    /// offset ranges, which do not overlap.
    private static func refersInto(_ unsorted: [Range<UInt64>], from entries: [DebugEntry]) -> Bool {
        // Sections and groups are tagged in the high bits, so the passes' ranges interleave.
        let skipped = unsorted.sorted { $0.lowerBound < $1.lowerBound }
        func isSkipped(_ offset: DebugOffset?) -> Bool {
            guard let raw = offset?.rawValue else { return false }
            let low = skipped.partitioningIndex { $0.upperBound > raw }
            return low < skipped.count && skipped[low].contains(raw)
        }
        return entries.contains { isSkipped($0.type) || isSkipped($0.specification) || isSkipped($0.definition) }
    }

    /// Reads and checks the ELF identification bytes and the header length.
    private static func readIdentification(
        _ window: ELFFileWindow, path: String
    ) throws(DWARFReaderError) -> (is64Bit: Bool, isLittleEndian: Bool, architecture: String?) {
        let bytes = window.prefix(at: 0, upTo: 64)
        let filled = bytes.count
        guard filled >= 4, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
            throw .notELF(path: path)
        }
        guard filled >= 16 else { throw .truncated(path: path, detail: "\(filled) bytes, shorter than the ELF identification") }
        let is64Bit: Bool
        switch bytes[4] {
        case 1: is64Bit = false
        case 2: is64Bit = true
        default: throw .notELF(path: path)
        }
        let isLittleEndian: Bool
        switch bytes[5] {
        case 1: isLittleEndian = true
        case 2: isLittleEndian = false
        default: throw .notELF(path: path)
        }
        let headerSize = is64Bit ? 64 : 52
        guard filled >= headerSize else {
            throw .truncated(path: path, detail: "\(filled) bytes, shorter than the \(headerSize)-byte ELF header")
        }
        let machine = isLittleEndian ? UInt16(bytes[18]) | UInt16(bytes[19]) << 8 : UInt16(bytes[18]) << 8 | UInt16(bytes[19])
        return (is64Bit, isLittleEndian, ELFMachine.architectureName(of: machine, isLittleEndian: isLittleEndian))
    }
}
