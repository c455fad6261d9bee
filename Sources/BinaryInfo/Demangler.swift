#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TypeLayout

/// The Swift runtime's own demangler (`swift_demangle`, exported by libswiftCore).
///
/// Declared here rather than imported because the runtime exports it without a Swift interface.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?,
    _ mangledNameLength: UInt,
    _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<UInt>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Turns the textual manglings BinaryInfo builds into names as users write them.
enum Demangler {
    /// Demangles a full symbol (`$s...`), or returns nil when the runtime cannot.
    static func demangle(symbol: String) -> String? {
        let result: String? = symbol.withCString { pointer in
            guard let output = _swiftDemangle(pointer, UInt(symbol.utf8.count), nil, nil, 0) else { return nil }
            defer { free(output) }
            return String(cString: output)
        }
        guard let result, result != symbol else { return nil }
        return result
    }

    /// Demangles a type mangling without prefix (`Si`, `1a5PointV`, `SaySiG`) into its written form.
    static func demangle(type mangling: String) -> String? {
        guard let name = demangle(symbol: "$s" + mangling + "D") else { return nil }
        return TypeNameSugar.apply(name)
    }
}
