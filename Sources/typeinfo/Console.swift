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

/// Standard output and error, written with `write(2)`.
///
/// The CLI uses FoundationEssentials rather than Foundation (which brings ICU and about 7 MB
/// of resident memory, measured, for no feature the CLI uses), and FileHandle lives in
/// Foundation.
enum Console {
    /// Writes bytes to standard output.
    static func write(_ data: Data) {
        write(data, to: STDOUT_FILENO)
    }

    /// Writes text to standard output.
    static func write(_ text: String) {
        write(Data(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes text to standard error.
    static func writeError(_ text: String) {
        write(Data(text.utf8), to: STDERR_FILENO)
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool {
        isatty(STDOUT_FILENO) != 0
    }

    /// The first `count` bytes of a file, or nil when it cannot be opened.
    static func head(ofFile path: String, count: Int) -> Data? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        return read < 0 ? nil : Data(buffer.prefix(read))
    }

    /// A file error in a few words ("no such file", "permission denied"), for one-line messages.
    static func describe(fileError error: any Error) -> String {
        if let posix = error as? POSIXError {
            return String(cString: strerror(posix.code.rawValue)).lowercased()
        }
        if let cocoa = error as? CocoaError {
            if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue)).lowercased()
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

    /// Ends the process with `status`.
    static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    private static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // a closed pipe: nothing more can be said
                }
            }
        }
    }
}
