import BinaryInfo
import TypeLayout
import TypeLowering

/// The values of one object and what they lead to, built from what the reflection library has
/// answered so far (``LiveObjectReader``).
///
/// Each pass walks the whole report and collects what it still needs; the reader asks that in
/// one batch and walks again. Every answer is kept (a value, or why there is none), so each round
/// learns something new and the passes end. A pass marked ``finalPass`` takes whatever has not
/// been answered as unknown, so a report always comes out.
final class ObjectWalk {
    /// How many rounds of questions a report may take before what is still unanswered is unknown:
    /// each level of `--depth` and each level of nested enum payloads can take one.
    static let maximumRounds = 64
    /// Values nested deeper than this inside one field are unknown: real types are far shallower,
    /// and a corrupt one must not recurse without end.
    static let maximumNesting = 32

    struct Needs {
        var layouts: Set<String> = []
        var cases: [String: (mangling: String, address: UInt64)] = [:]
        var names: Set<UInt64> = []
        var classFields: Set<UInt64> = []
        var isEmpty: Bool { layouts.isEmpty && cases.isEmpty && names.isEmpty && classFields.isEmpty }
    }

    let inspector: TargetInspector
    var memory: TargetMemory { inspector.memory }
    var needs = Needs()
    /// Whether this pass must finish: what the library has not answered is unknown now.
    var finalPass = false
    /// The objects this pass has shown (the first one included), each shown once.
    private(set) var shown: Set<UInt64> = []
    /// References this pass did not follow because the report holds ``LiveObjectReader/objectLimit`` objects.
    private(set) var unfollowed = 0
    private var layouts: [String: Answer<(layout: TargetTypeLayout, children: [TargetField])>] = [:]
    private var cases: [String: Answer<(index: Int, name: String)>] = [:]
    private var names: [UInt64: Answer<String>] = [:]
    private var classFields: [UInt64: Answer<[TargetField]>] = [:]

    /// What the library answered to one question: the answer, or why there is none.
    enum Answer<Value> {
        case known(Value)
        case unknown(String)
    }

    static let unanswered = "the reflection library had not answered after \(maximumRounds) rounds of questions"

    init(inspector: TargetInspector) {
        self.inspector = inspector
    }

    /// Starts a pass.
    func beginPass(final: Bool) {
        needs = Needs()
        finalPass = final
        shown = []
        unfollowed = 0
    }

    /// Asks the library everything the last pass needed, in one batch per kind of question. A
    /// batch the worker fails on leaves its questions unknown with the worker's reason; only a
    /// target that can no longer be read ends the reading.
    func answerNeeds() throws(TypeLoweringError) {
        if !needs.layouts.isEmpty {
            let asked = needs.layouts
            let answered = try answering(asked.count) { () throws(TypeLoweringError) in try inspector.layouts(ofTypes: Array(asked)) }
            for mangling in asked {
                layouts[mangling] =
                    answered.value[mangling].map(Answer.known)
                    ?? .unknown(answered.failure ?? "the reflection library cannot lay out its type")
            }
        }
        if !needs.cases.isEmpty {
            let asked = needs.cases
            let answered = try answering(asked.count) { () throws(TypeLoweringError) in try inspector.enumCases(of: Array(asked.values)) }
            for key in asked.keys {
                cases[key] =
                    answered.value[key].map(Answer.known) ?? .unknown(answered.failure ?? "the reflection library cannot tell its case")
            }
        }
        if !needs.names.isEmpty {
            let asked = needs.names
            let answered = try answering(asked.count) { () throws(TypeLoweringError) in try inspector.typeNames(ofMetadata: Array(asked)) }
            for metadata in asked {
                names[metadata] =
                    answered.value[metadata].map(Answer.known) ?? .unknown(answered.failure ?? "the reflection library cannot name it")
            }
        }
        if !needs.classFields.isEmpty {
            let asked = needs.classFields
            let answered = try answering(asked.count) { () throws(TypeLoweringError) in
                try inspector.storedFields(ofClassesAt: Array(asked))
            }
            for metadata in asked {
                classFields[metadata] =
                    answered.value[metadata].map(Answer.known)
                    ?? .unknown(answered.failure ?? "the reflection library cannot list its stored properties")
            }
        }
    }

    /// The answers of one batch, or no answers and the worker's failure as the reason.
    private func answering<Key, Value>(
        _ count: Int, _ question: () throws(TypeLoweringError) -> [Key: Value]
    ) throws(TypeLoweringError) -> (value: [Key: Value], failure: String?) {
        do {
            return (try question(), nil)
        } catch {
            if case .target = error { throw error }
            return ([:], "the lowering worker failed on the question: \(error)")
        }
    }

