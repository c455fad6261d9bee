/// The thread blocks glibc keeps, read from its own lists as libthread_db reads them: the blocks
/// of threads that have not been joined (`_dl_stack_used`, `_dl_stack_user`) and the stacks of
/// ended threads kept for reuse (`_dl_stack_cache`), whose memory still holds whatever their
/// threads left there.
///
/// The lists are members of ld.so's `_rtld_global` (glibc 2.34 and later). Where they lie in it,
/// and where a list's link and the thread id lie in a `struct pthread`, come from the
/// descriptors glibc exports for libthread_db (`_thread_db_rtld_global__dl_stack_used`,
/// `_thread_db_pthread_list`, …: `{bits, count, offset}` triples). The cache has no descriptor:
/// glibc declares it right after `_dl_stack_user` (`ldsodefs.h`), so it is read there, and taken
/// only when it is a well-formed circular list whose every block is one no live thread uses.
public struct GlibcThreadStacks: Sendable, Hashable {
    /// A thread's `struct pthread`, which glibc places at the top of the stack block it allocates.
    public struct Block: Sendable, Hashable {
        /// The `struct pthread`'s address.
        public var address: UInt64
        /// Its `tid` field: the thread's id while it runs, 0 or less once it has ended (the kernel
        /// clears it at the thread's end; glibc's `FREE_P` takes `tid <= 0` as a free block).
        public var threadID: Int32
    }

    /// Threads on stacks glibc allocated, not yet joined (`_dl_stack_used`).
    public let used: [Block]
    /// Threads on stacks the program gave (and the main thread) (`_dl_stack_user`).
    public let user: [Block]
    /// Ended threads' stacks kept for reuse (`_dl_stack_cache`).
    public let cached: [Block]

    /// Lists already read (tests).
    init(used: [Block], user: [Block], cached: [Block]) {
        self.used = used
        self.user = user
        self.cached = cached
    }

    /// The most blocks a list is followed for: more means the list is damaged or loops.
    static let listLimit = 16_384

    /// Reads the lists of `target`'s glibc.
    ///
    /// - Throws: ``BinaryInfoError/threadListsUnreadable(path:what:address:detail:)`` saying what
    ///   is missing (no libc or ld.so image, a glibc older than 2.34 without these symbols) or
    ///   which list is not a well-formed circular list, and a read error.
    public init(_ target: TargetMemory) throws(BinaryInfoError) {
        let heads = try ListHeads(target)
        let libc = heads.descriptors
        func field(_ name: String) throws(BinaryInfoError) -> (bits: UInt32, offset: UInt64) {
            guard let address = libc.address(of: "_thread_db_" + name) else {
                throw .threadListsUnreadable(
                    path: target.path, what: "_thread_db_\(name)", address: nil,
                    detail:
                        "\(libc.image.mappedPath) defines no such symbol (glibc 2.34 and later do; earlier releases keep the lists in libpthread)"
                )
            }
            let bits = try target.read(UInt32.self, at: address, what: "_thread_db_\(name)")
            let offset = try target.read(UInt32.self, at: address + 8, what: "_thread_db_\(name)")
            return (bits, UInt64(offset))
        }
        let link = try field("pthread_list")
        let tid = try field("pthread_tid")
        let next = try field("list_t_next")
        let previous = try field("list_t_prev")
        guard link.bits == 128, tid.bits == 32, next.offset == 0, previous.offset == 8 else {
            throw .threadListsUnreadable(
                path: target.path, what: "_thread_db_* descriptors", address: nil,
                detail: "\(libc.image.mappedPath)'s descriptors are not those of a 64-bit glibc's list_t")
        }
        let walker = ListWalker(target: target, linkOffset: link.offset, threadIDOffset: tid.offset)
        used = try walker.blocks(headAt: heads.used, what: "_dl_stack_used")
        user = try walker.blocks(headAt: heads.user, what: "_dl_stack_user")
        cached = try walker.blocks(headAt: heads.cache, what: "_dl_stack_cache")
        let running = Set((used + user).map(\.address))
        if let shared = cached.first(where: { running.contains($0.address) || $0.threadID > 0 }) {
            throw .threadListsUnreadable(
                path: target.path, what: "_dl_stack_cache", address: shared.address,
                detail: "a cached stack's thread block is in use (thread id \(shared.threadID)): this is not glibc's stack cache")
        }
    }

    /// Follows glibc's circular `list_t`s, each checked link by link.
    struct ListWalker {
        let target: TargetMemory
        let linkOffset: UInt64
        let threadIDOffset: UInt64

        func blocks(headAt head: UInt64, what: String) throws(BinaryInfoError) -> [Block] {
            var blocks: [Block] = []
            var previous = head
            var node = try target.read(UInt64.self, at: head, what: what)
            while node != head {
                guard node & 7 == 0, node >= linkOffset, blocks.count < GlibcThreadStacks.listLimit,
                    try target.read(UInt64.self, at: node + 8, what: "\(what) link") == previous
                else {
                    throw .threadListsUnreadable(
                        path: target.path, what: what, address: node,
                        detail: "not a link of a circular list that returns to its head at 0x\(String(head, radix: 16))")
                }
                let block = node - linkOffset
                let threadID = try target.read(Int32.self, at: block + threadIDOffset, what: "\(what) thread id")
                blocks.append(Block(address: block, threadID: threadID))
                previous = node
                node = try target.read(UInt64.self, at: node, what: "\(what) link")
            }
            return blocks
        }
    }
}
