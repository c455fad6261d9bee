/// An ELF image (an executable or a shared library) loaded in a target, matched to its file on
/// disk by build id.
///
/// Its layout (section headers: where the Swift reflection sections are) comes from the file;
/// its addresses are where the target loaded it (``loadBias`` plus the file's virtual addresses).
public struct TargetImage: Sendable {
    /// The path the target mapped the image from (`/proc/PID/maps`, the core's `NT_FILE`).
    public let mappedPath: String
    /// The file on disk whose build id equals the loaded image's: ``mappedPath``, or where it was
    /// found instead (`/proc/PID/map_files/…` for a deleted file, an image search directory).
    public let filePath: String
    /// The address of the image's first byte (its ELF header) in the target.
    public let loadAddress: UInt64
    /// What the loader added to the file's virtual addresses.
    public let loadBias: UInt64
    /// From the lowest to past the highest address the target mapped of the file.
    public let addressRange: Range<UInt64>
    /// The build id, as the target holds it (nil when the image has none).
    public let buildID: BuildID?
    /// The Swift reflection and metadata sections (`swift5_*`), by name, at target addresses.
    public let swiftSections: [String: Range<UInt64>]
    /// The target's mappings of the file (address range, file offset): where bytes a core left
    /// out are read from the file.
    let fileMappings: [(range: Range<UInt64>, fileOffset: UInt64)]
    /// The file's bytes (mapped), for the bytes a core left out.
    let file: FileBytes

    /// Whether the image holds Swift types: it has the reflection sections RemoteMirror reads
    /// (`swift5_fieldmd`) or a type list (`swift5_type_metadata`).
    public var isSwift: Bool { swiftSections["swift5_type_metadata"] != nil || swiftSections["swift5_fieldmd"] != nil }

    /// The target address of `name`'s section, if the image has it.
    public func section(_ name: String) -> Range<UInt64>? { swiftSections[name] }
}

/// A file the target had mapped, found in its maps or notes: the mappings of one path that
/// follow the mapping of its offset 0 (its ELF header).
struct MappedImageCandidate {
    var path: String
    var loadAddress: UInt64
    var mappings: [(range: Range<UInt64>, fileOffset: UInt64)]

    /// Groups file mappings (address, end, offset, path; sorted by address) into images: each
    /// mapping of offset 0 starts one, and later mappings of the same path join the last begun.
    static func group(_ mappings: [(start: UInt64, end: UInt64, fileOffset: UInt64, path: String)]) -> [MappedImageCandidate] {
        var images: [MappedImageCandidate] = []
        var latest: [String: Int] = [:]
        for mapping in mappings where mapping.start < mapping.end && mapping.path.hasPrefix("/") {
            let piece = (range: mapping.start..<mapping.end, fileOffset: mapping.fileOffset)
            if mapping.fileOffset == 0 {
                latest[mapping.path] = images.count
                images.append(MappedImageCandidate(path: mapping.path, loadAddress: mapping.start, mappings: [piece]))
            } else if let index = latest[mapping.path] {
                images[index].mappings.append(piece)
            }
        }
        return images
    }
}

extension TargetImage {
    /// Matches `candidate` to its file: the build id the target holds (read through `memory`,
    /// which must not itself depend on the files) against each file in `paths` in turn.
    ///
    /// - Returns: nil when the target's bytes at the load address are not an ELF image (a data
    ///   file mapped from offset 0).
    /// - Throws: ``BinaryInfoError/imageMissing(path:image:buildID:)`` when no file exists,
    ///   ``BinaryInfoError/imageDiffers(path:image:expected:found:foundPath:)`` when files exist
    ///   and none has the build id.
    static func resolve(_ candidate: MappedImageCandidate, in memory: some TargetMemorySource, filePaths paths: [String])
        throws(BinaryInfoError) -> TargetImage?
    {
        let segments: [ImageSegment]
        do {
            segments = try BuildID.programHeaders(from: memory, header: candidate.loadAddress)
        } catch .unmapped {
            // The target does not hold the mapping's first bytes: an image (its file is ELF) whose
            // build id cannot be checked, or a data file, which is no image.
            guard memory.leavesOutFilePages, paths.contains(where: isELF) else { return nil }
            throw BinaryInfoError.imageUnverifiable(path: memory.path, image: candidate.path)
        } catch {
            return nil
        }
        guard let bias = BuildID.loadBias(of: segments, loadedAt: candidate.loadAddress) else { return nil }
        let loaded = try? BuildID.read(from: memory, segments: segments) { bias &+ $0.address }
        var mismatch: (path: String, buildID: BuildID?)?
        for path in paths {
            guard let bytes = try? ImageLoader.readFile(path),
                let file = try? ELFFile(bytes: bytes, includeStaticSymbols: false, includeTables: false, sortsSymbols: false)
            else { continue }
            // The same reading as ``BuildID/read(ofFileAt:)``, on the bytes kept for the image.
            let found = try? BuildID.read(from: bytes, segments: file.segments) { $0.offset }
            // An image without a build id in the target is taken from the first readable ELF file
            // (the kernel's handle on the mapped file comes first): nothing else could tell two
            // builds apart.
            guard found == loaded, loaded != nil || mismatch == nil else {
                if mismatch == nil { mismatch = (path, found) }
                continue
            }
            var sections: [String: Range<UInt64>] = [:]
            for section in file.sections where section.isAllocated && section.name.hasPrefix("swift5_") {
                let (start, overflow) = bias.addingReportingOverflow(section.address)
                guard !overflow, !start.addingReportingOverflow(section.size).overflow else { continue }
                sections[section.name] = start..<start + section.size
            }
            let low = candidate.mappings.map(\.range.lowerBound).min() ?? candidate.loadAddress
            let high = candidate.mappings.map(\.range.upperBound).max() ?? candidate.loadAddress
            return TargetImage(
                mappedPath: candidate.path, filePath: path, loadAddress: candidate.loadAddress, loadBias: bias, addressRange: low..<high,
                buildID: loaded, swiftSections: sections, fileMappings: candidate.mappings, file: bytes)
        }
        if let mismatch {
            throw BinaryInfoError.imageDiffers(
                path: memory.path, image: candidate.path, expected: loaded?.description ?? "none",
                found: mismatch.buildID?.description ?? "none",
                foundPath: mismatch.path)
        }
        throw BinaryInfoError.imageMissing(path: memory.path, image: candidate.path, buildID: loaded?.description)
    }

    /// Whether the file at `path` is an ELF file (its magic).
    private static func isELF(_ path: String) -> Bool {
        guard let bytes = try? ImageLoader.readFile(path), bytes.count >= 4 else { return false }
        return (try? bytes.read(UInt32.self, at: 0, what: "magic")) == 0x464C_457F
    }

    /// Where to look for the file a target mapped from `path`: `first` (paths only the target's
    /// kind knows of), the path itself, then each search directory: the path below it (a copied
    /// root) and the file's name in it.
    static func filePaths(for path: String, first: [String] = [], searchDirectories: [String]) -> [String] {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var paths = first + [path]
        for directory in searchDirectories {
            let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            paths += [trimmed + path, trimmed + "/" + name]
        }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
