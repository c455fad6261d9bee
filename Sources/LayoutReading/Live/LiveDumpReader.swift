import BinaryInfo
import TypeLayout
import TypeLowering

/// What `typeinfo dump --pid PID` and `typeinfo dump CORE` read: the types of each Swift image
/// the target had loaded, as `typeinfo dump` reads a file, and the generic instantiations that
/// exist in the target, each laid out.
public struct LiveDump: Sendable {
    /// One Swift image the target had loaded, and its reading (or why it failed).
    public struct ImageReading: Sendable {
        /// The image: where the target mapped it from, and the file of the same build id read.
        public var image: TargetImage
        /// The file's reading, as `typeinfo dump` reads it.
        public var result: Result<LayoutReadResult, LayoutReadingError>
    }

    /// The target's Swift images, by load address.
    public var images: [ImageReading]
    /// The generic instantiations, sorted by name (``LiveInstantiations``).
    public var instantiations: LayoutDocument
}

/// `typeinfo dump --pid` and `dump CORE`: a target's Swift types, those its images declare and
/// the generic instantiations its runtime made.
///
/// The instantiations are read first, with the process stopped for it when
/// ``LiveTargetOptions/pauses``; the images' files are read after it runs again (their bytes do
/// not change while it runs).
public enum LiveDumpReader {
    /// Whether the file at `path` is an ELF core file (so `dump` reads it as a target, not as a
    /// binary); false for anything that cannot be read.
    public static func isCoreFile(atPath path: String) -> Bool { CoreFile.isCoreFile(atPath: path) }

    /// Reads the target's types.
    ///
    /// - Parameters:
    ///   - options: the target and how to open it.
    ///   - selection: `--type`, `--kind`, `--module`: applied to the images' types and to the
    ///     instantiations alike.
    ///   - reading: how each image's file is read (as `typeinfo dump` reads a file).
    /// - Throws: ``LiveReadingError`` when the target cannot be read (no such process,
    ///   permission, a core whose images are missing or differ), is not a Swift process, or the
    ///   reflection library cannot run.
    public static func read(_ options: LiveTargetOptions, selection: TypeFilter = .all, reading: LayoutReadOptions = LayoutReadOptions())
        throws(LiveReadingError) -> LiveDump
    {
        let (inspector, instantiations) = try options.whilePaused { pause throws(LiveReadingError) in
            let inspector = try options.openInspector()
            guard inspector.images.contains(where: \.isSwift) else { throw .notSwift(target: options.target.description) }
            let instantiations = try LiveInstantiations.read(inspector, pause: pause, selection: selection)
            return (inspector, instantiations)
        }
        let images = imageTypes(of: inspector.images.filter(\.isSwift), in: inspector.memory, selection: selection, reading: reading)
        // An image read from a process that exited meanwhile fails for that reason alone.
        if images.contains(where: { if case .failure = $0.result { return true } else { return false } }) {
            let error = options.vanishedOr(.notSwift(target: options.target.description))
            if case .target(.processExited) = error { throw error }
        }
        return LiveDump(images: images, instantiations: instantiations)
    }

    /// The types each image declares, read as `typeinfo dump FILE` reads its file (the file the
    /// target's image was matched to by build id), with the static metadata's bytes taken from
    /// the target (``BinaryImage/read(_:in:selecting:runtimeLibrary:)``); DWARF and the
    /// dependencies come from the file.
    ///
    /// - Returns: each image's reading, in the order given; an image that cannot be read is its
    ///   error, the others stand.
    public static func imageTypes(
        of images: [TargetImage], in memory: TargetMemory, selection: TypeFilter, reading: LayoutReadOptions
    ) -> [LiveDump.ImageReading] {
        var reading = reading
        // The runtime's value witness tables from the libswiftCore the target loaded, when it
        // loaded one from a path that still holds it.
        if reading.runtimeLibraries == .resolved(toolchainDirectory: nil),
            let core = images.first(where: { $0.mappedPath.hasSuffix("/libswiftCore.so") && $0.filePath == $0.mappedPath })
        {
            reading.runtimeLibraries = .resolved(toolchainDirectory: String(core.mappedPath.dropLast("/libswiftCore.so".count)))
        }
        return images.map { image in
            do throws(LayoutReadingError) {
                var result = try BinaryLayoutReader.read(
                    path: image.filePath, selection: selection, options: reading, metadataBytes: .target(image, memory))
                // The kernel's handle on a file (`/proc/PID/map_files/…`) names no file a reader knows.
                if image.filePath.hasPrefix("/proc/") { result.document.image.path = image.mappedPath }
                return LiveDump.ImageReading(image: image, result: .success(result))
            } catch {
                return LiveDump.ImageReading(image: image, result: .failure(error))
            }
        }
    }
}
