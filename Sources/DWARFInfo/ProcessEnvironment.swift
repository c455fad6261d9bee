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

    /// False when `TYPEINFO_DWARF_UNIT_FILTER=0`: a reading of a few types then reads every
    /// Swift unit instead of those whose top-level names can hold them.
    static var filtersUnits: Bool {
        guard let value = getenv("TYPEINFO_DWARF_UNIT_FILTER") else { return true }
        return String(cString: value) != "0"
    }

    /// False when `TYPEINFO_DWARF_WHOLE_TREE=1`: every entry of the file is then kept until the
    /// layouts are made, instead of one unit's at a time.
    static var readsUnitByUnit: Bool { getenv("TYPEINFO_DWARF_WHOLE_TREE") == nil }

    /// False when `TYPEINFO_DWARF_READ_TO_END=1`: a reading of a few Swift types then reads on
    /// to the last unit instead of stopping at the unit that gives the last layout it wants.
    static var stopsOnceFound: Bool { getenv("TYPEINFO_DWARF_READ_TO_END") == nil }
}
