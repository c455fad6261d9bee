extension GlibcThreadStacks {
    /// Where glibc's three thread lists start, and the image whose `_thread_db_*` descriptors
    /// say how a `struct pthread` is laid out.
    ///
    /// A dynamically linked glibc (2.34 and later) keeps the lists in ld.so's `_rtld_global`, at
    /// the offsets libc's descriptors give (`_thread_db_rtld_global__dl_stack_used`); the cache
    /// has no descriptor and follows `_dl_stack_user` (`ldsodefs.h` declares it right after).
    /// A statically linked one has no ld.so: the lists are variables of the executable
    /// (`_dl_stack_used`, `_dl_stack_user`, `_dl_stack_cache` in its symbol table), and the
    /// descriptors are its own.
    struct ListHeads {
        var descriptors: TargetImageSymbols
        var used: UInt64
        var user: UInt64
        var cache: UInt64

        init(_ target: TargetMemory) throws(BinaryInfoError) {
            func named(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? "" }
            guard let libcImage = target.images.first(where: { GlibcLibrary.isLibC(named($0.mappedPath)) }) else {
                try self.init(staticallyLinked: target)
                return
            }
            let libc = try TargetImageSymbols(image: libcImage)
            // ld-linux-x86-64.so.2, or ld-2.31.so as glibc before 2.34 installs it.
            guard
                let loaderImage = target.images.first(where: {
                    named($0.mappedPath).hasPrefix("ld-") || named($0.mappedPath).hasPrefix("ld64.so")
                })
            else {
                throw .threadListsUnreadable(path: target.path, what: "dynamic loader (ld-linux)", address: nil, detail: "not mapped")
            }
            let loader = try TargetImageSymbols(image: loaderImage)
            guard let global = loader.address(of: "_rtld_global") else {
                throw .threadListsUnreadable(
                    path: target.path, what: "_rtld_global", address: nil, detail: "\(loader.image.mappedPath) defines no such symbol")
            }
            func offset(_ name: String) throws(BinaryInfoError) -> UInt64 {
                guard let address = libc.address(of: "_thread_db_" + name) else {
                    throw .threadListsUnreadable(
                        path: target.path, what: "_thread_db_\(name)", address: nil,
                        detail:
                            "\(libc.image.mappedPath) defines no such symbol (glibc 2.34 and later do; earlier releases keep the lists in libpthread)"
                    )
                }
                guard try target.read(UInt32.self, at: address, what: "_thread_db_\(name)") == 128 else {
                    throw .threadListsUnreadable(
                        path: target.path, what: "_thread_db_\(name)", address: address,
                        detail: "\(libc.image.mappedPath)'s descriptor is not that of a 64-bit glibc's list_t")
                }
                return UInt64(try target.read(UInt32.self, at: address + 8, what: "_thread_db_\(name)"))
            }
            let used = try offset("rtld_global__dl_stack_used")
            let user = try offset("rtld_global__dl_stack_user")
            // `_dl_stack_cache` follows `_dl_stack_user`, a `list_t` (16 bytes) later.
            self.init(descriptors: libc, used: global + used, user: global + user, cache: global + user + 16)
        }

        init(descriptors: TargetImageSymbols, used: UInt64, user: UInt64, cache: UInt64) {
            self.descriptors = descriptors
            self.used = used
            self.user = user
            self.cache = cache
        }

        /// The lists of a glibc linked into an image: the first image whose symbol table names
        /// all three.
        init(staticallyLinked target: TargetMemory) throws(BinaryInfoError) {
            for image in target.images {
                guard let symbols = try? TargetImageSymbols(image: image), let used = symbols.address(of: "_dl_stack_used"),
                    let user = symbols.address(of: "_dl_stack_user"), let cache = symbols.address(of: "_dl_stack_cache")
                else { continue }
                self.init(descriptors: symbols, used: used, user: user, cache: cache)
                return
            }
            throw .threadListsUnreadable(
                path: target.path, what: "C library", address: nil,
                detail:
                    "no libc.so.6 is mapped, and no image's symbol table names a statically linked glibc's _dl_stack_used, _dl_stack_user and _dl_stack_cache (a stripped executable has none)"
            )
        }
    }
}
