import BinaryInfo
import TypeLayout
import TypeLowering

/// Where the references of a heap's Swift objects lie (``AllocationReferenceLayouts``), from
/// the toolchain's lowering of their classes' stored properties as libswiftRemoteMirror lays
/// them out in the target, asked in a few batches for every class a census of the heap's first words found.
///
/// A word is a strong reference when the lowering says so all the way down: a class reference
/// (or `Optional` of one), a closure's context, an `AnyObject` or class-bound existential's
/// object, an `Error` box, within stored properties, structs, tuples and single-payload enums
/// (their payload). Elements of `_ContiguousArrayStorage<T>` are laid out by `T`'s lowering and
/// counted by the storage's `countAndCapacity`. Everything else (multi-payload enums, opaque
/// existentials' buffers, raw pointers, `Unmanaged`, weak and unowned references, resilient or
/// unlisted types, dictionary and set storage, an actor's own state) has no strong words: the
/// marking still scans those words, after the references. Closure contexts are planned from their
/// captures (``contextRepresentatives(firstWords:addresses:classes:_:)``), generic closures' not.
struct ReferencePlans {
    let inspector: TargetInspector
    /// Layouts by mangling; nil for one the library could not lay out.
    private var layouts: [String: (layout: TargetTypeLayout, children: [TargetField])?] = [:]
    /// The deepest nesting of structs, tuples and enums followed.
    static let depthLimit = 12

    init(inspector: TargetInspector) { self.inspector = inspector }

    /// Reference word offsets of a value, relative to its start.
    struct Words: Equatable {
        var strong: [UInt32] = []
        var weak: [UInt32] = []
        var unowned: [UInt32] = []

        /// Adds `inner`'s words at `base`, those that end within `limit` bytes.
        mutating func add(_ inner: Words, at base: Int, limit: Int?) {
            func moved(_ offsets: [UInt32]) -> [UInt32] {
                offsets.compactMap { offset in
                    let moved = Int(offset) + base
                    guard moved >= 0, moved <= Int(UInt32.max) - 8, limit.map({ moved + 8 <= $0 }) ?? true else { return nil }
                    return UInt32(moved)
                }
            }
            strong += moved(inner.strong)
            weak += moved(inner.weak)
            unowned += moved(inner.unowned)
        }
    }

    /// The plans of `classes` (class metadata addresses, as a census found them among a heap's
    /// first words), and of every closure context metadata among `contextCandidates` whose
    /// captures' layout is fixed; a class whose stored properties the library cannot list, or a
    /// context whose captures it cannot lay out, has none.
    ///
    /// - Throws: what the worker throws.
    static func build(classes: [UInt64], contextCandidates: ContextCandidates, _ inspector: TargetInspector) throws(TypeLoweringError)
        -> AllocationReferenceLayouts
    {
        guard inspector.images.contains(where: \.isSwift) else { return .none }
        let contexts = contextCandidates.representatives(besides: Set(classes), inspector)
        guard !classes.isEmpty || !contexts.isEmpty else { return .none }
        var fields = classes.isEmpty ? [:] : try inspector.storedFields(ofClassesAt: classes)
        let manglings = try inspector.manglings(ofMetadata: Array(fields.keys))
        fields.merge(try contextFields(contexts, inspector)) { listed, _ in listed }
        var builder = ReferencePlans(inspector: inspector)
        return AllocationReferenceLayouts(plans: try builder.plans(fields: fields, manglings: manglings))
    }

    /// The plan of each class of `fields`, asking for the layouts they need a batch a round.
    mutating func plans(fields: [UInt64: [TargetField]], manglings: [UInt64: String]) throws(TypeLoweringError)
        -> [UInt64: AllocationReferencePlan]
    {
        var plans: [UInt64: AllocationReferencePlan] = [:]
        for _ in 0...Self.depthLimit {
            var wanted: Set<String> = []
            plans = [:]
            for (metadata, list) in fields {
                guard let plan = plan(fields: list, mangling: manglings[metadata], wanted: &wanted) else { continue }
                plans[metadata] = plan
            }
            if wanted.isEmpty { break }
            let found = try inspector.layouts(ofTypes: Array(wanted))
            for mangling in wanted { layouts[mangling] = .some(found[mangling]) }
        }
        // A class still wanting layouts past the depth limit has no plan.
        return plans
    }

