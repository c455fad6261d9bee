import BinaryInfo
import CLibDwarf
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// With LibDwarfFile+ObjectAccess.swift (the object interface) and LibDwarfFile+UnitNames.swift
// (the first pass over a unit's top-level names), the only file in DWARFInfo that calls libdwarf. Everything libdwarf hands out (DIEs,
// attributes, errors, location lists) is released here before the call returns; what leaves
// this file is plain Swift values (`DebugEntry`).

/// One open libdwarf session over one file.
///
/// Not `Sendable`: libdwarf's `Dwarf_Debug` must not be used from two threads at once. A
/// `DWARFReader` creates, uses and finishes one session inside a single call.
final class LibDwarfFile {
    /// The session; internal only for the extensions that wrap other libdwarf interfaces.
    let debug: Dwarf_Debug
    private let path: String
    /// Serializes the opening of sessions: libdwarf's ELF reader keeps process-wide state
    /// (shim.h). Holds whether a session was ever opened (``forgoAllocationRecord()``).
    private static let initLock = Mutex(false)
    /// The sections libdwarf reads from the shared bytes, or nil when libdwarf opened the file.
    private let sectionTable: DWARFSectionTable?

    /// Turns off, for the rest of the process, libdwarf's record of every allocation it hands
    /// out, if no session was opened yet (an allocation made with the record on and released
    /// with it off would be freed twice at `dwarf_finish`).
    ///
    /// The record (a search tree updated on each DIE and attribute made and released) lets
    /// `dwarf_finish` free what a caller forgot; this file releases everything it is given before
    /// returning, and the record costs about a tenth of a whole reading's instructions. It also
    /// frees what libdwarf 20210528's own error paths leak on a corrupt file (docs/dwarf.md), so
    /// only a process that reads and exits should do without it.
    /// - Returns: whether the record is now off.
    @discardableResult
    static func forgoAllocationRecord() -> Bool {
        initLock.withLock { opened in
            guard !opened else { return false }
            _ = dwarf_set_de_alloc_flag(0)
            return true
        }
    }

    /// Opens a libdwarf session over `file`: over its shared bytes where libdwarf can read them
    /// from memory (``DWARFSectionTable``), else over its path.
    ///
    /// - Throws: ``DWARFReaderError/noDebugInfo(path:)`` when the file has no DWARF, and
    ///   ``DWARFReaderError/malformedDebugInfo(path:offset:detail:)`` when libdwarf rejects it.
    /// - Parameters:
    ///   - file: the file, read once.
    ///   - group: the section group to read: 0 for the base group (everything not in
    ///     a COMDAT group), or a COMDAT group number from ``comdatDebugGroups()``.
    ///   - sharedBytes: whether to read the shared bytes where libdwarf can.
    init(file: ImageFile, group: UInt64 = 0, sharedBytes: Bool = true) throws(DWARFReaderError) {
        let path = file.path
        self.path = path
        var debug: Dwarf_Debug?
        var error: Dwarf_Error?
        let groupNumber = group == 0 ? UInt32(DW_GROUPNUMBER_ANY) : UInt32(truncatingIfNeeded: group)
        if group == 0, sharedBytes, let table = DWARFSectionTable(file: file) {
            sectionTable = table
            let result = Self.initLock.withLock { opened in
                opened = true
                // See shim.h: a flags reader left behind by a dwarf_init_path session would be
                // handed this table as its own object.
                let flagsReader = typeinfo_exchange_dwarf_elf_flags_reader(nil)
                defer { _ = typeinfo_exchange_dwarf_elf_flags_reader(flagsReader) }
                return dwarf_object_init_b(table.interface, nil, nil, groupNumber, &debug, &error)
            }
            self.debug = try Self.session(result, debug, error, path: path)
            return
        }
        sectionTable = nil
        // A nil error handler plus a non-nil error pointer makes libdwarf return errors instead
        // of aborting the process. A nil true-path buffer turns off GNU debuglink following, so
        // only the named file is read.
        let result = Self.initLock.withLock { opened in
            opened = true
            return dwarf_init_path(path, nil, 0, Dwarf_Unsigned(DW_DLC_READ), groupNumber, nil, nil, &debug, nil, 0, nil, &error)
        }
        self.debug = try Self.session(result, debug, error, path: path)
    }

