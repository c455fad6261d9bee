import BinaryInfo
import TypeLayout
import TypeLowering

/// Closure contexts' plans: their captures as libswiftRemoteMirror lays them out from the capture
/// descriptor their metadata points at, asked once per distinct context metadata (of one context
/// of it), and made words as a class's stored properties are: a captured class reference, an
/// `Optional` of one, a boxed `var` (its box) or a closure are strong; a captured weak reference
/// is weak; every other capture holds no reference.
///
/// A generic closure (its descriptor lists metadata sources or bindings) is laid out from each
/// context's own generic arguments: no one plan holds for its metadata, so its contexts keep no
/// plan and are scanned conservatively.
extension ReferencePlans {
    /// The captures of each context metadata's representative as stored fields (named
    /// `capture N`), for ``plans(fields:manglings:)``.
    ///
    /// - Throws: what the worker throws.
    static func contextFields(_ representatives: [UInt64: UInt64], _ inspector: TargetInspector) throws(TypeLoweringError)
        -> [UInt64: [TargetField]]
    {
        guard !representatives.isEmpty else { return [:] }
        let captures = try inspector.captures(ofContextsAt: Array(representatives.values))
        var fields: [UInt64: [TargetField]] = [:]
        for (metadata, context) in representatives {
            guard let list = captures[context] else { continue }
            fields[metadata] = list.enumerated().map { TargetField(capture: $1, index: $0, context: metadata) }
        }
        return fields
    }
}

/// The first allocation met of each distinct first word that lies in a Swift image, gathered as
/// the heap walk meets the allocations: closure context metadata is emitted into the image that
/// defines the closure, so these are the candidates for context plans, each with one context of
/// it to lay its captures out from.
struct ContextCandidates {
    private let ranges: [Range<UInt64>]
    /// The first allocation of each word, by word.
    private var first: [UInt64: UInt64] = [:]
    /// Words met lately, by their low bits: most allocations repeat a recent first word, and
    /// this keeps them from the dictionary.
    private var recent = [UInt64](repeating: 0, count: 1024)

    init(_ inspector: TargetInspector) {
        ranges = inspector.images.filter(\.isSwift).map(\.addressRange)
    }

    mutating func visit(_ chunk: HeapChunk) {
        let word = chunk.firstWord
        guard word >= 4096, word & 7 == 0 else { return }
        let slot = Int(truncatingIfNeeded: (word >> 3) & 1023)
        guard recent[slot] != word else { return }
        recent[slot] = word
        guard first[word] == nil, ranges.contains(where: { $0.contains(word) }) else { return }
        first[word] = chunk.address
    }

    /// One context of each context metadata among the words whose captures' layout is fixed,
    /// by metadata address; `classes` are left out unjudged.
    func representatives(besides classes: Set<UInt64>, _ inspector: TargetInspector) -> [UInt64: UInt64] {
        var representatives: [UInt64: UInt64] = [:]
        for (word, address) in first where !classes.contains(word) {
            if inspector.contextMetadata(at: word)?.layoutIsFixed == true { representatives[word] = address }
        }
        return representatives
    }
}
