import Algorithms

/// One mapping of a process's address space, as `/proc/PID/maps` lists it.
public struct MemoryMapping: Sendable, Hashable {
    /// The first address.
    public var start: UInt64
    /// The address just past the mapping.
    public var end: UInt64
    public var isReadable: Bool
    public var isWritable: Bool
    public var isExecutable: Bool
    /// Shared (`s`) rather than private copy-on-write (`p`).
    public var isShared: Bool
    /// The offset in the mapped file that `start` maps (0 for anonymous memory).
    public var fileOffset: UInt64
    /// The inode of the mapped file (0 for anonymous memory).
    public var inode: UInt64
    /// The mapped file's path, or a pseudo-name (`[heap]`, `[stack]`, `[anon:…]`); empty for anonymous memory.
    public var name: String

    /// Whether a file on disk backs the mapping (its name is a path, and it has an inode).
    public var isFileBacked: Bool { inode != 0 && name.hasPrefix("/") }
}

/// A process's mappings, sorted by address (the kernel lists them so).
public struct MemoryMap: Sendable {
    public let mappings: [MemoryMapping]

    /// A map of the given mappings (sorted by address).
    init(mappings: [MemoryMapping]) {
        self.mappings = mappings
    }

    /// Reads `/proc/PID/maps`.
    ///
    /// - Throws: ``BinaryInfoError/noSuchProcess(path:)`` when the process does not exist,
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)`` when its maps may not be read.
    public init(processID: Int32) throws(BinaryInfoError) {
        let target = "process \(processID)"
        let bytes: FileBytes
        do {
            bytes = try ImageLoader.readFile("/proc/\(processID)/maps")
        } catch .fileNotFound {
            throw BinaryInfoError.noSuchProcess(path: target)
        } catch {
            throw BinaryInfoError.processAccessDenied(path: target, reason: ProcessAccess.denialReason(processID: processID))
        }
        try self.init(parsing: bytes.text, path: target)
    }

    /// Parses the text of a `maps` file; `path` names it in errors.
    ///
    /// - Throws: ``BinaryInfoError/malformedRecord(path:what:address:detail:)`` naming the line
    ///   (its number as the address) when a line is not `start-end perms offset dev inode [name]`.
    public init(parsing text: String, path: String) throws(BinaryInfoError) {
        var mappings: [MemoryMapping] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let mapping = Self.mapping(line) else {
                throw BinaryInfoError.malformedRecord(
                    path: path, what: "maps line", address: UInt64(number + 1),
                    detail: "not 'start-end perms offset dev inode [name]': \(line.prefix(120))")
            }
            mappings.append(mapping)
        }
        self.mappings = mappings
    }

    /// The mapping that holds `address`, if any.
    public func mapping(containing address: UInt64) -> MemoryMapping? {
        let index = mappings.partitioningIndex { $0.end > address }
        guard index < mappings.count, mappings[index].start <= address else { return nil }
        return mappings[index]
    }

    private static func mapping(_ line: Substring) -> MemoryMapping? {
        // The name is everything after the fifth field, and may contain spaces.
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        let range = fields[0].split(separator: "-")
        let permissions = Array(fields[1].utf8)
        guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16), start <= end,
            permissions.count == 4, let offset = UInt64(fields[2], radix: 16), let inode = UInt64(fields[4])
        else { return nil }
        let name = fields.count == 6 ? String(fields[5].drop { $0 == " " }) : ""
        return MemoryMapping(
            start: start, end: end, isReadable: permissions[0] == UInt8(ascii: "r"), isWritable: permissions[1] == UInt8(ascii: "w"),
            isExecutable: permissions[2] == UInt8(ascii: "x"), isShared: permissions[3] == UInt8(ascii: "s"), fileOffset: offset,
            inode: inode, name: name)
    }
}
