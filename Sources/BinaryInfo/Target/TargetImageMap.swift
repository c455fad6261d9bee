/// The images a target had loaded, each already matched to its file: what a reader that has
/// opened the target (``TargetMemory``) hands to another process reading the same target (the
/// `typeinfo-lowering` worker), so that the target's memory map is read and its images matched
/// by build id once, in one process.
///
/// Its text form is one line per fact (addresses in lowercase hex, a path always last on its
/// line, so that it may hold spaces):
///
///     image 0x<load> 0x<bias> 0x<low> 0x<high> <build id or -> <mapped path>
///     file <path of the matched file>
///     mapping 0x<start> 0x<end> 0x<file offset>     (each mapping of the file, any number)
///     section <name> 0x<start> 0x<end>              (each `swift5_*` section, any number)
///     executable 0x<load>                           (the image holding the entry point)
///
/// Decoding checks every value (``init(lines:)``): a map that passed is one a ``TargetMemory``
/// can be built on without further checks of its shape.
public struct TargetImageMap: Sendable, Equatable {
    /// One image, as ``TargetImage`` states it.
    public struct Image: Sendable, Equatable {
        /// The path the target mapped the image from.
        public var mappedPath: String
        /// The file whose build id matched (possibly a `/proc/PID/map_files` handle or a copy
        /// under an image search directory).
        public var filePath: String
        public var loadAddress: UInt64
        public var loadBias: UInt64
        public var addressRange: Range<UInt64>
        /// The build id the target holds; nil when the image has none.
        public var buildID: BuildID?
        /// The `swift5_*` sections, by name, at target addresses.
        public var sections: [String: Range<UInt64>]
        /// The target's mappings of the file.
        public var mappings: [Mapping]
    }

    /// One mapping of an image's file: its target addresses and the file offset of the first.
    public struct Mapping: Sendable, Equatable {
        public var range: Range<UInt64>
        public var fileOffset: UInt64
    }

    /// The images, by increasing load address.
    public var images: [Image]
    /// The load address of the program's image, when known.
    public var executable: UInt64?

    /// The keywords of the map's lines: a message that embeds a map passes these lines on.
    public static let keywords: Set<String> = ["image", "file", "mapping", "section", "executable"]

    /// The most images, mappings of one image and sections of one image a map may hold: far
    /// above any real process (a few hundred images of about five mappings each).
    static let maximumImages = 1 << 16
    static let maximumMappings = 1 << 12
    static let maximumSections = 64
    /// The longest path (`PATH_MAX`) and build id (the linker writes 20 bytes, at most 64 here).
    static let maximumPath = 4096
    static let maximumBuildID = 64

    /// The map's lines, in the form ``init(lines:)`` reads.
    public var lines: [String] {
        var lines: [String] = []
        for image in images {
            lines.append(
                "image \(Self.hex(image.loadAddress)) \(Self.hex(image.loadBias)) \(Self.hex(image.addressRange.lowerBound)) "
                    + "\(Self.hex(image.addressRange.upperBound)) \(image.buildID?.description ?? "-") \(image.mappedPath)")
            lines.append("file " + image.filePath)
            for mapping in image.mappings {
                lines.append(
                    "mapping \(Self.hex(mapping.range.lowerBound)) \(Self.hex(mapping.range.upperBound)) \(Self.hex(mapping.fileOffset))")
            }
            for (name, range) in image.sections.sorted(by: { $0.key < $1.key }) {
                lines.append("section \(name) \(Self.hex(range.lowerBound)) \(Self.hex(range.upperBound))")
            }
        }
        if let executable { lines.append("executable " + Self.hex(executable)) }
        return lines
    }

    public init(images: [Image], executable: UInt64?) {
        self.images = images
        self.executable = executable
    }

