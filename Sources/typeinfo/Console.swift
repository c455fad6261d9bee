#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Standard output and error, and the first bytes of a file: the CLI's only raw I/O.
///
/// The calls go through swift-system's `FileDescriptor`, which retries interrupted calls
/// and short writes. The CLI uses FoundationEssentials rather than Foundation (which brings
/// ICU and about 7 MB of resident memory, measured, for no feature the CLI uses), and
/// FileHandle lives in Foundation.
enum Console {
    /// Writes bytes to standard output.
    static func write(_ data: Data) {
        write(data, to: .standardOutput)
    }

    /// Writes text to standard output.
    static func write(_ text: String) {
        write(Data(text.utf8), to: .standardOutput)
    }

    /// Writes text to standard error.
    static func writeError(_ text: String) {
        write(Data(text.utf8), to: .standardError)
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool {
        isatty(FileDescriptor.standardOutput.rawValue) != 0
    }

    /// Whether text output is coloured: only on a terminal, and never when the user refused it,
    /// with `--no-color`, with `NO_COLOR` set to a non-empty value (https://no-color.org), or
    /// with `TERM=dumb`. Every command decides here.
    static func usesColor(refusedByFlag: Bool) -> Bool {
        if refusedByFlag { return false }
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return outputIsTerminal
    }

    /// The first `count` bytes of a file, or nil when it cannot be opened.
    static func head(ofFile path: String, count: Int) -> Data? {
        guard let file = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec]) else { return nil }
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: count)
        guard let read = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }) else { return nil }
        return Data(buffer.prefix(read))
    }

    /// A file error in a few words ("no such file", "permission denied"), for one-line messages.
    static func describe(fileError error: any Error) -> String {
        if let posix = error as? POSIXError {
            return Errno(rawValue: posix.code.rawValue).description.lowercased()
        }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
                return Errno(rawValue: underlying.code.rawValue).description.lowercased()
            }
            switch cocoa.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileWriteOutOfSpace: return "no space left on device"
            default: return "file error \(cocoa.code.rawValue)"
            }
        }
        return String(describing: error)
    }

    private static func write(_ data: Data, to file: FileDescriptor) {
        // A failed write is a closed pipe: nothing more can be said.
        _ = try? file.writeAll(data)
    }
}
