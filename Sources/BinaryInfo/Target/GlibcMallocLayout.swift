#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where glibc's allocator keeps what a heap reader needs, for one glibc release on a 64-bit
/// machine (x86_64, aarch64: `SIZE_SZ` 8, `MALLOC_ALIGNMENT` 16), from glibc's `malloc/malloc.c`
/// and `malloc/arena.c`.
///
/// The releases that differ: 2.27 added `have_fastchunks` to `struct malloc_state`, 2.29 the
/// `key` word of a tcache entry (the tcache's own address until 2.33, one random `tcache_key`
/// from 2.34), 2.30 widened the tcache counts to 16 bits, 2.32 added safe-linking (`PROTECT_PTR`)
/// to tcache and fastbin links, 2.35 added `pagesize` to `heap_info`. Releases before 2.26 (no
/// tcache) and after 2.41 (not checked) are refused.
struct GlibcMallocLayout: Sendable, Hashable {
    /// The release, as its banner states it ("release version 2.36").
    let major: Int
    let minor: Int

    static let oldestSupported = (2, 26)
    static let newestSupported = (2, 41)

    init?(major: Int, minor: Int) {
        guard (major, minor) >= Self.oldestSupported, (major, minor) <= Self.newestSupported else { return nil }
        self.major = major
        self.minor = minor
    }

    private var isAtLeast: (Int, Int) -> Bool { { (major, minor) >= ($0, $1) } }

    // Chunks.
    static let wordSize: UInt64 = 8
    static let alignment: UInt64 = 16
    static let minimumChunkSize: UInt64 = 32
    static let previousInUse: UInt64 = 1
    static let isMmapped: UInt64 = 2
    static let nonMainArena: UInt64 = 4
    static let flagBits: UInt64 = 7

    // struct malloc_state.
    static let fastbinCount = 10
    static let binCount = 128
    /// `fastbinsY`: after the mutex and `flags` (and `have_fastchunks` from 2.27).
    var fastbinsOffset: UInt64 { isAtLeast(2, 27) ? 16 : 8 }
    var topOffset: UInt64 { fastbinsOffset + UInt64(Self.fastbinCount) * 8 }
    /// `bins[NBINS * 2 - 2]`, after `top` and `last_remainder`.
    var binsOffset: UInt64 { topOffset + 16 }
    /// `next`, after the bins and the four-word `binmap`.
    var nextOffset: UInt64 { binsOffset + UInt64(Self.binCount * 2 - 2) * 8 + 16 }
    var systemMemoryOffset: UInt64 { nextOffset + 24 }
    /// `sizeof (struct malloc_state)`.
    var arenaSize: UInt64 { nextOffset + 40 }

    /// `sizeof (heap_info)`: `ar_ptr`, `prev`, `size`, `mprotect_size` (and `pagesize` from 2.35),
    /// padded so that a chunk after it is aligned.
    var heapInfoSize: UInt64 { isAtLeast(2, 35) ? 48 : 32 }
    /// `HEAP_MAX_SIZE`: a non-main heap is a region this large, aligned to its size (unless
    /// huge pages were asked for with `glibc.malloc.hugetlb`, which the heap's `ar_ptr` check refuses).
    static let heapMaximumSize: UInt64 = 64 << 20

    // struct malloc_par (mp_), relative to its sbrk_base field.
    /// `n_mmaps`, first of four `int`s before `mmapped_mem`: from 2.35 they follow the `int`
    /// `hp_flags`, so they start four bytes later and four bytes of padding follow them.
    var mmapCountsOffsetFromSbrkBase: Int { isAtLeast(2, 35) ? -36 : -32 }

