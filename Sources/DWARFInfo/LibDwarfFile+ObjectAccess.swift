import BinaryInfo
import CLibDwarf

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// libdwarf's object-access interface (`dwarf_object_init_b`) over a file's shared bytes: the
// section table comes from BinaryInfo (libelf), and each section libdwarf loads is a pointer
// into the bytes BinaryInfo mapped, so the file is not opened or copied again.
// Only linked images whose debug sections are plain, in-bounds bytes are read this way; for
// relocatable objects (relocations and COMDAT groups), compressed or NOBITS debug sections and
// files libelf's reader does not take (32-bit, big-endian), libdwarf opens the file itself, and
// its errors stay as they were.

/// The sections libdwarf sees, with the C structures its interface needs, alive as long as the
/// session that reads them.
final class DWARFSectionTable {
    private let file: ImageFile
    private let entries: [(section: ImageSection?, name: UnsafeMutablePointer<CChar>?)]
    private let isLittleEndian: Bool
    private let pointerSize: UInt8
    private let methods: UnsafeMutablePointer<Dwarf_Obj_Access_Methods>
    /// What `dwarf_object_init_b` takes; libdwarf keeps the pointer until `dwarf_object_finish`.
    let interface: UnsafeMutablePointer<Dwarf_Obj_Access_Interface>

    /// The table for `file`, or nil when libdwarf should open the file itself (see above).
    init?(file: ImageFile) {
        guard let headers = try? file.sectionHeaders(), !headers.isRelocatable else { return nil }
        for section in headers.sections {
            let isDebug = section.name.hasPrefix(".debug") || section.name.hasPrefix(".zdebug")
            if section.isGroup { return nil }
            if isDebug,
                !section.hasFileBytes || section.isCompressed
                    || section.name.hasPrefix(".zdebug")
            {
                return nil
            }
        }
        // libdwarf asks by header index; indices of inactive headers answer with an empty section.
        let count = (headers.sections.map(\.index).max() ?? 0) + 1
        guard count < Int(UInt16.max) else { return nil }
        // libdwarf compares every name, so an empty header has an empty name, not none.
        var entries: [(section: ImageSection?, name: UnsafeMutablePointer<CChar>?)] = (0..<count).map { _ in (nil, strdup("")) }
        for section in headers.sections where section.index >= 0 && section.index < count {
            free(entries[section.index].name)
            entries[section.index] = (section, strdup(section.name))
        }
        self.file = file
        self.entries = entries
        let header = file.withUnsafeBytes { Array($0.prefix(6)) }
        isLittleEndian = header.count < 6 || header[5] != 2
        pointerSize = header.count >= 5 && header[4] == 1 ? 4 : 8
        methods = .allocate(capacity: 1)
        methods.initialize(
            to: Dwarf_Obj_Access_Methods(
                get_section_info: { object, index, section, error in
                    guard let object, let section else { return DW_DLV_ERROR }
                    return DWARFSectionTable.table(object).sectionInfo(index: Int(index), into: section)
                },
                get_byte_order: { object in
                    guard let object else { return DW_OBJECT_LSB }
                    return DWARFSectionTable.table(object).isLittleEndian ? DW_OBJECT_LSB : DW_OBJECT_MSB
                },
                get_length_size: { object in
                    guard let object else { return 4 }
                    return DWARFSectionTable.table(object).pointerSize
                },
                get_pointer_size: { object in
                    guard let object else { return 8 }
                    return DWARFSectionTable.table(object).pointerSize
                },
                get_section_count: { object in
                    guard let object else { return 0 }
                    return Dwarf_Unsigned(DWARFSectionTable.table(object).entries.count)
                },
                load_section: { object, index, data, error in
                    guard let object, let data else { return DW_DLV_ERROR }
                    return DWARFSectionTable.table(object).load(index: Int(index), into: data)
                },
                relocate_a_section: nil
            ))
        interface = .allocate(capacity: 1)
        interface.initialize(to: Dwarf_Obj_Access_Interface(object: nil, methods: methods))
        interface.pointee.object = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        for entry in entries { free(entry.name) }
        methods.deallocate()
        interface.deallocate()
    }

    private static func table(_ object: UnsafeMutableRawPointer) -> DWARFSectionTable {
        Unmanaged<DWARFSectionTable>.fromOpaque(object).takeUnretainedValue()
    }

    private func sectionInfo(index: Int, into result: UnsafeMutablePointer<Dwarf_Obj_Access_Section>) -> Int32 {
        guard index >= 0, index < entries.count else { return DW_DLV_NO_ENTRY }
        let (section, name) = entries[index]
        result.pointee = Dwarf_Obj_Access_Section(
            addr: section?.address ?? 0, type: Dwarf_Unsigned(section?.type ?? 0), size: section?.size ?? 0,
            name: UnsafePointer(name), link: Dwarf_Unsigned(section?.link ?? 0), info: Dwarf_Unsigned(section?.info ?? 0),
            entrysize: 0)
        return DW_DLV_OK
    }

    /// Points `data` at the section's bytes inside the shared file (BinaryInfo checked that they
    /// lie inside it, and `init` left out sections without bytes).
    private func load(index: Int, into data: UnsafeMutablePointer<UnsafeMutablePointer<Dwarf_Small>?>) -> Int32 {
        guard index >= 0, index < entries.count, let section = entries[index].section else { return DW_DLV_NO_ENTRY }
        guard section.hasFileBytes, let offset = Int(exactly: section.offset), let size = Int(exactly: section.size)
        else {
            return DW_DLV_ERROR
        }
        // The bytes stay where they are for as long as `file` lives, and this table keeps it.
        return file.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, offset <= bytes.count, size <= bytes.count - offset else { return DW_DLV_ERROR }
            // libdwarf does not write to sections it did not relocate, and none is relocated here.
            data.pointee = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Dwarf_Small.self))
            return DW_DLV_OK
        }
    }
}
