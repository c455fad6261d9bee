import BinaryInfo
import TypeLayout
import TypeLowering

/// Which stored property of a Swift object holds the word at an offset: the class's fields as
/// the reflection library lists them, descending into structs and tuples as it lays them out;
/// array storage's elements by the storage's stride.
struct FieldResolver {
    let inspector: TargetInspector
    private var layouts: [String: (layout: TargetTypeLayout, children: [TargetField])?] = [:]

    init(inspector: TargetInspector) { self.inspector = inspector }

    /// An object's class metadata and the offset of a word in it.
    struct Question: Hashable {
        var metadata: UInt64
        var offset: UInt64
    }

    /// The references that are one word: a word inside one is at its offset.
    static let oneWordKinds: Set<LoweredKind> = [.strongReference, .unownedReference, .unmanagedReference, .weakReference, .rawPointer]

    /// The part each question's word is in.
    mutating func resolve(_ questions: Set<Question>, fields: [UInt64: [TargetField]], names: [UInt64: String]) throws(LiveReadingError)
        -> [Question: RetainersReport.Part]
    {
        // Each question walks down: the fields it is among, the path so far, the offset left.
        struct Walk {
            var fields: [TargetField]
            var path: [String]
            var offset: UInt64
            var isArray: Bool
        }
        var walks: [Question: Walk] = [:]
        for question in questions {
            let name = names[question.metadata] ?? ""
            walks[question] = Walk(
                fields: fields[question.metadata] ?? [], path: [], offset: question.offset,
                isArray: name.hasPrefix("Swift._ContiguousArrayStorage<"))
        }
        var answers: [Question: RetainersReport.Part] = [:]
        for _ in 0..<8 where !walks.isEmpty {
            // The layouts this round needs, in one batch.
            var wanted: Set<String> = []
            for walk in walks.values {
                for field in walk.fields where !Self.oneWordKinds.contains(field.kind ?? .unknown) {
                    if let mangling = field.mangledTypeName, layouts[mangling] == nil { wanted.insert(mangling) }
                }
            }
            if !wanted.isEmpty {
                do throws(TypeLoweringError) {
                    let found = try inspector.layouts(ofTypes: Array(wanted))
                    for mangling in wanted { layouts[mangling] = .some(found[mangling]) }
                } catch {
                    throw .lowering(error)
                }
            }
            for (question, walk) in walks {
                walks[question] = nil
                switch step(walk.fields, offset: walk.offset) {
                case .inField(let field, let inner, let children) where children.isEmpty:
                    answers[question] = .field(path: walk.path + [field.name], unowned: field.kind == .unownedReference && inner == 0)
                case .inField(let field, let inner, let children):
                    walks[question] = Walk(fields: children, path: walk.path + [field.name], offset: inner, isArray: false)
                case .past(let end) where walk.isArray && walk.path.isEmpty:
                    // `_ContiguousArrayStorage<AnyObject>` (every `[C]` of a class C) holds
                    // references, a word each, from the end of its stored properties.
                    if names[question.metadata] == "Swift._ContiguousArrayStorage<Swift.AnyObject>", (walk.offset - end) % 8 == 0 {
                        answers[question] = .element(index: Int((walk.offset - end) / 8))
                    } else {
                        answers[question] = .offset(
                            question.offset,
                            unknown: "in the array's elements, from +0x\(String(end, radix: 16)); the element type's stride is not read")
                    }
                case .past:
                    answers[question] = .offset(
                        question.offset,
                        unknown: walk.path.isEmpty
                            ? "past the stored properties (tail-allocated memory)"
                            : "in \(walk.path.joined(separator: ".")), in no field its layout lists")
                case .unknown(let reason):
                    answers[question] = .offset(question.offset, unknown: reason)
                }
            }
        }
        for question in walks.keys { answers[question] = .offset(question.offset, unknown: "nested deeper than typeinfo follows") }
        return answers
    }

    enum Step {
        /// In `field`, `inner` bytes into it; `children` are its fields when it is a struct or tuple.
        case inField(TargetField, inner: UInt64, children: [TargetField])
        /// Past every field; `end` is where the last one ends.
        case past(end: UInt64)
        case unknown(String)
    }

    /// The field among `fields` that holds `offset`.
    func step(_ fields: [TargetField], offset: UInt64) -> Step {
        var end: UInt64 = 0
        var fieldAfter = false
        var unsized: TargetField?
        for field in fields {
            let start = UInt64(field.offset)
            guard start <= offset else {
                fieldAfter = true
                continue
            }
            var size: UInt64?
            var children: [TargetField] = []
            if Self.oneWordKinds.contains(field.kind ?? .unknown) {
                size = 8
            } else if let mangling = field.mangledTypeName, let known = layouts[mangling] ?? nil {
                size = UInt64(known.layout.size)
                if known.layout.kind == .struct || known.layout.kind == .tuple { children = known.children }
            }
            guard let size else {
                if unsized.map({ $0.offset < field.offset }) ?? true { unsized = field }
                continue
            }
            if offset < start + size { return .inField(field, inner: offset - start, children: children) }
            end = max(end, start + size)
        }
        if let unsized { return .unknown("in or past stored property \(unsized.name), whose type's layout was not read") }
        return fieldAfter ? .unknown("between stored properties (padding)") : .past(end: end)
    }
}
