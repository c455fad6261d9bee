#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The Swift runtime's own demangler (exported by libswiftCore); see the brief: no demangler of
// our own. Declared here because DWARFInfo may not import TypeInfo or BinaryInfo.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?,
    _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Demangles Swift names found in DWARF (`DW_AT_linkage_name` of Swift types: `$s4main5PointVD`).
enum SwiftDemangler {
    /// Returns the demangled name, or `nil` when `mangled` is not a Swift mangled name.
    static func demangle(_ mangled: String) -> String? {
        guard mangled.hasPrefix("$s") || mangled.hasPrefix("_T") || mangled.hasPrefix("$S") || mangled.hasPrefix("$e") else {
            return nil
        }
        // NUL-terminated: swift_demangle's symbol check calls strlen whatever length it is given.
        let result = mangled.withCString { text in
            _swiftDemangle(text, strlen(text), nil, nil, 0)
        }
        guard let result else { return nil }
        defer { free(result) }
        let text = String(cString: result)
        return text == mangled ? nil : text
    }
}
