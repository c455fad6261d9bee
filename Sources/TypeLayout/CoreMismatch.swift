/// A place where a core file's memory differs from the image file it was mapped from, where the
/// two must be equal: a stretch of the process's memory that no running process changes (code,
/// read-only data, and the words of its relocated read-only data that no relocation writes).
///
/// A core with such a place was edited or damaged after it was dumped (two segments' bytes
/// exchanged, a stretch overwritten), or the process had changed memory that it does not change
/// by itself (a debugger's breakpoints in its code); what is read from that core may be wrong.
public struct CoreMismatch: Sendable, Hashable {
    /// The image's path, as the process mapped it.
    public var image: String
    /// Where the core segment holding the place starts.
    public var segment: UInt64
    /// The first differing byte's address (of the pages compared).
    public var address: UInt64
    /// The image file's offset for that byte.
    public var fileOffset: UInt64
    /// Whether the place is relocated read-only data (`PT_GNU_RELRO`), compared only where no
    /// relocation writes.
    public var isRelocatedReadOnly: Bool

    public init(image: String, segment: UInt64, address: UInt64, fileOffset: UInt64, isRelocatedReadOnly: Bool) {
        self.image = image
        self.segment = segment
        self.address = address
        self.fileOffset = fileOffset
        self.isRelocatedReadOnly = isRelocatedReadOnly
    }

    /// One line for people.
    public var text: String {
        let kind = isRelocatedReadOnly ? "relocated read-only data, where no relocation writes" : "read-only memory"
        return
            "the core's bytes at 0x\(String(address, radix: 16)) (segment 0x\(String(segment, radix: 16)), \(kind)) differ from \(image) at file offset 0x\(String(fileOffset, radix: 16)): the core was edited or damaged since it was dumped, or the process had changed that memory (a debugger's breakpoints); what is read from it may be wrong"
    }
}

extension CoreMismatch: Codable {
    private enum CodingKeys: String, CodingKey { case image, segment, address, fileOffset, relocatedReadOnly }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func address(_ key: CodingKeys) throws -> UInt64 {
            let text = try container.decode(String.self, forKey: key)
            guard text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a 0x address: \(text)")
            }
            return value
        }
        self.init(
            image: try container.decode(String.self, forKey: .image), segment: try address(.segment), address: try address(.address),
            fileOffset: try container.decode(UInt64.self, forKey: .fileOffset),
            isRelocatedReadOnly: try container.decode(Bool.self, forKey: .relocatedReadOnly))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(image, forKey: .image)
        try container.encode("0x" + String(segment, radix: 16), forKey: .segment)
        try container.encode("0x" + String(address, radix: 16), forKey: .address)
        try container.encode(fileOffset, forKey: .fileOffset)
        try container.encode(isRelocatedReadOnly, forKey: .relocatedReadOnly)
    }
}
