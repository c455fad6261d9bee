/// The dynamic section's library references: what a loader would look for, and where.
struct DynamicEntries: Sendable {
    /// DT_NEEDED names, in order.
    var needed: [String] = []
    /// DT_RUNPATH (or, without one, DT_RPATH) split at `:`.
    var searchPaths: [String] = []
}

extension ELFFile {
    /// The largest number of `.dynamic` entries read; real images have a few dozen.
    static let maximumDynamicEntries: UInt64 = 1 << 16

    /// Reads DT_NEEDED, DT_RUNPATH and DT_RPATH from the SHT_DYNAMIC section, bounds-checked.
    func dynamicEntries(in bytes: FileBytes) throws(BinaryInfoError) -> DynamicEntries {
        var result = DynamicEntries()
        guard let dynamic = sections.first(where: \.isDynamic), dynamic.hasFileBytes, dynamic.size >= 16 else { return result }
        guard let strings = sections.first(where: { $0.index == Int(dynamic.link) }), strings.hasFileBytes else {
            throw BinaryInfoError.malformedELF(path: path, detail: ".dynamic names string table #\(dynamic.link), which holds no bytes")
        }
        let count = min(dynamic.size / 16, Self.maximumDynamicEntries)
        var runPath: String?
        var rPath: String?
        for index in 0..<count {
            var entry: (tag: Int64, value: UInt64) = (0, 0)
            try withUnsafeMutableBytes(of: &entry) { buffer throws(BinaryInfoError) in
                try bytes.fetch(into: buffer, fromOffset: dynamic.offset + index * 16, what: ".dynamic entry #\(index)")
            }
            let tag = Int64(littleEndian: entry.tag)
            if tag == 0 { break }  // DT_NULL
            guard tag == 1 || tag == 15 || tag == 29 else { continue }  // DT_NEEDED, DT_RPATH, DT_RUNPATH
            let offset = UInt64(littleEndian: entry.value)
            guard offset < strings.size, let text = bytes.cString(atOffset: strings.offset + offset, limit: strings.size - offset) else {
                throw BinaryInfoError.outOfBounds(path: path, what: ".dynamic string (entry #\(index))", address: offset, length: 1)
            }
            switch tag {
            case 1: result.needed.append(text)
            case 15: rPath = text
            default: runPath = text
            }
        }
        result.searchPaths = (runPath ?? rPath).map { $0.split(separator: ":").map(String.init) } ?? []
        return result
    }
}