    // struct tcache_perthread_struct.
    static let tcacheBinCount = 64
    /// Width of `counts[i]`: `char` until 2.29, `uint16_t` from 2.30.
    var tcacheCountWidth: Int { isAtLeast(2, 30) ? 2 : 1 }
    var tcacheEntriesOffset: UInt64 { UInt64(Self.tcacheBinCount * tcacheCountWidth) }
    /// The chunk size of a tcache: `request2size (sizeof (tcache_perthread_struct))`.
    var tcacheChunkSize: UInt64 {
        (tcacheEntriesOffset + UInt64(Self.tcacheBinCount) * 8 + Self.wordSize + Self.alignment - 1) & ~(Self.alignment - 1)
    }
    /// The chunk size that tcache bin `index` holds (`tidx2usize` plus the header word).
    static func tcacheChunkSize(bin index: Int) -> UInt64 { UInt64(index) * alignment + minimumChunkSize }

    enum TcacheKey {
        /// No key word (2.26–2.28).
        case none
        /// The word after `next` holds the address of the tcache the entry is in (2.29–2.33).
        case tcacheAddress
        /// The word after `next` holds one random value, `tcache_key`, shared by every entry (2.34 on).
        case shared
    }

    var tcacheKey: TcacheKey { isAtLeast(2, 34) ? .shared : isAtLeast(2, 29) ? .tcacheAddress : .none }

    /// Whether tcache and fastbin links are stored as `PROTECT_PTR (&link, next)`.
    var hasSafeLinking: Bool { isAtLeast(2, 32) }

    /// The next chunk (or tcache entry) a link stored at `position` leads to.
    func reveal(_ link: UInt64, storedAt position: UInt64) -> UInt64 {
        hasSafeLinking ? (position >> 12) ^ link : link
    }
}

extension GlibcMallocLayout {
    /// The glibc release of an image: the banner of a C library ("… release version 2.36."),
    /// or in a statically linked executable (which leaves the banner out) its one
    /// `__libc_version` string, a lone NUL-terminated "2.NN"; nil when neither is there or
    /// several such strings are.
    static func release(of bytes: UnsafeRawBufferPointer) -> (major: Int, minor: Int)? {
        if let banner = release(inImage: bytes) { return banner }
        var found: Set<Int> = []
        var index = 1
        while index + 4 < bytes.count {
            // "\02.N\0" or "\02.NN\0".
            if bytes[index] == UInt8(ascii: "2"), bytes[index - 1] == 0, bytes[index + 1] == UInt8(ascii: "."),
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 2])
            {
                var end = index + 3
                if end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == 0 {
                    found.insert(Int(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(index + 2)..<end]), as: UTF8.self)) ?? -1)
                }
            }
            index += 1
        }
        guard found.count == 1, let minor = found.first, minor >= 0 else { return nil }
        return (2, minor)
    }

    /// The release named by glibc's banner in `bytes` ("… release version 2.36.", in every
    /// build of the C library), if any.
    static func release(inImage bytes: UnsafeRawBufferPointer) -> (major: Int, minor: Int)? {
        let needle = Array("release version ".utf8)
        guard let base = bytes.baseAddress, bytes.count > needle.count else { return nil }
        var offset = 0
        while offset + needle.count < bytes.count {
            // memmem is a _GNU_SOURCE declaration Glibc's module leaves out: memchr for the first byte, then memcmp.
            guard let found = memchr(base + offset, Int32(needle[0]), bytes.count - offset) else { return nil }
            guard UnsafeRawPointer(found) - base + needle.count <= bytes.count, memcmp(found, needle, needle.count) == 0 else {
                offset = UnsafeRawPointer(found) - base + 1
                continue
            }
            var cursor = UnsafeRawPointer(found) - base + needle.count
            func number() -> Int? {
                var value = 0
                var digits = 0
                while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]), digits < 4 {
                    value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    digits += 1
                    cursor += 1
                }
                return digits > 0 ? value : nil
            }
            if let major = number(), cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
                cursor += 1
                if let minor = number() { return (major, minor) }
            }
            offset = UnsafeRawPointer(found) - base + 1
        }
        return nil
    }
}
