import TypeLayout

extension TargetMemory {
    /// The images as a ``TargetImageMap``: what another process needs to read this target the
    /// same way without reading its memory map and matching its files again.
    public var imageMap: TargetImageMap {
        TargetImageMap(
            images: images.map { image in
                TargetImageMap.Image(
                    mappedPath: image.mappedPath, filePath: image.filePath, loadAddress: image.loadAddress, loadBias: image.loadBias,
                    addressRange: image.addressRange, buildID: image.buildID, sections: image.swiftSections,
                    mappings: image.fileMappings.map { TargetImageMap.Mapping(range: $0.range, fileOffset: $0.fileOffset) })
            },
            executable: executable?.loadAddress)
    }

    /// Opens `target` with the images of `imageMap` (made by another reader of the same target:
    /// ``imageMap``), without reading the process's memory map or matching files again. Each
    /// image's file is opened at the map's path and, when the map states a build id, must still
    /// have it.
    ///
    /// - Throws: ``BinaryInfoError``: for a process, ``BinaryInfoError/noSuchProcess(path:)`` or
    ///   ``BinaryInfoError/processExited(path:)``; for a core, what opening it throws;
    ///   ``BinaryInfoError/imageMissing(path:image:buildID:)`` when an image's file cannot be
    ///   read, ``BinaryInfoError/imageDiffers(path:image:expected:found:foundPath:)`` when it is
    ///   now another build (each naming the image by its mapped path).
    public convenience init(_ target: TargetSpecifier, imageMap: TargetImageMap) throws(BinaryInfoError) {
        let source = try Self.source(of: target)
        var images: [TargetImage] = []
        for entry in imageMap.images {
            images.append(try Self.image(entry, target: target, source: source))
        }
        let executable = imageMap.executable.flatMap { load in images.first { $0.loadAddress == load } }
        self.init(target: target, source: source, images: images, executable: executable)
    }

    /// The image `entry` states, its file opened and its build id checked.
    private static func image(_ entry: TargetImageMap.Image, target: TargetSpecifier, source: any TargetMemorySource)
        throws(BinaryInfoError) -> TargetImage
    {
        let bytes: FileBytes
        do {
            bytes = try ImageLoader.readFile(entry.filePath)
        } catch {
            // A process's own handles on its files (`/proc/PID/map_files`) go with it.
            if source.hasGone { throw .processExited(path: target.description) }
            throw .imageMissing(path: target.description, image: entry.mappedPath, buildID: entry.buildID?.description)
        }
        if let expected = entry.buildID {
            // The file's own notes, read from its program headers: the build the map was made of.
            let found = try? BuildID.read(from: bytes, segments: BuildID.programHeaders(from: bytes, header: 0)) { $0.offset }
            guard found == expected else {
                throw .imageDiffers(
                    path: target.description, image: entry.mappedPath, expected: expected.description,
                    found: (found ?? nil)?.description ?? "none", foundPath: entry.filePath)
            }
        }
        return TargetImage(
            mappedPath: entry.mappedPath, filePath: entry.filePath, loadAddress: entry.loadAddress, loadBias: entry.loadBias,
            addressRange: entry.addressRange, buildID: entry.buildID, swiftSections: entry.sections,
            fileMappings: entry.mappings.map { (range: $0.range, fileOffset: $0.fileOffset) }, file: bytes)
    }
}
