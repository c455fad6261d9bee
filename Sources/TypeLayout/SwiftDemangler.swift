#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The Swift runtime's own demangler, exported by libswiftCore without a Swift interface.
// Every reader spells names through this one declaration (see the brief: no demangler of our own).
@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?,
    _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Names as users write them, from manglings, through the runtime's `swift_demangle`.
///
/// The in-process reader, the binary reader and the DWARF reader all spell names here, so the
/// same type gets the same name whichever source it was read from.
public enum SwiftDemangler {
    /// Demangles a full symbol (`$s4main5PointVD`).
    ///
    /// - Parameter symbol: a Swift symbol; names from untrusted files are fine (the string is
    ///   passed NUL-terminated, and only its part before a NUL is read).
    /// - Returns: the demangled text, or nil when `symbol` is not a Swift mangled name.
    public static func demangle(symbol: String) -> String? {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("$S") || symbol.hasPrefix("$e") || symbol.hasPrefix("_T") else {
            return nil
        }
        // NUL-terminated, and the length strlen gives: the runtime's symbol check calls strlen
        // whatever length it is given.
        let result = symbol.withCString { text in
            _swiftDemangle(text, strlen(text), nil, nil, 0)
        }
        guard let result else { return nil }
        defer { free(result) }
        let text = String(cString: result)
        return text == symbol ? nil : text
    }

    /// The written form of a type mangling without prefix (`Si`, `1a5PointV`, `SaySiG`), with
    /// the sugar of ``TypeNameSugar`` (`[Swift.Int]`, `Swift.String?`).
    ///
    /// - Parameter mangling: a type mangling as `_mangledTypeName` returns it or a field record holds it.
    /// - Returns: the name, or nil when the runtime cannot demangle it.
    public static func typeName(mangling: String) -> String? {
        demangle(symbol: "$s" + mangling + "D").map(TypeNameSugar.apply)
    }
}
