// Metadata accessors and descriptors from the checked image's symbol table, for the types the
// runtime's lookup by name cannot find (Tools/check-toolchain-facts).
import Glibc

typealias MetadataAccessor = @convention(thin) (Int) -> UnsafeRawPointer?

/// The image's metadata accessors `$s<mangling>Ma` from its symbol table (FACTCHECK_ACCESSORS,
/// `symbol<TAB>hex address` as `nm` prints them), relocated by the image's load address. The
/// runtime's lookup by name cannot find some types: private types whose anonymous context has no
/// mangled name, types without a metadata record (`MutableRawSpan`). Their accessor still gives
/// the metadata (swiftcc, request 0: complete; the response's first word is the metadata).
final class Accessors {
    var addresses: [String: UInt] = [:]
    var base: UInt?

    init() {
        guard let path = getenv("FACTCHECK_ACCESSORS"), let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        while getline(&line, &capacity, file) > 0 {
            let parts = String(cString: line!).split(separator: "\t")
            if parts.count == 2, let value = UInt(parts[1].filter { !$0.isWhitespace }, radix: 16) {
                addresses[String(parts[0])] = value
            }
        }
        free(line)
        base = Accessors.loadAddress()
    }

    /// The load address of the checked image: the main program for an executable, else the
    /// object loaded from FACTCHECK_IMAGE.
    static func loadAddress() -> UInt? {
        let path = getenv("FACTCHECK_IMAGE_IS_EXECUTABLE") != nil ? nil : getenv("FACTCHECK_IMAGE")
        let address = factcheckLoadAddress(path)
        return address < 0 ? nil : UInt(address)
    }

    /// A symbol's loaded address, from the dynamic symbols or the image's symbol table.
    func address(of symbol: String) -> UnsafeRawPointer? {
        if let entry = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) { return UnsafeRawPointer(entry) }
        guard let value = addresses[symbol], let base else { return nil }
        return UnsafeRawPointer(bitPattern: base &+ value)
    }

    func type(for mangled: String) -> Any.Type? {
        let symbol = "$s" + mangled + "Ma"
        var entry = dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol).map { UnsafeRawPointer($0) }
        if entry == nil, let value = addresses[symbol], let base {
            entry = UnsafeRawPointer(bitPattern: base &+ value)
        }
        guard let entry else { return nil }
        return unsafeBitCast(entry, to: MetadataAccessor.self)(0).map { unsafeBitCast($0, to: Any.Type.self) }
    }
}

let accessors = Accessors()

/// Check-toolchain-facts-takeover.c: the load address of an object, -1 if none is loaded.
@_silgen_name("factcheck_load_address")
func factcheckLoadAddress(_ path: UnsafePointer<CChar>?) -> Int