    /// The session an init call opened, or the error it reported.
    private static func session(_ result: Int32, _ debug: Dwarf_Debug?, _ error: Dwarf_Error?, path: String) throws(DWARFReaderError)
        -> Dwarf_Debug
    {
        switch result {
        case DW_DLV_OK:
            guard let debug else {
                throw .malformedDebugInfo(path: path, offset: nil, detail: "libdwarf returned no session")
            }
            return debug
        case DW_DLV_NO_ENTRY:
            throw .noDebugInfo(path: path)
        default:
            let message = Self.consume(error, debug: nil)
            throw .malformedDebugInfo(path: path, offset: nil, detail: message)
        }
    }

    deinit {
        var error: Dwarf_Error?
        if sectionTable != nil {
            _ = dwarf_object_finish(debug, &error)
        } else {
            _ = dwarf_finish(debug, &error)
        }
        if let error { dwarf_dealloc_error(nil, error) }
    }

    /// Returns the message of `error` and releases it.
    private static func consume(_ error: Dwarf_Error?, debug: Dwarf_Debug?) -> String {
        guard let error else { return "unknown libdwarf error" }
        var message = "unknown libdwarf error"
        if let text = dwarf_errmsg(error) {
            message = String(cString: text)
        }
        dwarf_dealloc_error(debug, error)
        return message
    }

    func fail(_ error: Dwarf_Error?, offset: UInt64?) -> DWARFReaderError {
        .malformedDebugInfo(path: path, offset: offset, detail: Self.consume(error, debug: debug))
    }

    /// Reads the type-describing entries of every unit in `.debug_info`, in file order.
    ///
    /// Subtrees that never describe a type layout (function bodies, variables, call sites)
    /// are skipped without being read, which keeps large binaries cheap.
    ///
    /// - Returns: the entries; children are linked by index.
    /// - Parameters:
    ///   - limit: the most entries to accept before giving up.
    ///   - group: the section group this session reads, kept in each offset so that groups
    ///     (whose sections all count from zero) do not collide.
    ///   - languages: the units to read whole: a unit whose `DW_AT_language` is of another
    ///     language keeps only its root entry, and its offset range goes into `skipped`.
    ///   - signatures: type-unit signatures found so far, across groups; resolve references with
    ///     ``resolveSignatures(in:using:)`` once every group is read.
    ///   - skipped: the offset ranges (tagged like ``DebugOffset``) of the units left unread.
    ///   - swiftUnits: the top-level type names a Swift unit of the base group's `.debug_info`
    ///     must hold to be read past its root (nil: every Swift unit is read).
    ///   - unitRead: when given, called after each unit with the entries read so far and the
    ///     unit's offset range (tagged like ``DebugOffset``); it may take the entries away, and
    ///     says what comes next (``UnitReadStep``). When a unit's range cannot be told, the
    ///     reading stops and returns false.
    /// - Returns: whether every unit was read, or `unitRead` stopped the reading because it has
    ///   what it needs.
    @discardableResult
    func readEntries(
        limit: Int, group: UInt64, languages: DWARFLanguages = .all, swiftUnits: SwiftUnitKeys? = nil,
        into entries: inout [DebugEntry], signatures: inout [UInt64: DebugOffset], skipped: inout [Range<UInt64>],
        unitRead: ((inout [DebugEntry], Range<UInt64>) throws(DWARFReaderError) -> UnitReadStep)? = nil
    ) throws(DWARFReaderError) -> Bool {
        // Type units (`-fdebug-types-section`): DWARF 5 keeps them in .debug_info, DWARF 4 in
        // .debug_types; other units refer to their types by 8-byte signature.
        for isInfo in [true, false] {
            let scope = UnitScope(
                isInfo: isInfo, group: group, languages: languages, swiftUnits: group == 0 && isInfo ? swiftUnits : nil, limit: limit)
            switch try readUnits(scope, into: &entries, signatures: &signatures, skipped: &skipped, unitRead: unitRead) {
            case .goOn: continue
            case .stop: return true
            case .giveUp: return false
            }
        }
        return true
    }

    /// What a reading does after a unit (``readEntries(limit:group:languages:swiftUnits:into:signatures:skipped:unitRead:)``).
    enum UnitReadStep {
        /// Reads the next unit.
        case goOn
        /// Reads no more units: what was read is all the caller needs.
        case stop
        /// Reads no more units, and reports that not every unit was read.
        case giveUp
    }

