import BinaryInfo
import TypeLowering

/// Finds the actors among heap allocations by their first word, judged as ``MetadataCensus``
/// judges words: each distinct word once, in batches, many metadata records to a system call
/// (``SwiftClassRecognizer/classMetadata(each:)``), never one read per word.
///
/// Class metadata found is kept (a few hundred classes) with whether its class is an actor;
/// words that are not metadata are remembered only in a small direct-mapped cache, so the
/// memory this takes does not grow with the heap.
struct ActorFinder {
    let inspector: TargetInspector
    /// The actors found: each object's address, its class metadata.
    private(set) var actors: [UInt64: UInt64] = [:]
    /// Class metadata judged: whether its class is an actor.
    private var classes: [UInt64: Bool] = [:]
    /// Recently judged words that are not class metadata.
    private var notMetadata = [UInt64](repeating: 0, count: 4096)
    /// Allocations whose first word awaits judgement.
    private var pending: [(address: UInt64, word: UInt64)] = []

    /// Allocations held back before their words are judged together.
    static let batch = 4096

    init(inspector: TargetInspector) {
        self.inspector = inspector
        pending.reserveCapacity(Self.batch)
    }

    /// Notes the allocation at `address` whose first word is `word`, an actor now or at the next
    /// ``settle()``.
    mutating func add(address: UInt64, word: UInt64) {
        guard SwiftClassRecognizer.mayBeMetadata(word) else { return }
        if let isActor = classes[word] {
            if isActor { actors[address] = word }
            return
        }
        if notMetadata[Self.slot(of: word)] == word { return }
        pending.append((address, word))
        if pending.count >= Self.batch { settle() }
    }

    /// Judges the words of the allocations held back.
    mutating func settle() {
        guard !pending.isEmpty else { return }
        let words = Array(Set(pending.lazy.map(\.word)).subtracting(classes.keys)).sorted()
        for (word, metadata) in zip(words, inspector.classes.classMetadata(each: words)) {
            if let metadata {
                classes[word] = Self.isActor(descriptor: metadata.descriptor, inspector)
            } else {
                notMetadata[Self.slot(of: word)] = word
            }
        }
        for (address, word) in pending where classes[word] == true { actors[address] = word }
        pending.removeAll(keepingCapacity: true)
    }

    private static func slot(of word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word >> 3) ^ (word >> 15)) & 4095
    }

    /// Whether the class descriptor at `descriptor` is an actor's: a class's flags (kind 16)
    /// with `IsActor` (bit 7 of the kind-specific flags, the top 16 bits), as TypeInfo's
    /// MetadataReader reads them in-process. This is the test `swift_reflection_metadataIsActor`
    /// makes, which answers false for every class here: it first checks that the descriptor lies
    /// in an image's text segments, which the library knows only of images added whole
    /// (`swift_reflection_addImage`), not of the reflection sections the worker registers.
    static func isActor(descriptor: UInt64, _ inspector: TargetInspector) -> Bool {
        guard let flags = try? inspector.memory.read(UInt32.self, at: descriptor, what: "class descriptor flags") else { return false }
        return flags & 0x1F == 16 && (flags >> 16) & 0x80 != 0
    }
}
