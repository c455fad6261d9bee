#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The value witness tables that the Swift runtime library exports (`$sBi64_WV`, `$sBoWV`, …),
/// read from the libswiftCore.so on disk that this process itself runs on.
///
/// Binaries reuse the runtime's tables for types whose layout equals a builtin's, so without
/// these a plain `struct { var x: Int }` would have no size. The library is parsed like any other
/// image (never executed through these tables); if it cannot be found, those sizes stay unknown.
final class RuntimeWitnessTables: Sendable {
    let path: String
    private let space: AddressSpace
    /// The library's exported symbols, found through its `.gnu.hash` table as the loader finds
    /// them: a question about a few types looks up a few names, not all of `.dynsym`.
    private let exports: GNUHashTable?
    /// `$s…WV` and `$s…N` symbols by name, only for a library without `.gnu.hash`.
    private let scannedSymbols: [String: UInt64]

    /// The runtime library's tables, loaded on first use; nil when the library cannot be read.
    static let shared: RuntimeWitnessTables? = {
        guard let path = runtimeLibraryPath() else { return nil }
        return try? RuntimeWitnessTables(path: path)
    }()

    /// Reads the library at `path`.
    ///
    /// - Parameter findsSymbolsThroughHashTable: look names up through `.gnu.hash` when the
    ///   library has one (false: scan `.dynsym`, as for a library without one; for tests).
    init(path: String, findsSymbolsThroughHashTable: Bool = true) throws(BinaryInfoError) {
        self.path = path
        let bytes = try ImageLoader.readFile(path)
        // The runtime exports its witness tables and metadata: .dynsym is enough, and it is looked
        // up by name, never walked by address, so it is not sorted.
        let file = try ELFFile(bytes: bytes, includeStaticSymbols: false, sortsSymbols: false)
        space = try AddressSpace(file: file, bytes: bytes)
        exports = findsSymbolsThroughHashTable ? GNUHashTable(file: file, bytes: bytes) : nil
        var symbols: [String: UInt64] = [:]
        if exports == nil {
            for symbol in file.definedSymbols {
                guard file.symbol(symbol, in: bytes, hasPrefix: "$s", suffix: "WV", orSuffix: "N"),
                    let name = file.name(of: symbol, in: bytes)
                else {
                    continue
                }
                symbols[name] = symbol.value
            }
        }
        scannedSymbols = symbols
    }

    /// The value of the exported symbol `name` (a `$s…WV` or `$s…N` name).
    private func symbol(named name: String) -> UInt64? {
        guard let exports else { return scannedSymbols[name] }
        return exports.value(of: ExportedSymbolName(name))
    }

    /// The layout an exported value witness table (`$sBi64_WV`) records.
    func table(named name: String) -> ValueWitnessLayout? {
        guard name.hasSuffix("WV"), name.hasPrefix("$s"), let address = symbol(named: name) else { return nil }
        return try? SwiftImage.valueWitnesses(in: space, at: address)
    }

    /// The layout of one of the runtime library's non-generic value types (`Si`, `SS`, `Sd`), by
    /// type mangling, from the witness table its static metadata points to.
    func typeLayout(mangling: String) -> ValueWitnessLayout? {
        guard let metadata = symbol(named: "$s" + mangling + "N"), metadata >= 8,
            // Only value-type metadata (struct, enum, optional) has the witness table pointer just before it.
            let kind = try? space.read(UInt64.self, at: metadata, what: "metadata kind"),
            SwiftImage.valueMetadataKinds.contains(kind)
        else { return nil }
        switch try? space.pointer(at: metadata - 8, what: "value witness table pointer") {
        case .address(let table)?:
            return try? SwiftImage.valueWitnesses(in: space, at: table)
        case .symbol(let name)?:
            return table(named: name)
        case nil:
            return nil
        }
    }

    /// The path of the first mapping of a `…/libswiftCore.so` in `/proc/self/maps` (a line ends
    /// with the path, which starts at the line's first `/`). Lines are compared as bytes: split
    /// into strings, the few hundred lines cost more than the rest of a one-type question's look
    /// at the runtime library.
    static func mappedRuntimeLibrary(in maps: FileBytes) -> String? {
        guard let base = maps.buffer.baseAddress else { return nil }
        let suffix = Array("/libswiftCore.so".utf8)
        var lineStart = 0
        while lineStart < maps.count {
            let lineEnd =
                memchr(base + lineStart, 0x0A, maps.count - lineStart).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? maps.count
            let line = UnsafeRawBufferPointer(start: base + lineStart, count: lineEnd - lineStart)
            if line.count >= suffix.count, line.suffix(suffix.count).elementsEqual(suffix),
                let slash = line.firstIndex(of: UInt8(ascii: "/"))
            {
                return String(decoding: line[slash...], as: UTF8.self)
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// The runtime library to read: `$TYPEINFO_SWIFT_RUNTIME`, else the libswiftCore.so mapped
    /// into this process (from the loader's map), else one beside a `swift` found on `PATH`.
    private static func runtimeLibraryPath() -> String? {
        if let explicit = getenv("TYPEINFO_SWIFT_RUNTIME") { return String(cString: explicit) }
        if let maps = try? ImageLoader.readFile("/proc/self/maps"), let path = mappedRuntimeLibrary(in: maps) { return path }
        // A typeinfo built with a static standard library maps no libswiftCore.so.
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/../lib/swift/linux/libswiftCore.so"
            if access(String(directory) + "/swift", X_OK) == 0, access(candidate, R_OK) == 0 { return candidate }
        }
        return nil
    }
}
