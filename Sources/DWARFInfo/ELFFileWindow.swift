import BinaryInfo

/// Bounds-checked copies out of a file's shared bytes: what the DWARF reader reads itself (the
/// ELF header, the list-section headers) before libdwarf sees the file.
struct ELFFileWindow {
    let file: ImageFile

    /// The file's size.
    var size: UInt64 { UInt64(file.count) }

    /// The `count` bytes at `offset`, or nil when they do not all lie inside the file.
    func bytes(at offset: UInt64, count: UInt64) -> [UInt8]? {
        let (end, overflow) = offset.addingReportingOverflow(count)
        guard !overflow, end <= size, count <= 1 << 30, let start = Int(exactly: offset), let length = Int(exactly: count) else {
            return nil
        }
        return file.withUnsafeBytes { Array($0[start..<start + length]) }
    }

    /// Up to `count` bytes starting at `offset`: fewer only at the end of the file.
    func prefix(at offset: UInt64, upTo count: Int) -> [UInt8] {
        guard offset < size, let start = Int(exactly: offset) else { return [] }
        return file.withUnsafeBytes { Array($0[start..<start + min(count, $0.count - start)]) }
    }
}
