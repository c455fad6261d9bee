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
    /// One context of each distinct context metadata among `firstWords` (the allocations' first
    /// words, in the order of `addresses`) whose captures' layout is fixed, by metadata address.
    static func contextRepresentatives(firstWords: [UInt64], addresses: [UInt64], classes: Set<UInt64>, _ inspector: TargetInspector)
        -> [UInt64: UInt64]
    {
        guard firstWords.count == addresses.count else { return [:] }
        let ranges = inspector.images.filter(\.isSwift).map(\.addressRange)
        var judged: [UInt64: Bool] = [:]
        var representatives: [UInt64: UInt64] = [:]
        for (index, word) in firstWords.enumerated() where word >= 4096 && word & 7 == 0 && !classes.contains(word) {
            if let fixed = judged[word] {
                if fixed, representatives[word] == nil { representatives[word] = addresses[index] }
                continue
            }
            // Context metadata is emitted into the image that defines the closure.
            let fixed = ranges.contains { $0.contains(word) } && (inspector.contextMetadata(at: word)?.layoutIsFixed ?? false)
            judged[word] = fixed
            if fixed { representatives[word] = addresses[index] }
        }
        return representatives
    }

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