    /// The object at `address`, or nil while the library has not answered what it needs.
    func object(at address: UInt64, depth: Int) throws(LiveReadingError) -> ObjectReport? {
        let metadataWord = try read(UInt64.self, at: address, "the object's first word")
        guard let metadata = inspector.classMetadata(at: metadataWord) else { return nil }
        shown.insert(address)
        let name = typeName(metadata: metadata.address)
        let fields = fields(ofClass: metadata.address)
        guard case .known(let list)? = fields else {
            // No stored properties to show: the object is still its type and size, with the reason.
            guard case .unknown(let reason)? = fields, let name else { return nil }
            return ObjectReport(address: address, type: name, size: Int(metadata.instanceSize), fields: [], unknownFields: reason)
        }
        var values: [ObjectField] = []
        for field in list {
            let value = try value(
                at: address &+ UInt64(field.offset), mangling: field.mangledTypeName, kind: field.kind, depth: depth, nesting: 0)
            values.append(
                ObjectField(
                    name: field.name, type: field.typeName, offset: field.offset, value: value ?? .unknown("pending"),
                    typeUnknown: Self.whyUntyped(field)))
        }
        guard let name else { return nil }
        return ObjectReport(address: address, type: name, size: Int(metadata.instanceSize), fields: values)
    }

    /// Why a field's type has no name (nil when it has one).
    static func whyUntyped(_ field: TargetField) -> String? {
        field.whyUnnamed
    }

    /// An answer, nil while it is pending (the question noted in ``needs`` by `ask`); in the
    /// final pass, unknown.
    private func answer<Value>(_ known: Answer<Value>?, ask: () -> Void) -> Answer<Value>? {
        if let known { return known }
        if finalPass { return .unknown(Self.unanswered) }
        ask()
        return nil
    }

    private func typeName(metadata: UInt64) -> String? {
        switch answer(names[metadata], ask: { needs.names.insert(metadata) }) {
        case .known(let name)?: return name
        case .unknown?: return "<class metadata 0x\(String(metadata, radix: 16))>"
        case nil: return nil
        }
    }

    private func fields(ofClass metadata: UInt64) -> Answer<[TargetField]>? {
        answer(classFields[metadata], ask: { needs.classFields.insert(metadata) })
    }

    private func layout(_ mangling: String) -> Answer<(layout: TargetTypeLayout, children: [TargetField])>? {
        answer(layouts[mangling], ask: { needs.layouts.insert(mangling) })
    }

    private func read<T: FixedWidthInteger>(_ type: T.Type, at address: UInt64, _ what: String) throws(LiveReadingError) -> T {
        do {
            return try memory.read(type, at: address, what: what)
        } catch {
            throw .target(error)
        }
    }

