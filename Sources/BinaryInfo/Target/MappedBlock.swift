#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fixed-capacity run of trivial values in pages of its own (an anonymous mapping), handed
/// back to the system when let go.
///
/// A reading builds tables of tens of millions of entries in blocks and lets each block go as
/// soon as it is copied on: from `malloc`, a block freed after glibc raised its mmap threshold
/// (it does when a large allocation is freed) stays in the heap and counts in the resident
/// memory; a mapping of its own does not.
final class MappedBlock<Element: BitwiseCopyable> {
    let capacity: Int
    // Appended to once per chunk or edge: no exclusivity check (one writer, the reading).
    @exclusivity(unchecked) private(set) var count = 0
    private let base: UnsafeMutablePointer<Element>
    private let byteCount: Int

    /// Room for `capacity` elements; falls back to `malloc`'s memory should the mapping fail.
    init(capacity: Int) {
        self.capacity = capacity
        byteCount = max(capacity * MemoryLayout<Element>.stride, 1)
        let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        if let mapped, mapped != MAP_FAILED {
            base = mapped.bindMemory(to: Element.self, capacity: capacity)
            isMapped = true
        } else {
            base = UnsafeMutablePointer<Element>.allocate(capacity: max(capacity, 1))
            isMapped = false
        }
    }

    private let isMapped: Bool

    /// `count` zeros (a fresh mapping is zero already).
    convenience init(zeroed count: Int) {
        self.init(capacity: count)
        if !isMapped { UnsafeMutableRawPointer(base).initializeMemory(as: UInt8.self, repeating: 0, count: byteCount) }
        self.count = count
    }

    deinit {
        if isMapped { munmap(base, byteCount) } else { base.deallocate() }
    }

    /// Adds `element` after the others. - Precondition: there is room.
    @inline(__always)
    func append(_ element: Element) {
        precondition(count < capacity, "a block's room")
        base[count] = element
        count += 1
    }

    @inline(__always)
    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "a block's element")
            return base[position]
        }
        set {
            precondition(position >= 0 && position < count, "a block's element")
            base[position] = newValue
        }
    }

    /// The elements, for the length of `body`.
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }
}
