#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Switches that turn the reader's shortcuts off, so that tests and benchmarks can compare the
/// output with and without them (the output must not change).
enum ProcessEnvironment {
    /// False when `TYPEINFO_DWARF_FROM_FILE` is set: libdwarf then opens the file itself
    /// instead of reading the bytes BinaryInfo mapped.
    static var readsFromMemory: Bool { getenv("TYPEINFO_DWARF_FROM_FILE") == nil }
}