    /// What one pass over the units of a section reads.
    private struct UnitScope {
        let isInfo: Bool
        let group: UInt64
        let languages: DWARFLanguages
        let swiftUnits: SwiftUnitKeys?
        let limit: Int
        var section: UInt64 { DebugOffset.tag(group: group, isInfo: isInfo) }

        /// Whether a unit whose root says `language` is read past its root. A unit without
        /// `DW_AT_language` is read (nothing says what it holds).
        func reads(unitLanguage language: UInt64?) -> Bool {
            guard languages != .all, let language else { return true }
            switch SourceLanguage(dwarfLanguage: language) {
            case .swift: return languages.contains(.swift)
            case .cPlusPlus: return languages.contains(.cPlusPlus)
            case .c: return languages.contains(.c)
            // Named like C, and its types may be Swift's (DW_AT_APPLE_runtime_class): read for either.
            case .other: return languages.contains(.c) || languages.contains(.swift)
            }
        }
    }

    /// Points each signature reference at the type unit entry it names.
    static func resolveSignatures(in entries: inout [DebugEntry], using signatures: [UInt64: DebugOffset]) {
        for index in entries.indices {
            if let signature = entries[index].typeSignature {
                entries[index].type = signatures[signature]
            }
            if let signature = entries[index].definitionSignature {
                entries[index].definition = signatures[signature]
            }
        }
    }

