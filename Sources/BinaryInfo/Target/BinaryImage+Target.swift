import TypeLayout

extension BinaryImage {
    /// Reads every Swift type of an image that a process or core file had loaded, from the
    /// target's memory: the same types, names and layouts as a reading of the file, read from the
    /// bytes the target holds (a core's left-out pages from the build-id-matched file, as
    /// ``TargetMemory`` reads them).
    ///
    /// The bytes are read in 16 KiB blocks, each once, while the reading lasts: a process's
    /// image sections do not change, and the decoders' many small reads would otherwise each be
    /// a system call.
    ///
    /// The file supplies the layout only: its section headers, relocations and symbols. Every
    /// address in the result is the file's, as in a reading of the file; add the image's
    /// ``TargetImage/loadBias`` for the target's.
    ///
    /// ```swift
    /// let target = try TargetMemory(.process(pid), imageSearchPaths: [])
    /// for image in target.images where image.isSwift {
    ///     let reading = try BinaryImage.read(image, in: target, runtimeLibrary: nil)
    ///     print(image.mappedPath, reading.document.types.count)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - image: one of `memory`'s ``TargetMemory/images``.
    ///   - memory: the target.
    ///   - selects: as in ``read(atPath:selecting:runtimeLibrary:)``; nil reads every type.
    ///   - runtimeLibrary: as in ``read(atPath:runtimeLibrary:)``.
    /// - Throws: ``BinaryInfoError`` for a file that is not a Swift image, and for bytes the target
    ///   does not hold, naming the target and the address.
    public static func read(
        _ image: TargetImage, in memory: TargetMemory, selecting selects: ((TypeLayout) -> Bool)? = nil, runtimeLibrary: String?
    ) throws(BinaryInfoError) -> BinaryReading {
        try read(
            image.file, path: image.mappedPath, selecting: selects, runtimeLibrary: runtimeLibrary,
            loaded: .target(CachingReader(memory, policy: .imageSections), bias: image.loadBias))
    }
}
