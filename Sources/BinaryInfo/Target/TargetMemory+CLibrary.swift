extension TargetMemory {
    /// The target's C library: its `libc.so.6` image (`libc-2.NN.so` before glibc 2.34), matched
    /// to its file like every image; nil when it maps none (a statically linked program).
    public var cLibrary: TargetImage? {
        images.first { GlibcLibrary.isLibC($0.mappedPath) }
    }

    /// Where the target's own copy of the file `name` that its C library's release installs
    /// beside the library (`libthread_db.so.1`) may be, most likely first: found as the target's
    /// images are, though it was not mapped, so no build id can confirm it (the caller checks it
    /// matches, as libthread_db checks the C library's version itself).
    ///
    /// For a process, in its root (`/proc/PID/root`, another mount namespace for a process in a
    /// container); beside the file matched to its C library (a directory of `--image-path`, for a
    /// core whose libraries moved); at the path beside the C library's mapped path; then below and
    /// in each of `searchDirectories`. Empty when the target maps no C library.
    public func filePathsBesideCLibrary(named name: String, searchDirectories: [String]) -> [String] {
        guard let library = cLibrary, let slash = library.mappedPath.lastIndex(of: "/") else { return [] }
        let path = library.mappedPath[..<slash] + "/" + name
        var first = source.ownPaths(for: String(path))
        // The kernel's handle on a mapping names no directory.
        if !library.filePath.hasPrefix("/proc/"), let found = library.filePath.lastIndex(of: "/") {
            first.append(library.filePath[..<found] + "/" + name)
        }
        return TargetImage.filePaths(for: path, first: first, searchDirectories: searchDirectories)
    }
}
