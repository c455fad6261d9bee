/// An allocator that replaces glibc's `malloc` in a target (jemalloc, tcmalloc, mimalloc, …):
/// its allocations are not glibc chunks, so the heap walk cannot read them, and saying which
/// allocator it is beats saying that glibc's arenas are missing.
///
/// A replacement is an image other than glibc's own that exports a defined `malloc` in its
/// dynamic symbol table: that is how an allocator takes over (`LD_PRELOAD`, or linking it), as
/// the dynamic linker binds every `malloc` call, glibc's own included, to the first definition.
/// It is named by its file (`libjemalloc.so.2`) or, when it is linked into another image, by the
/// symbols each allocator exports beside `malloc`.
struct ForeignAllocator: Sendable, Hashable {
    /// The allocator's name (`jemalloc`), or a description naming the image when it is not one
    /// of those recognised.
    var name: String
    /// The path the target mapped the image from.
    var image: String

    /// glibc's own images, which export `malloc` and use glibc's heap: the C library, the dynamic
    /// linker (its bootstrap allocator), and the debugging and profiling preloads glibc ships.
    private static let glibcImages = ["libc.so", "libc-", "ld-", "libc_malloc_debug.so", "libmemusage.so", "libpcprofile.so"]

    /// Allocators known by their file names, and by a symbol each exports beside `malloc`.
    private static let known: [(name: String, filePrefix: String, symbols: [String])] = [
        ("jemalloc", "libjemalloc", ["mallctl", "je_mallctl"]),
        ("tcmalloc", "libtcmalloc", ["tc_malloc"]),
        ("mimalloc", "libmimalloc", ["mi_malloc"]),
    ]

    private static let malloc = ExportedSymbolName("malloc")

    /// The allocator replacing glibc's in `target`, or nil when none of its images exports
    /// `malloc` but glibc's.
    static func find(in target: TargetMemory) -> ForeignAllocator? {
        for image in target.images {
            let name = String(image.mappedPath.split(separator: "/").last ?? "")
            guard !glibcImages.contains(where: { name.hasPrefix($0) }) else { continue }
            guard let file = try? ELFFile(bytes: image.file, includeStaticSymbols: false, includeTables: false, sortsSymbols: false),
                let exports = GNUHashTable(file: file, bytes: image.file), exports.value(of: malloc) != nil
            else { continue }
            if let byName = known.first(where: { name.hasPrefix($0.filePrefix) }) {
                return ForeignAllocator(name: byName.name, image: image.mappedPath)
            }
            if let bySymbol = known.first(where: { $0.symbols.contains { exports.value(of: ExportedSymbolName($0)) != nil } }) {
                return ForeignAllocator(name: bySymbol.name, image: image.mappedPath)
            }
            return ForeignAllocator(name: "the malloc that \(name) exports", image: image.mappedPath)
        }
        return nil
    }
}