    /// One class's plan; nil when a layout it needs is not known yet (added to `wanted`).
    private func plan(fields: [TargetField], mangling: String?, wanted: inout Set<String>) -> AllocationReferencePlan? {
        var words = Words()
        var complete = true
        for field in fields {
            guard let inner = self.words(kind: field.kind, mangling: field.mangledTypeName, depth: 0, wanted: &wanted) else {
                complete = false
                continue
            }
            words.add(inner, at: field.offset, limit: nil)
        }
        var elements: AllocationReferencePlan.Elements?
        if let mangling, mangling.hasPrefix(Self.arrayStorage), let argument = LibraryManglings.soleGenericArgument(of: mangling),
            let count = fields.first(where: { $0.name == "countAndCapacity" })
        {
            switch elementWords(argument, wanted: &wanted) {
            case .some((let element, let stride, let alignment))?:
                // The elements follow the stored properties, at the element's alignment.
                let sizes = fields.map { $0.size(in: self) }
                let end = zip(fields, sizes).map { $0.offset + ($1 ?? 0) }.max() ?? 0
                let start = (end + alignment - 1) / alignment * alignment
                if !sizes.contains(nil), stride > 0, stride <= Int(UInt32.max), start <= Int(UInt32.max) {
                    elements = .init(
                        start: UInt32(start), stride: UInt32(stride), countOffset: UInt32(count.offset), strong: element.strong)
                }
            case .some(nil): break
            case nil: complete = false
            }
        }
        guard complete else { return nil }
        return AllocationReferencePlan(
            strong: Array(Set(words.strong)).sorted(), weak: Array(Set(words.weak)).sorted(), unowned: Array(Set(words.unowned)).sorted(),
            elements: elements)
    }

    /// The mangling every `_ContiguousArrayStorage<T>` instantiation's starts with.
    static let arrayStorage = "s23_ContiguousArrayStorageC"

    /// An array element type's words, stride and alignment: nil when its layout is not known yet,
    /// `.some(nil)` when it cannot be laid out.
    private func elementWords(_ mangling: String, wanted: inout Set<String>) -> (Words, stride: Int, alignment: Int)?? {
        guard let known = layouts[mangling] else {
            wanted.insert(mangling)
            return nil
        }
        guard let known, known.layout.alignment > 0, known.layout.alignment <= 16 else { return .some(nil) }
        guard let words = words(kind: known.layout.kind, mangling: mangling, depth: 0, wanted: &wanted) else { return nil }
        var clipped = Words()
        clipped.add(words, at: 0, limit: known.layout.size)
        return .some((clipped, known.layout.stride, known.layout.alignment))
    }

    /// The reference words of a value of a type lowered as `kind`; nil when a layout it needs is
    /// not known yet (added to `wanted`).
    func words(kind: LoweredKind?, mangling: String?, depth: Int, wanted: inout Set<String>) -> Words? {
        switch kind {
        case .strongReference?, .classExistential?, .errorExistential?: return Words(strong: [0])
        case .weakReference?: return Words(weak: [0])
        case .unownedReference?: return Words(unowned: [0])
        // A closure value is its function's address, then its context.
        case .thickFunction?: return Words(strong: [8])
        case .struct?, .tuple?, .singlePayloadEnum?:
            guard depth < Self.depthLimit, let mangling else { return Words() }
            guard let known = layouts[mangling] else {
                wanted.insert(mangling)
                return nil
            }
            guard let known else { return Words() }
            var words = Words()
            if kind == .singlePayloadEnum {
                // The payload case's value lies at the start; the other cases are values no
                // pointer has (extra inhabitants) or a tag beside it.
                let payloads = known.children.filter { $0.mangledTypeName != nil }
                guard payloads.count == 1, let payload = payloads.first else { return Words() }
                guard let inner = self.words(kind: payload.kind, mangling: payload.mangledTypeName, depth: depth + 1, wanted: &wanted)
                else { return nil }
                words.add(inner, at: 0, limit: known.layout.size)
                return words
            }
            var complete = true
            for child in known.children {
                guard let inner = self.words(kind: child.kind, mangling: child.mangledTypeName, depth: depth + 1, wanted: &wanted) else {
                    complete = false
                    continue
                }
                words.add(inner, at: child.offset, limit: known.layout.size)
            }
            return complete ? words : nil
        default:
            // Integers, floats, raw pointers, `Unmanaged`, multi-payload enums, opaque
            // existentials, metatypes, unknown or resilient layouts: no word known to be a
            // strong reference.
            return Words()
        }
    }
}

extension TargetField {
    /// The field's size as the builder knows it (a word for a one-word reference, else its
    /// type's layout), nil when not known.
    fileprivate func size(in builder: ReferencePlans) -> Int? {
        if FieldResolver.oneWordKinds.contains(kind ?? .unknown) { return 8 }
        return builder.size(of: mangledTypeName)
    }
}

extension ReferencePlans {
    fileprivate func size(of mangling: String?) -> Int? {
        guard let mangling, let known = layouts[mangling] ?? nil else { return nil }
        return known.layout.size
    }
}