    /// Reads a map from its lines (each one of ``keywords``), checking every value: addresses
    /// in order and inside their image, no range that wraps, absolute paths of at most
    /// `PATH_MAX` bytes, build ids of hex digits, counts within bounds, images in increasing
    /// load address, and an executable that is one of the images.
    ///
    /// - Throws: ``MalformedLine`` naming the line and what is wrong with it.
    public init(lines: some Sequence<some StringProtocol>) throws(MalformedLine) {
        images = []
        executable = nil
        var imageLine = 0
        var executableLine = 0
        for (index, line) in lines.enumerated() {
            let number = index + 1
            func malformed(_ detail: String) -> MalformedLine {
                MalformedLine(line: number, detail: detail, text: String(line.prefix(120)))
            }
            let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            let keyword = fields[0]
            let rest = fields.count == 2 ? fields[1] : ""
            switch keyword {
            case "image":
                let parts = rest.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
                guard parts.count == 6, let load = Self.address(parts[0]), let bias = Self.address(parts[1]),
                    let low = Self.address(parts[2]), let high = Self.address(parts[3]), low < high, (low..<high).contains(load)
                else { throw malformed("not 'image 0xload 0xbias 0xlow 0xhigh build-id path' with low <= load < high") }
                let increasing = images.last.map { $0.loadAddress < load } ?? true
                guard images.count < Self.maximumImages, increasing else {
                    throw malformed("more than \(Self.maximumImages) images, or not in increasing load address")
                }
                if let last = images.last, last.filePath.isEmpty { throw malformed("the image before has no 'file' line") }
                let buildID: BuildID?
                if parts[4] == "-" {
                    buildID = nil
                } else {
                    guard let bytes = Self.hexBytes(parts[4]) else {
                        throw malformed("the build id is not 1 to \(Self.maximumBuildID) bytes of hex")
                    }
                    buildID = BuildID(bytes)
                }
                guard Self.isPath(parts[5]) else {
                    throw malformed("the mapped path is not an absolute path of at most \(Self.maximumPath) bytes")
                }
                imageLine = number
                images.append(
                    Image(
                        mappedPath: String(parts[5]), filePath: "", loadAddress: load, loadBias: bias, addressRange: low..<high,
                        buildID: buildID, sections: [:], mappings: []))
            case "file":
                guard let last = images.indices.last, images[last].filePath.isEmpty else {
                    throw malformed("no image without a file before")
                }
                guard Self.isPath(rest) else { throw malformed("not an absolute path of at most \(Self.maximumPath) bytes") }
                images[last].filePath = String(rest)
            case "mapping":
                let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
                guard let last = images.indices.last, !images[last].filePath.isEmpty else {
                    throw malformed("no image with its file before")
                }
                guard parts.count == 3, let start = Self.address(parts[0]), let end = Self.address(parts[1]),
                    let offset = Self.address(parts[2]), start < end, images[last].addressRange.lowerBound <= start,
                    end <= images[last].addressRange.upperBound, !offset.addingReportingOverflow(end - start).overflow
                else { throw malformed("not 'mapping 0xstart 0xend 0xoffset' inside its image, the offset not overflowing") }
                guard images[last].mappings.count < Self.maximumMappings else {
                    throw malformed("more than \(Self.maximumMappings) mappings")
                }
                images[last].mappings.append(Mapping(range: start..<end, fileOffset: offset))
            case "section":
                let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
                guard let last = images.indices.last, !images[last].filePath.isEmpty else {
                    throw malformed("no image with its file before")
                }
                guard parts.count == 3, parts[0].hasPrefix("swift5_"), parts[0].utf8.count <= 64, let start = Self.address(parts[1]),
                    let end = Self.address(parts[2]), start <= end, images[last].sections[String(parts[0])] == nil
                else { throw malformed("not 'section swift5_name 0xstart 0xend', given once") }
                guard images[last].sections.count < Self.maximumSections else {
                    throw malformed("more than \(Self.maximumSections) sections")
                }
                images[last].sections[String(parts[0])] = start..<end
            case "executable":
                guard executable == nil, let load = Self.address(rest) else { throw malformed("not one 'executable 0xload'") }
                executable = load
                executableLine = number
            default:
                throw malformed("not a line of an image map")
            }
        }
        if let last = images.last, last.filePath.isEmpty {
            throw MalformedLine(line: imageLine, detail: "the image has no 'file' line", text: last.mappedPath)
        }
        if let executable, !images.contains(where: { $0.loadAddress == executable }) {
            throw MalformedLine(line: executableLine, detail: "no image is loaded there", text: Self.hex(executable))
        }
    }

    /// A line of an image map that does not state what its keyword says, or breaks a bound.
    public struct MalformedLine: Error, Sendable, Equatable, CustomStringConvertible {
        /// The line's number, from 1.
        public var line: Int
        /// What is wrong with it.
        public var detail: String
        /// The line (its first 120 characters).
        public var text: String

        public var description: String { "image map line \(line): \(detail): \(text)" }
    }

    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// The value of `0x…` (lowercase or uppercase hex, at most 16 digits), or nil.
    static func address(_ text: some StringProtocol) -> UInt64? {
        guard text.hasPrefix("0x"), text.utf8.count > 2, text.utf8.count <= 18 else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }

    /// The bytes of an even number of hex digits (1 to ``maximumBuildID`` bytes), or nil.
    static func hexBytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= maximumBuildID * 2 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    static func isPath(_ text: some StringProtocol) -> Bool {
        text.hasPrefix("/") && text.utf8.count <= maximumPath && !text.contains("\n") && !text.contains("\0")
    }
}
