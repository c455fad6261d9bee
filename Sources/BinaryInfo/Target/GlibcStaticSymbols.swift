/// `main_arena` and `mp_` as an executable that links glibc statically names them: local
/// symbols in its own symbol table (`.symtab`), kept unless the file was stripped. A shared
/// `libc.so.6` is stripped of them, so its arenas are found by their shape alone.
struct GlibcStaticSymbols {
    /// Where the target holds `main_arena`, when the file names it.
    var mainArena: UInt64?
    /// Where the target holds `mp_`, when the file names it.
    var mallocParameters: UInt64?

    /// Bytes taken as `mp_` from its symbol: more than `struct malloc_par` holds in any release.
    static let mallocParametersBytes: UInt64 = 256

    /// The symbols of the file at `path`, loaded `bias` bytes above its addresses. An executable
    /// only (a shared library's are stripped); a file that cannot be read names none.
    init(path: String, bias: UInt64) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !name.contains(".so"), let bytes = try? ImageLoader.readFile(path),
            let file = try? ELFFile(bytes: bytes, includeStaticSymbols: true, includeTables: true, sortsSymbols: false)
        else { return }
        for symbol in file.definedSymbols where symbol.value != 0 {
            switch file.name(of: symbol, in: bytes) {
            case "main_arena": mainArena = bias &+ symbol.value
            case "mp_": mallocParameters = bias &+ symbol.value
            default: continue
            }
        }
    }

    /// The bytes `mp_` may span.
    var mallocParametersRange: Range<UInt64>? {
        mallocParameters.map { $0..<($0 &+ Self.mallocParametersBytes) }
    }
}
