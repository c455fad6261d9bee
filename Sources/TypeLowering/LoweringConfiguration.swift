#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the reflection library and the worker executable are, and how long a worker may be silent.
///
/// Each path is, in order: the explicit value (a CLI option), the environment variable
/// (`TYPEINFO_REMOTE_MIRROR`, `TYPEINFO_LOWERING_WORKER`), then the default: the toolchain the
/// process runs on (the directory of the loaded libswiftCore.so) and the directory of the running
/// executable (which also holds `typeinfo-lowering` under `swift test`).
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

    /// The configuration from explicit values, the environment and the running toolchain.
    public static func resolved(remoteMirrorPath: String? = nil, workerPath: String? = nil) -> LoweringConfiguration {
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let mirror =
            remoteMirrorPath ?? environment("TYPEINFO_REMOTE_MIRROR")
            ?? toolchainLibraryDirectory.map { $0 + "/libswiftRemoteMirror.so" }
        let worker =
            workerPath ?? environment("TYPEINFO_LOWERING_WORKER")
            ?? executableDirectory.map { $0 + "/typeinfo-lowering" }
        return LoweringConfiguration(remoteMirrorPath: mirror, workerPath: worker)
    }

    /// The directory of the libswiftCore.so this process runs on, from the process's own mappings
    /// (`/proc/self/maps`); nil when the standard library is linked statically.
    public static var toolchainLibraryDirectory: String? {
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
