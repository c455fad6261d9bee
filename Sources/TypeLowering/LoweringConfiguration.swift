#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the reflection library and the worker executable are, and how long a worker may be silent.
///
/// Each path is the explicit value (the CLI's `--remote-mirror` and `--lowering-worker`, whose
/// defaults are `TYPEINFO_REMOTE_MIRROR` and `TYPEINFO_LOWERING_WORKER`), else the default: the
/// toolchain's library directory (``toolchainLibraryDirectory``) and the directory of the running
/// executable (which also holds `typeinfo-lowering` under `swift test`). No environment variable
/// is read here.
public struct LoweringConfiguration: Sendable, Equatable {
    /// The libswiftRemoteMirror.so to load, or nil when none was found.
    public var remoteMirrorPath: String?
    /// The `typeinfo-lowering` executable, or nil when none was found.
    public var workerPath: String?
    /// Seconds without a reply line after which a worker counts as hung and is killed.
    public var silenceLimit: Double

    /// Creates a configuration with explicit paths.
    public init(remoteMirrorPath: String?, workerPath: String?, silenceLimit: Double = 30) {
        self.remoteMirrorPath = remoteMirrorPath
        self.workerPath = workerPath
        self.silenceLimit = silenceLimit
    }

    /// The configuration from explicit values, else the toolchain's and the running executable's directories.
    public static func resolved(remoteMirrorPath: String? = nil, workerPath: String? = nil) -> LoweringConfiguration {
        let mirror = remoteMirrorPath ?? toolchainLibraryDirectory.map { $0 + "/libswiftRemoteMirror.so" }
        let worker = workerPath ?? executableDirectory.map { $0 + "/typeinfo-lowering" }
        return LoweringConfiguration(remoteMirrorPath: mirror, workerPath: worker)
    }

    /// The `libswift_Concurrency.so` beside the reflection library: the toolchain's own
    /// concurrency runtime, which states the numbers a target's runtime of the same build dropped
    /// (`RuntimeDebugVariables`); nil when there is none.
    public var toolchainConcurrencyLibrary: String? { Self.concurrencyLibrary(besideRemoteMirror: remoteMirrorPath) }

    /// The `libswift_Concurrency.so` in the directory of the reflection library at `path`, if it exists.
    static func concurrencyLibrary(besideRemoteMirror path: String?) -> String? {
        guard let path, let slash = path.lastIndex(of: "/") else { return nil }
        let candidate = String(path[..<slash]) + "/libswift_Concurrency.so"
        return access(candidate, R_OK) == 0 ? candidate : nil
    }

    /// The toolchain's library directory, the default of every reading that is given none: the
    /// directory of the libswiftCore.so this process runs on, from the process's own mappings
    /// (`/proc/self/maps`); for a process with a static standard library, the one beside a
    /// `swift` found on `PATH`; nil when neither is found. Found once per process.
    public static let toolchainLibraryDirectory: String? = mappedRuntimeDirectory() ?? directoryBesideSwiftOnPath()

    private static func mappedRuntimeDirectory() -> String? {
        guard let maps = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), maps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let slash = text.firstIndex(of: "/") else { continue }
            let path = text[slash...].trimmingSuffix("\n")
            if path.hasSuffix("/libswiftCore.so"), let last = path.lastIndex(of: "/") {
                return String(path[..<last])
            }
        }
        return nil
    }

    private static func directoryBesideSwiftOnPath() -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/../lib/swift/linux"
            if access(String(directory) + "/swift", X_OK) == 0, access(candidate + "/libswiftCore.so", R_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The directory of `/proc/self/exe`.
    static var executableDirectory: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
