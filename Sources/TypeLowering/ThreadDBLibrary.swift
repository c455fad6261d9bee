import BinaryInfo
import CThreadDB

#if canImport(Glibc)
import Glibc
#endif

/// The libthread_db a target's threads are read with, as gdb chooses one: the target's own (the
/// one installed beside its C library, which knows that release's thread structures), loaded with
/// dlopen in the worker; then this program's, which reads only targets with the same glibc.
///
/// Which one matches is libthread_db's own check: `td_ta_new` compares the target's
/// `nptl_version` with the library's release and answers `TD_VERSION` when they differ, and the
/// next candidate is tried.
final class ThreadDBLibrary {
    /// The file loaded; nil for this program's own.
    let path: String?
    /// How messages name it.
    let name: String
    let handle: OpaquePointer

    private init(path: String?, name: String, handle: OpaquePointer) {
        self.path = path
        self.name = name
        self.handle = handle
    }

    /// The file name glibc installs libthread_db under.
    static let fileName = "libthread_db.so.1"

    /// Where the target's libthread_db may be (``TargetMemory/filePathsBesideCLibrary(named:searchDirectories:)``:
    /// its root, beside its C library's file, the image search directories), the files that
    /// exist, each once, then this program's own (nil) unless one of them is that file.
    static func candidates(for memory: TargetMemory, searchDirectories: [String]) -> [String?] {
        var seen: Set<String> = []
        var found: [String?] = []
        for path in memory.filePathsBesideCLibrary(named: fileName, searchDirectories: searchDirectories) {
            guard access(path, R_OK) == 0, let real = realPath(path), seen.insert(real).inserted else { continue }
            found.append(path)
        }
        let linked = typeinfo_thread_db_linked_path().map { String(cString: $0) }
        if linked.flatMap(realPath).map(seen.contains) != true { found.append(nil) }
        return found
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Loads the library at `path` (this program's when nil); the reason when it cannot be.
    static func open(_ path: String?) -> Result<ThreadDBLibrary, MirrorError> {
        let name =
            path
            ?? "this program's libthread_db (\(typeinfo_thread_db_linked_path().map { String(cString: $0) } ?? "linked"))"
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = typeinfo_thread_db_open(path, &error, error.count) else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(MirrorError(text: "\(name) cannot be loaded: \(reason)"))
        }
        return .success(ThreadDBLibrary(path: path, name: name, handle: handle))
    }

    deinit { typeinfo_thread_db_close(handle) }
}
