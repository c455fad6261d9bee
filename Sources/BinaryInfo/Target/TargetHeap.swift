/// What a heap census needs from the allocator of a target (a running process or a core file):
/// its allocations in use, each with its address, usable size and first words; what its walk
/// counted, and what changed under a reading of a running process; the allocator's name.
///
/// glibc's malloc (``GlibcHeap``) is the one conformer: another allocator would be another
/// conformer, chosen by ``TargetHeaps/open(_:changing:)``, with its walk in a folder of its own
/// beside `Glibc/`. A census (`LiveHeapReader`) reads a heap only through this protocol.
public protocol TargetHeap {
    /// The allocator and its release, as a reader names it to a person: `glibc 2.36`.
    var allocatorName: String { get }

    /// Whether the target runs while it is read: its walk then works around what changes, and
    /// says so in ``HeapTotals/changes``, instead of failing.
    var changing: Bool { get }

    /// Calls `body` with every allocation in use, each exactly once; freed memory is never
    /// passed. For a ``changing`` heap, every allocation alive throughout the walk is passed; one
    /// made or freed meanwhile may or may not be.
    ///
    /// - Returns: what the walk counted; its ``HeapTotals/changes`` say what changed under the
    ///   reading of a changing heap (nil for a stable one).
    /// - Throws: ``BinaryInfoError/malformedHeap(path:what:address:detail:)`` when a stable heap
    ///   does not fit the allocator's invariants; a read error of the target.
    func forEachChunk(_ body: (HeapChunk) -> Void) throws(BinaryInfoError) -> HeapTotals
}

extension GlibcHeap: TargetHeap {
    /// `glibc` and its release.
    public var allocatorName: String { "glibc \(release)" }
}

/// Opens the heap of a target's allocator.
public enum TargetHeaps {
    /// The heap of the allocator `target`'s `malloc` belongs to.
    ///
    /// - Parameter changing: the target runs while it is read (a process not stopped); false for
    ///   a core file or a stopped process, whose heap does not change.
    /// - Throws: ``BinaryInfoError/foreignAllocator(path:allocator:image:)`` when an allocator
    ///   none of the conformers reads replaces glibc's (jemalloc, tcmalloc, mimalloc), naming it;
    ///   otherwise what opening glibc's heap throws (``GlibcHeap/init(_:changing:)``).
    public static func open(_ target: TargetMemory, changing: Bool) throws(BinaryInfoError) -> any TargetHeap {
        if let foreign = ForeignAllocator.find(in: target) {
            throw BinaryInfoError.foreignAllocator(path: target.path, allocator: foreign.name, image: foreign.image)
        }
        return try GlibcHeap(target, changing: changing)
    }
}