    /// The value of type `mangling` at `address`; nil while an answer it needs is pending.
    func value(at address: UInt64, mangling: String?, kind: LoweredKind?, depth: Int, nesting: Int) throws(LiveReadingError) -> ObjectValue?
    {
        guard nesting < Self.maximumNesting else { return .unknown("nested more than \(Self.maximumNesting) levels") }
        guard let mangling else { return .unknown("the reflection library gives no type for it") }
        do {
            if let scalar = try ScalarValue.read(mangling: mangling, at: address, in: memory) { return scalar }
            if mangling == "SS" {
                let words = try memory.bytes(at: address, count: 16, what: "a String")
                let (first, second) = words.withUnsafeBytes {
                    ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
                guard let contents = try StandardLibraryValues.string(countAndFlags: first, object: second, in: memory) else {
                    return .unknown("a bridged or foreign String, whose bytes are not in the target")
                }
                return .string(contents.text, truncatedFrom: contents.isTruncated ? contents.utf8Count : nil)
            }
        } catch {
            return .unknown("\(error)")
        }
        if mangling.hasPrefix("Say"), mangling.hasSuffix("G"), mangling.count > 4 {
            return try arrayValue(at: address, element: String(mangling.dropFirst(3).dropLast()), depth: depth, nesting: nesting)
        }
        switch kind {
        case .strongReference?, .unownedReference?, .unmanagedReference?:
            return try referenceValue(at: address, depth: depth)
        case .weakReference?:
            return .unknown("a weak reference (its side table is not read)")
        case .struct?, .tuple?:
            guard let found = layout(mangling) else { return nil }
            guard case .known((_, let children)) = found else { return .unknown(found.reason) }
            var fields: [ObjectField] = []
            var pending = false
            for child in children {
                let value = try value(
                    at: address &+ UInt64(child.offset), mangling: child.mangledTypeName, kind: child.kind, depth: depth,
                    nesting: nesting + 1)
                if value == nil { pending = true }
                fields.append(
                    ObjectField(
                        name: child.name, type: child.typeName, offset: child.offset, value: value ?? .unknown("pending"),
                        typeUnknown: Self.whyUntyped(child)))
            }
            return pending ? nil : .aggregate(fields)
        case .noPayloadEnum?, .singlePayloadEnum?, .multiPayloadEnum?:
            return try enumValue(at: address, mangling: mangling, depth: depth, nesting: nesting)
        default:
            return .unknown("a value of kind \(kind?.wireName ?? "unknown"), which typeinfo does not read yet")
        }
    }

    private func enumValue(at address: UInt64, mangling: String, depth: Int, nesting: Int) throws(LiveReadingError) -> ObjectValue? {
        guard let found = layout(mangling) else { return nil }
        guard case .known((_, let children)) = found else { return .unknown(found.reason) }
        let key = TargetInspector.enumKey(mangling, address)
        guard let answered = answer(cases[key], ask: { needs.cases[key] = (mangling, address) }) else { return nil }
        guard case .known((let index, let name)) = answered else { return .unknown(answered.reason) }
        guard index < children.count else { return .unknown("case \(index) of an enum with \(children.count) cases") }
        guard let payloadType = children[index].mangledTypeName else { return .enumCase(name, payload: nil) }
        // A payload starts at the value's address, whatever the case; an indirect case's is a
        // reference to a box that holds it, which the library types as Builtin.NativeObject.
        if children[index].kind == .strongReference, payloadType == "Bo",
            let word = try? memory.read(UInt64.self, at: address, what: "an indirect payload")
        {
            let box = word & Self.objectPointerBits
            switch boxPayload(of: box) {
            case .known(let boxed)?:
                if let boxedType = boxed.mangling {
                    guard let found = layout(boxedType) else { return nil }
                    if case .known((let boxedLayout, _)) = found {
                        guard
                            let payload = try value(
                                at: boxed.address, mangling: boxedType, kind: boxedLayout.kind, depth: depth, nesting: nesting + 1)
                        else { return nil }
                        return .enumCase(name, payload: payload)
                    }
                }
                return .enumCase(
                    name,
                    payload: .unknown(
                        "an indirect case: its payload is at 0x\(String(boxed.address, radix: 16)) in the box 0x\(String(box, radix: 16)), "
                            + "whose type neither the reflection library nor the box's metadata gives"))
            case .unknown(let reason)?: return .enumCase(name, payload: .unknown(reason))
            case nil: break
            }
        }
        guard
            let payload = try value(
                at: address, mangling: payloadType, kind: children[index].kind, depth: depth, nesting: nesting + 1)
        else { return nil }
        return .enumCase(name, payload: payload)
    }

    private func referenceValue(at address: UInt64, depth: Int) throws(LiveReadingError) -> ObjectValue? {
        let object = try read(UInt64.self, at: address, "a reference")
        let metadataWord: UInt64
        do {
            metadataWord = try memory.read(UInt64.self, at: object, what: "the referenced object's first word")
        } catch {
            return .unknown("it points to 0x\(String(object, radix: 16)), which the target does not hold")
        }
        guard let metadata = inspector.classMetadata(at: metadataWord) else {
            return .reference(object, type: nil, object: nil)
        }
        guard let name = typeName(metadata: metadata.address) else { return nil }
        guard depth > 0 else { return .reference(object, type: name, object: nil) }
        if shown.contains(object) { return .alreadyShown(object, type: name) }
        guard shown.count < ObjectReport.objectLimit else {
            unfollowed += 1
            return .reference(object, type: name, object: nil)
        }
        guard let followed = try self.object(at: object, depth: depth - 1) else { return nil }
        return .reference(object, type: name, object: followed)
    }

    private func arrayValue(at address: UInt64, element: String, depth: Int, nesting: Int) throws(LiveReadingError) -> ObjectValue? {
        guard let found = layout(element) else { return nil }
        guard case .known((let layout, _)) = found else { return .unknown("its element type: \(found.reason)") }
        let storage = try read(UInt64.self, at: address, "an array's storage reference")
        let contents: ArrayContents
        do {
            contents = try StandardLibraryValues.array(storage: storage, elementAlignment: layout.alignment, in: memory)
        } catch {
            return .unknown("\(error)")
        }
        var elements: [ObjectValue] = []
        var pending = false
        for index in 0..<min(contents.count, LiveObjectReader.elementLimit) {
            let (offset, overflow) = UInt64(index).multipliedReportingOverflow(by: UInt64(layout.stride))
            guard !overflow else { break }
            let value = try value(
                at: contents.elementsAddress &+ offset, mangling: element, kind: layout.kind, depth: depth, nesting: nesting + 1)
            if value == nil { pending = true }
            elements.append(value ?? .unknown("pending"))
        }
        return pending ? nil : .array(count: contents.count, elements: elements, storage: storage)
    }
}

extension ObjectWalk.Answer {
    /// Why there is no answer (empty for a known one).
    var reason: String {
        if case .unknown(let reason) = self { return reason }
        return ""
    }
}
