extension LayoutHoles {
    /// Finds a field order that wastes fewer bytes: alignment descending (stable), and within one
    /// alignment the fields whose size is a multiple of it first, so an odd-sized field's tail
    /// can take the smaller fields that follow.
    ///
    /// The suggestion is made only when the rule it relies on (each field at the next offset
    /// that is a multiple of its alignment, in declaration order) reproduces the observed
    /// offsets and size exactly; otherwise the alignments or the layout rule are not what this
    /// code assumes, and it says so instead of suggesting.
    static func suggestReorder(
        _ layout: TypeLayout,
        alignmentOf: (FieldLayout) -> Int?,
        superclass: TypeLayout?
    ) -> ReorderOutcome {
        if layout.kind == .union { return .unavailable("union members all start at offset 0") }
        if layout.fields.contains(where: { $0.bitWidth != nil }) {
            return .unavailable("bitfields are packed by rules this suggestion does not model")
        }
        if let unknown = layout.fields.first(where: { $0.offset == nil || $0.size == nil }) {
            return .unavailable("the offset or size of field '\(unknown.name)' is unknown")
        }
        // Numbers come from files: keep them where the arithmetic below cannot overflow.
        let numbers =
            [
                layout.size, layout.alignment, layout.stride, layout.instanceSize, layout.instanceAlignment,
                superclass?.instanceSize,
            ] + layout.fields.flatMap { [$0.offset, $0.size] }
        guard numbers.allSatisfy({ ($0 ?? 0) >= 0 && ($0 ?? 0) <= plausibleLimit }) else {
            return .unavailable("a size or offset is out of range")
        }
        let fields = LayoutSnapshot.offsetOrdered(layout.fields)

        // Which fields can move, and where they start.
        let inherited: Int
        let start: Int
        if layout.kind == .class {
            if let superclassName = layout.superclass {
                guard let superclass, superclass.name == superclassName, let end = superclass.instanceSize else {
                    return .unavailable("the layout of superclass \(superclassName) is not known, so inherited fields cannot be told apart")
                }
                inherited = superclass.fields.count
                guard inherited <= fields.count,
                    zip(fields, LayoutSnapshot.offsetOrdered(superclass.fields)).allSatisfy({ $0.name == $1.name })
                else {
                    return .unavailable("the fields of superclass \(superclassName) do not prefix this class's fields")
                }
                start = end
            } else {
                guard let reference = layout.size else { return .unavailable("the object header size is unknown") }
                inherited = 0
                start = 2 * reference
            }
        } else {
            inherited = 0
            start = 0
        }
        let own = Array(fields[inherited...])
        guard own.count > 1 else { return .unavailable("fewer than two fields to reorder") }

        var members: [Member] = []
        for field in own {
            guard let alignment = alignmentOf(field), alignment > 0, alignment <= plausibleLimit else {
                return .unavailable("the alignment of field '\(field.name)' (\(field.type)) is unknown")
            }
            members.append(Member(name: field.name, size: field.size ?? 0, alignment: alignment))
        }

        // The rule must reproduce what was observed, or the alignments are wrong.
        let (offsets, currentEnd) = place(members, from: start)
        for (field, offset) in zip(own, offsets) where field.offset != offset {
            return .unavailable(
                "field '\(field.name)' is at offset \(field.offset ?? 0), not at \(offset) where declaration-order layout with the known alignments puts it"
            )
        }
        let typeAlignment = layout.kind == .class ? (layout.instanceAlignment ?? 1) : (layout.alignment ?? 1)
        let maxAlignment = max(typeAlignment, members.map(\.alignment).max() ?? 1)
        let currentSize: Int
        let sizeIsPadded: Bool
        if layout.kind == .class {
            guard layout.instanceSize == currentEnd else {
                return .unavailable("the instance size \(LayoutValue(layout.instanceSize)) does not end at the last field (\(currentEnd))")
            }
            currentSize = currentEnd
            sizeIsPadded = false
        } else if layout.size == currentEnd {
            currentSize = currentEnd  // Swift: size excludes tail padding.
            sizeIsPadded = false
        } else if layout.size == roundUp(currentEnd, maxAlignment) {
            currentSize = roundUp(currentEnd, maxAlignment)  // C: sizeof includes tail padding.
            sizeIsPadded = true
        } else {
            return .unavailable("the size \(LayoutValue(layout.size)) does not follow from the fields")
        }
        func stride(ofEnd end: Int) -> Int {
            layout.kind == .class ? end : max(1, roundUp(end, maxAlignment))
        }
        func size(ofEnd end: Int) -> Int {
            sizeIsPadded ? roundUp(end, maxAlignment) : end
        }

        let candidates = [
            members.enumerated().sorted { lhs, rhs in
                lhs.element.alignment != rhs.element.alignment
                    ? lhs.element.alignment > rhs.element.alignment
                    : lhs.offset < rhs.offset
            }.map(\.element),
            members.enumerated().sorted { lhs, rhs in
                if lhs.element.alignment != rhs.element.alignment { return lhs.element.alignment > rhs.element.alignment }
                if lhs.element.isWhole != rhs.element.isWhole { return lhs.element.isWhole }
                return lhs.offset < rhs.offset
            }.map(\.element),
        ]
        let currentStride = stride(ofEnd: currentEnd)
        var best: ReorderSuggestion?
        for candidate in candidates {
            let end = place(candidate, from: start).end
            let suggestion = ReorderSuggestion(
                order: candidate.map(\.name), currentSize: currentSize, suggestedSize: size(ofEnd: end),
                currentStride: currentStride, suggestedStride: stride(ofEnd: end)
            )
            if suggestion.suggestedStride < (best?.suggestedStride ?? currentStride)
                || (suggestion.suggestedStride == (best?.suggestedStride ?? currentStride)
                    && suggestion.suggestedSize < (best?.suggestedSize ?? currentSize))
            {
                best = suggestion
            }
        }
        guard let best else { return .unavailable("no order of these fields takes fewer bytes") }
        return .suggested(best)
    }

