// libdwarf 20210528 frees memory twice when a unit header in .debug_rnglists is malformed
// (found by Tools/fuzz-dwarfinfo), and the process aborts. It reads those headers as soon as the
// first unit is opened, whatever the caller asks for. So before libdwarf sees a file, the unit
// headers of .debug_rnglists and .debug_loclists (the same layout, DWARF 5 sections 7.28 and
// 7.29) are checked here: lengths within the section, version 5, a sane address size, no
// segment selector, an offset table that fits.
// Nothing else is parsed; compressed sections are left to libdwarf.

import BinaryInfo

extension DWARFReader {
    /// Reads little- or big-endian unsigned integers out of a byte array, bounds-checked.
    private struct Fields {
        let bytes: [UInt8]
        let littleEndian: Bool

        func value(at offset: Int, width: Int) -> UInt64? {
            guard offset >= 0, width <= 8, offset <= bytes.count - width else { return nil }
            var result: UInt64 = 0
            for index in 0..<width {
                let byte = UInt64(bytes[offset + (littleEndian ? width - 1 - index : index)])
                result = result << 8 | byte
            }
            return result
        }
    }

    /// Throws ``DWARFReaderError/malformedDebugInfo(path:offset:detail:)`` when a
    /// .debug_rnglists or .debug_loclists unit header is malformed; returns quietly when the
    /// sections are absent, compressed, or the section table cannot be read (libdwarf then
    /// reports that itself).
    static func checkListSections(_ file: ELFFileWindow, path: String, is64Bit: Bool, isLittleEndian: Bool) throws(DWARFReaderError) {
        guard let header = file.bytes(at: 0, count: is64Bit ? 64 : 52) else { return }
        let fields = Fields(bytes: header, littleEndian: isLittleEndian)
        guard let tableOffset = fields.value(at: is64Bit ? 0x28 : 0x20, width: is64Bit ? 8 : 4),
            let entrySize = fields.value(at: is64Bit ? 0x3A : 0x2E, width: 2),
            var count = fields.value(at: is64Bit ? 0x3C : 0x30, width: 2),
            var namesIndex = fields.value(at: is64Bit ? 0x3E : 0x32, width: 2),
            tableOffset != 0, entrySize >= (is64Bit ? 64 : 40)
        else { return }
        // Extended numbering: the real count and string-table index live in section 0.
        if count == 0 || namesIndex == 0xFFFF {
            guard let first = file.bytes(at: tableOffset, count: entrySize) else { return }
            let zero = Fields(bytes: first, littleEndian: isLittleEndian)
            if count == 0 { count = zero.value(at: is64Bit ? 0x20 : 0x14, width: is64Bit ? 8 : 4) ?? 0 }
            if namesIndex == 0xFFFF { namesIndex = zero.value(at: is64Bit ? 0x28 : 0x18, width: 4) ?? 0 }
        }
        guard count > 0, count <= 1_000_000, namesIndex < count else { return }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: entrySize)
        guard !overflow, let table = file.bytes(at: tableOffset, count: tableSize) else { return }
        let sections = Fields(bytes: table, littleEndian: isLittleEndian)

        func section(_ index: UInt64) -> (name: UInt64, type: UInt64, flags: UInt64, offset: UInt64, size: UInt64)? {
            guard let base = Int(exactly: index * entrySize) else { return nil }
            guard let name = sections.value(at: base, width: 4),
                let type = sections.value(at: base + 4, width: 4),
                let flags = sections.value(at: base + 8, width: is64Bit ? 8 : 4),
                let offset = sections.value(at: base + (is64Bit ? 0x18 : 0x10), width: is64Bit ? 8 : 4),
                let size = sections.value(at: base + (is64Bit ? 0x20 : 0x14), width: is64Bit ? 8 : 4)
            else { return nil }
            return (name, type, flags, offset, size)
        }
        guard let names = section(namesIndex), names.size <= 1 << 26,
            let nameBytes = file.bytes(at: names.offset, count: names.size)
        else { return }

        for index in 0..<count {
            guard let entry = section(index), let nameStart = Int(exactly: entry.name), nameStart < nameBytes.count else { continue }
            let name = String(decoding: nameBytes[nameStart...].prefix { $0 != 0 }, as: UTF8.self)
            guard name == ".debug_rnglists" || name == ".debug_loclists" else { continue }
            // A NOBITS section has no bytes; compressed sections are libdwarf's to inflate.
            let header = ImageSection(
                index: Int(index), name: name, type: UInt32(truncatingIfNeeded: entry.type), flags: entry.flags, address: 0,
                offset: entry.offset, size: entry.size, link: 0, info: 0)
            guard header.hasFileBytes, !header.isCompressed else { continue }
            guard let contents = file.bytes(at: entry.offset, count: entry.size) else {
                throw .malformedDebugInfo(path: path, offset: nil, detail: "\(name) lies outside the file")
            }
            if let problem = listHeaderProblem(Fields(bytes: contents, littleEndian: isLittleEndian)) {
                throw .malformedDebugInfo(path: path, offset: nil, detail: "\(name): \(problem)")
            }
        }
    }

    /// The first problem with the unit headers of a list section, or nil when they are sound.
    private static func listHeaderProblem(_ section: Fields) -> String? {
        var position = 0
        let size = section.bytes.count
        while position < size {
            guard let length32 = section.value(at: position, width: 4) else {
                return "a unit header is cut short at offset \(position)"
            }
            var length = length32
            var lengthField = 4
            var offsetSize: UInt64 = 4
            if length32 == 0xFFFF_FFFF {
                guard let length64 = section.value(at: position + 4, width: 8) else {
                    return "a 64-bit unit length is cut short at offset \(position)"
                }
                length = length64
                lengthField = 12
                offsetSize = 8
            } else if length32 >= 0xFFFF_FFF0 {
                return "reserved unit length 0x\(String(length32, radix: 16)) at offset \(position)"
            }
            let start = position + lengthField
            guard length >= 8, length <= UInt64(size - start) else {
                return "the unit at offset \(position) claims \(length) bytes; \(size - start) remain"
            }
            guard section.value(at: start, width: 2) == 5 else {
                return "the unit at offset \(position) has version \(section.value(at: start, width: 2) ?? 0), not 5"
            }
            guard let addressSize = section.value(at: start + 2, width: 1), [2, 4, 8].contains(addressSize) else {
                return "the unit at offset \(position) has address size \(section.value(at: start + 2, width: 1) ?? 0)"
            }
            guard section.value(at: start + 3, width: 1) == 0 else {
                return "the unit at offset \(position) has a segment selector"
            }
            guard let entries = section.value(at: start + 4, width: 4), entries <= (length - 8) / offsetSize else {
                return "the unit at offset \(position) has an offset table longer than the unit"
            }
            position = start + Int(length)
        }
        return nil
    }
}