    /// The COMDAT section groups (3 and up) that hold DWARF units: in a relocatable object each
    /// type unit sits in a group of its own, which a session of the base group does not see.
    func comdatDebugGroups() -> [UInt64] {
        var sectionCount: Dwarf_Unsigned = 0
        var groupCount: Dwarf_Unsigned = 0
        var selected: Dwarf_Unsigned = 0
        var mapCount: Dwarf_Unsigned = 0
        guard succeeds({ dwarf_sec_group_sizes(debug, &sectionCount, &groupCount, &selected, &mapCount, &$0) }) else { return [] }
        // The map has one entry per grouped section: a sane object has far fewer than this.
        guard mapCount > 0, mapCount <= 1_000_000 else { return [] }
        var groups = [Dwarf_Unsigned](repeating: 0, count: Int(mapCount))
        var sections = [Dwarf_Unsigned](repeating: 0, count: Int(mapCount))
        var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(mapCount))
        guard succeeds({ dwarf_sec_group_map(debug, mapCount, &groups, &sections, &names, &$0) }) else { return [] }
        var result = Set<UInt64>()
        for (group, name) in zip(groups, names) where group >= 3 && group < DebugOffset.maximumGroup {
            guard let name else { continue }
            let text = String(cString: name)
            if text.hasPrefix(".debug_info") || text.hasPrefix(".debug_types") { result.insert(group) }
        }
        return result.sorted()
    }

    private func readUnits(
        _ scope: UnitScope, into entries: inout [DebugEntry], signatures: inout [UInt64: DebugOffset], skipped: inout [Range<UInt64>],
        unitRead: ((inout [DebugEntry], Range<UInt64>) throws(DWARFReaderError) -> UnitReadStep)?
    ) throws(DWARFReaderError) -> UnitReadStep {
        let isInfo = scope.isInfo
        let section = scope.section
        var unitOffset: UInt64 = 0
        while true {
            var next: Dwarf_Unsigned = 0
            var unitType: Dwarf_Half = 0
            var signature = Dwarf_Sig8()
            var typeOffset: Dwarf_Unsigned = 0
            var error: Dwarf_Error?
            var version: Dwarf_Half = 0
            let result = dwarf_next_cu_header_d(
                debug, isInfo ? 1 : 0, nil, &version, nil, nil, nil, nil, &signature, &typeOffset, &next, &unitType, &error
            )
            if result == DW_DLV_NO_ENTRY { break }
            guard result == DW_DLV_OK else { throw fail(error, offset: unitOffset) }
            if typeOffset != 0 {
                let (target, overflow) = unitOffset.addingReportingOverflow(typeOffset)
                if !overflow { signatures[Self.integer(signature)] = DebugOffset(rawValue: target | section) }
            }
            var root: Dwarf_Die?
            let rootResult = dwarf_siblingof_b(debug, nil, isInfo ? 1 : 0, &root, &error)
            if rootResult == DW_DLV_NO_ENTRY { unitOffset = next; continue }
            guard rootResult == DW_DLV_OK, let root else { throw fail(error, offset: unitOffset) }
            let rootIndex = entries.count
            let whole = try walk(unit: root, scope, into: &entries)
            if rootIndex < entries.count { entries[rootIndex].unitVersion = version }
            if !whole, unitOffset < next, next < DebugOffset.maximumSectionOffset {
                skipped.append((unitOffset | section)..<(next | section))
            }
            if let unitRead {
                guard unitOffset < next, next < DebugOffset.maximumSectionOffset else { return .giveUp }
                let step = try unitRead(&entries, (unitOffset | section)..<(next | section))
                guard step == .goOn else { return step }
            }
            guard next > unitOffset else { break }
            unitOffset = next
        }
        return .goOn
    }

    /// The eight signature bytes as one number (their order only has to be consistent).
    private static func integer(_ signature: Dwarf_Sig8) -> UInt64 {
        withUnsafeBytes(of: signature) { bytes in
            bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    /// Walks one unit depth first, without recursion (the nesting depth comes from the file).
    ///
    /// - Returns: false when the unit's language is not wanted and only its root was read.
    private func walk(unit root: Dwarf_Die, _ scope: UnitScope, into entries: inout [DebugEntry]) throws(DWARFReaderError) -> Bool {
        let isInfo = scope.isInfo
        let section = scope.section
        let limit = scope.limit
        let rootIndex = entries.count
        // Each stack item is a DIE we own and the index of its parent entry.
        var stack: [(die: Dwarf_Die, parent: Int?)] = [(root, nil)]
        defer { for item in stack { dwarf_dealloc_die(item.die) } }
        while let (die, parent) = stack.popLast() {
            defer { dwarf_dealloc_die(die) }
            var error: Dwarf_Error?
            var tag: Dwarf_Half = 0
            var offset: Dwarf_Off = 0
            guard dwarf_tag(die, &tag, &error) == DW_DLV_OK else { throw fail(error, offset: nil) }
            guard dwarf_dieoffset(die, &offset, &error) == DW_DLV_OK else { throw fail(error, offset: nil) }

            // The next sibling is pushed first so that the child subtree is read before it. A
            // unit's root has none worth finding: without DW_AT_sibling, libdwarf would walk the
            // whole unit to reach the end of it.
            if parent != nil {
                var sibling: Dwarf_Die?
                let siblingResult = dwarf_siblingof_b(debug, die, isInfo ? 1 : 0, &sibling, &error)
                if siblingResult == DW_DLV_ERROR { throw fail(error, offset: offset) }
                if siblingResult == DW_DLV_OK, let sibling { stack.append((sibling, parent)) }
            }

            let parentTag = parent.map { entries[$0].tag }
            guard DebugTag.isRecorded(tag, parentTag: parentTag) else { continue }
            guard entries.count < limit else { throw .tooManyEntries(path: path, limit: limit) }

            var entry = DebugEntry(offset: DebugOffset(rawValue: offset | section), tag: tag, parent: parent, unitRoot: rootIndex)
            try readAttributes(of: die, section: section, into: &entry)
            let index = entries.count
            entries.append(entry)
            if let parent { entries[parent].children.append(index) }

            guard DebugTag.hasRecordedChildren(tag) else { continue }
            if parent == nil {
                guard scope.reads(unitLanguage: entry.language) else { return false }
                if let keys = scope.swiftUnits, SourceLanguage(dwarfLanguage: entry.language) == .swift,
                    try !holdsTopLevelType(keys, in: die, unitOffset: offset)
                {
                    return false
                }
            }
            var child: Dwarf_Die?
            let childResult = dwarf_child(die, &child, &error)
            if childResult == DW_DLV_ERROR { throw fail(error, offset: offset) }
            if childResult == DW_DLV_OK, let child { stack.append((child, index)) }
        }
        return true
    }

    private func readAttributes(of die: Dwarf_Die, section: UInt64, into entry: inout DebugEntry) throws(DWARFReaderError) {
        var list: UnsafeMutablePointer<Dwarf_Attribute?>?
        var count: Dwarf_Signed = 0
        var error: Dwarf_Error?
        let result = dwarf_attrlist(die, &list, &count, &error)
        if result == DW_DLV_NO_ENTRY { return }
        guard result == DW_DLV_OK, let list else { throw fail(error, offset: entry.offset.rawValue) }
        defer { dwarf_dealloc(debug, UnsafeMutableRawPointer(list), Dwarf_Unsigned(DW_DLA_LIST)) }
        for index in 0..<Int(max(count, 0)) {
            guard let attribute = list[index] else { continue }
            defer { dwarf_dealloc_attribute(attribute) }
            var code: Dwarf_Half = 0
            guard dwarf_whatattr(attribute, &code, &error) == DW_DLV_OK else {
                _ = Self.consume(error, debug: debug)
                continue
            }
            switch Int32(code) {
            case DW_AT_name: entry.name = string(attribute)
            case DW_AT_producer: entry.isClangUnit = names(attribute, "clang")
            case DW_AT_linkage_name, DW_AT_MIPS_linkage_name: entry.linkageName = string(attribute)
            case DW_AT_byte_size: entry.byteSize = unsigned(attribute)
            case DW_AT_bit_size: entry.bitSize = unsigned(attribute)
            case DW_AT_data_bit_offset: entry.dataBitOffset = unsigned(attribute)
            case DW_AT_bit_offset: entry.legacyBitOffset = unsigned(attribute)
            case DW_AT_count: entry.count = unsigned(attribute)
            case DW_AT_alignment: entry.alignment = unsigned(attribute)
            case DW_AT_language: entry.language = unsigned(attribute)
            case DW_AT_encoding: entry.encoding = unsigned(attribute)
            case DW_AT_APPLE_runtime_class: entry.runtimeClass = unsigned(attribute)
            case DW_AT_upper_bound: entry.upperBound = signed(attribute)
            case DW_AT_type:
                if let signature = signatureReference(attribute) {
                    entry.typeSignature = signature
                } else {
                    entry.type = reference(attribute, section: section)
                }
            case DW_AT_specification: entry.specification = reference(attribute, section: section)
            case DW_AT_signature: entry.definitionSignature = signatureReference(attribute)
            case DW_AT_declaration: entry.isDeclaration = flag(attribute)
            case DW_AT_data_member_location:
                entry.dataMemberLocation = memberLocation(attribute)
                entry.hasUnreadableMemberLocation = entry.dataMemberLocation == nil
            default: break
            }
        }
    }

    /// Calls a libdwarf function that reports failure through its error argument, and releases
    /// that error: the one way a reader that turns a failure into "unknown" lets it go.
    /// - Returns: whether the call returned `DW_DLV_OK`.
    func succeeds(_ call: (inout Dwarf_Error?) -> Int32) -> Bool {
        var error: Dwarf_Error?
        let result = call(&error)
        if let error { dwarf_dealloc_error(debug, error) }
        return result == DW_DLV_OK
    }

    // Each reader returns nil when the attribute's form does not carry the expected kind of
    // value: the layout then says "unknown".

    private func string(_ attribute: Dwarf_Attribute) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard succeeds({ dwarf_formstring(attribute, &text, &$0) }), let text else { return nil }
        return String(cString: text)
    }

    /// Whether the string attribute holds `word`, searched in libdwarf's bytes (a `String`'s
    /// `contains` goes through the generic string-processing search, 26,000 instructions a call).
    private func names(_ attribute: Dwarf_Attribute, _ word: String) -> Bool {
        var text: UnsafeMutablePointer<CChar>?
        guard succeeds({ dwarf_formstring(attribute, &text, &$0) }), let text else { return false }
        return strstr(text, word) != nil
    }

    private func unsigned(_ attribute: Dwarf_Attribute) -> UInt64? {
        var value: Dwarf_Unsigned = 0
        if succeeds({ dwarf_formudata(attribute, &value, &$0) }) { return value }
        // DW_FORM_implicit_const (DWARF 5, GCC puts bit sizes there) is a signed constant kept
        // in the abbreviation; libdwarf reads it only as signed.
        var signedValue: Dwarf_Signed = 0
        guard succeeds({ dwarf_formsdata(attribute, &signedValue, &$0) }) else { return nil }
        return UInt64(exactly: signedValue)
    }

    private func signed(_ attribute: Dwarf_Attribute) -> Int64? {
        var form: Dwarf_Half = 0
        if succeeds({ dwarf_whatform(attribute, &form, &$0) }), Int32(form) == DW_FORM_sdata || Int32(form) == DW_FORM_implicit_const {
            var value: Dwarf_Signed = 0
            if succeeds({ dwarf_formsdata(attribute, &value, &$0) }) { return value }
        }
        guard let value = unsigned(attribute) else { return nil }
        return Int64(exactly: value)
    }

    /// A reference within the section being read (`section` marks .debug_types offsets).
    private func reference(_ attribute: Dwarf_Attribute, section: UInt64) -> DebugOffset? {
        var offset: Dwarf_Off = 0
        guard succeeds({ dwarf_global_formref(attribute, &offset, &$0) }) else { return nil }
        guard offset < DebugOffset.maximumSectionOffset else { return nil }
        return DebugOffset(rawValue: offset | section)
    }

    /// The type signature of a `DW_FORM_ref_sig8` reference, or nil for any other form.
    private func signatureReference(_ attribute: Dwarf_Attribute) -> UInt64? {
        var form: Dwarf_Half = 0
        guard succeeds({ dwarf_whatform(attribute, &form, &$0) }), Int32(form) == DW_FORM_ref_sig8 else { return nil }
        var signature = Dwarf_Sig8()
        guard succeeds({ dwarf_formsig8(attribute, &signature, &$0) }) else { return nil }
        return Self.integer(signature)
    }

    private func flag(_ attribute: Dwarf_Attribute) -> Bool {
        var value: Dwarf_Bool = 0
        guard succeeds({ dwarf_formflag(attribute, &value, &$0) }) else { return false }
        return value != 0
    }

    /// `DW_AT_data_member_location` is a constant in DWARF 3 and later, and a location
    /// expression (`DW_OP_plus_uconst N`) in DWARF 2 and in some producers' output.
    private func memberLocation(_ attribute: Dwarf_Attribute) -> UInt64? {
        var form: Dwarf_Half = 0
        guard succeeds({ dwarf_whatform(attribute, &form, &$0) }) else { return nil }
        switch Int32(form) {
        case DW_FORM_exprloc, DW_FORM_block, DW_FORM_block1, DW_FORM_block2, DW_FORM_block4:
            return expressionConstant(attribute)
        default:
            return unsigned(attribute)
        }
    }

    /// Decodes a one-operation location expression (`DW_OP_plus_uconst` or `DW_OP_constu`)
    /// with libdwarf's own expression reader.
    private func expressionConstant(_ attribute: Dwarf_Attribute) -> UInt64? {
        var head: Dwarf_Loc_Head_c?
        var listCount: Dwarf_Unsigned = 0
        guard succeeds({ dwarf_get_loclist_c(attribute, &head, &listCount, &$0) }), let head else { return nil }
        defer { dwarf_loc_head_c_dealloc(head) }
        guard listCount == 1 else { return nil }
        var entryKind: Dwarf_Small = 0
        var rawLow: Dwarf_Unsigned = 0
        var rawHigh: Dwarf_Unsigned = 0
        var addressUnavailable: Dwarf_Bool = 0
        var low: Dwarf_Addr = 0
        var high: Dwarf_Addr = 0
        var operationCount: Dwarf_Unsigned = 0
        var description: Dwarf_Locdesc_c?
        var source: Dwarf_Small = 0
        var expressionOffset: Dwarf_Unsigned = 0
        var descriptionOffset: Dwarf_Unsigned = 0
        guard
            succeeds({
                dwarf_get_locdesc_entry_d(
                    head, 0, &entryKind, &rawLow, &rawHigh, &addressUnavailable, &low, &high,
                    &operationCount, &description, &source, &expressionOffset, &descriptionOffset, &$0)
            }), let description, operationCount == 1
        else { return nil }
        var atom: Dwarf_Small = 0
        var operand1: Dwarf_Unsigned = 0
        var operand2: Dwarf_Unsigned = 0
        var operand3: Dwarf_Unsigned = 0
        var branch: Dwarf_Unsigned = 0
        guard succeeds({ dwarf_get_location_op_value_c(description, 0, &atom, &operand1, &operand2, &operand3, &branch, &$0) }) else {
            return nil
        }
        switch Int32(atom) {
        case DW_OP_plus_uconst, DW_OP_constu: return operand1
        default: return nil
        }
    }
}