    /// What ``suggestReorder(_:alignmentOf:superclass:)`` found: an order, or why there is none.
    enum ReorderOutcome {
        /// An order that takes fewer bytes.
        case suggested(ReorderSuggestion)
        /// No suggestion, and the reason shown to the user.
        case unavailable(String)
    }

    /// Larger than any real layout, small enough that sums of a few such numbers cannot overflow.
    private static let plausibleLimit = 1 << 40

    private struct Member {
        var name: String
        var size: Int
        var alignment: Int
        /// Whether the size is a multiple of the alignment (nothing left over for a smaller field).
        var isWhole: Bool { size % alignment == 0 }
    }

    private static func place(_ members: [Member], from start: Int) -> (offsets: [Int], end: Int) {
        var cursor = start
        var offsets: [Int] = []
        for member in members {
            let offset = roundUp(cursor, member.alignment)
            offsets.append(offset)
            cursor = offset + member.size
        }
        return (offsets, cursor)
    }

    private static func roundUp(_ value: Int, _ alignment: Int) -> Int {
        guard alignment > 1 else { return value }
        return (value + alignment - 1) / alignment * alignment
    }
}

/// Alignments of field types, answered from layouts that are known (the types of the same
/// image, the running process, a table the caller supplies), for ``LayoutHoles``.
///
/// A field whose type is not known gets no alignment; nothing is guessed from its size.
public struct LayoutAlignments: Sendable {
    private var byName: [String: Int]

    /// Creates a table from known layouts: each type's name maps to its `alignment`.
    ///
    /// - Parameter types: layouts whose alignment is known.
    public init(_ types: [TypeLayout] = []) {
        byName = [:]
        for type in types {
            if let alignment = type.alignment, byName[type.name] == nil { byName[type.name] = alignment }
        }
    }

    /// Adds or replaces the alignment of a type name.
    ///
    /// - Parameters:
    ///   - alignment: the alignment in bytes.
    ///   - typeName: the type's name as fields spell it.
    public mutating func set(_ alignment: Int, for typeName: String) {
        byName[typeName] = alignment
    }

    /// The alignment of a type, by name. `T?` and `Swift.Optional<T>` have `T`'s alignment
    /// (an optional adds at most a tag byte after the payload).
    ///
    /// - Parameter typeName: the type's name as fields spell it.
    /// - Returns: the alignment, or `nil` when unknown.
    public func alignment(ofType typeName: String) -> Int? {
        if let known = byName[typeName] { return known }
        if typeName.hasSuffix("?") { return alignment(ofType: String(typeName.dropLast())) }
        for prefix in ["Swift.Optional<", "Optional<"] where typeName.hasPrefix(prefix) && typeName.hasSuffix(">") {
            return alignment(ofType: String(typeName.dropFirst(prefix.count).dropLast()))
        }
        return nil
    }

    /// The alignment of a field's type: the reader's own answer when it gave one, else the
    /// table's; pass it as `alignmentOf:` to ``LayoutHoles``.
    ///
    /// - Parameter field: the field.
    /// - Returns: the alignment, or `nil` when unknown.
    public func alignment(of field: FieldLayout) -> Int? {
        field.alignment ?? alignment(ofType: field.type)
    }
}
