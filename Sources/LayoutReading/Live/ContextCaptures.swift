import BinaryInfo
import TypeLayout
import TypeLowering

/// The captures of the closure contexts (and boxes) among a heap's allocations, as the reflection
/// library lays them out, for naming them: asked once per distinct context metadata whose layout
/// is fixed (``SwiftContextMetadata/layoutIsFixed``), of one context of it, as the marking's plans
/// were (``ReferencePlans``).
enum ContextCaptures {
    /// What `leaks` groups unreached allocations by: their kind, and a context's captures' types.
    struct EntryKey: Hashable {
        var kind: LeakReport.Kind
        var captureTypes: [String?]?
    }

    /// The captures of each context metadata among `firstWords` (those of the allocations at
    /// `indices`) not in `known`, as fields named `capture N`; a metadata the library could not
    /// lay out has none.
    static func fields(
        of indices: [Int], firstWords: [UInt64], _ reachability: HeapReachability, _ inspector: TargetInspector,
        known: Set<UInt64> = []
    ) throws(LiveReadingError) -> [UInt64: [TargetField]] {
        guard inspector.images.contains(where: \.isSwift) else { return [:] }
        var representatives: [UInt64: UInt64] = [:]
        var judged: Set<UInt64> = known
        for (index, word) in zip(indices, firstWords) {
            guard judged.insert(word).inserted else { continue }
            if inspector.classMetadata(at: word) == nil, inspector.contextMetadata(at: word)?.layoutIsFixed == true {
                representatives[word] = reachability.addresses[index]
            }
        }
        do throws(TypeLoweringError) {
            return try ReferencePlans.contextFields(representatives, inspector)
        } catch {
            throw .lowering(error)
        }
    }

    /// The part of a context that the word at `offset` lies in: the capture that starts at or
    /// before it, with whether its lowering makes that word a strong reference (before the first
    /// capture, the object's header or a generic closure's bindings).
    static func part(at offset: UInt64, of index: Int, captures: [TargetField], _ reachability: HeapReachability, memory: TargetMemory)
        -> RetainersReport.Part
    {
        guard let position = captures.lastIndex(where: { UInt64($0.offset) <= offset }) else {
            return .offset(offset, unknown: "in a closure context or box, before its first capture")
        }
        let capture = captures[position]
        // A weak capture is named as the reference it is (it is listed only as holding weakly).
        let isWeak = offset <= UInt64(UInt32.max) && ReferenceWords.plan(of: index, reachability)?.weak.contains(UInt32(offset)) == true
        let isReference = isWeak || ReferenceWords.isStrong(in: index, at: offset, reachability, memory: memory) == true
        return .capture(index: position, type: capture.typeName, offset: offset, isReference: isReference)
    }
}
