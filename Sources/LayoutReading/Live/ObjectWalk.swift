import BinaryInfo
import TypeLayout
import TypeLowering

/// The values of one object and what they lead to, built from what the reflection library has
/// answered so far (``LiveObjectReader``).
final class ObjectWalk {
    /// The deepest nesting of questions an object's values may take (enum payloads of structs of
    /// enum payloads…).
    static let maximumRounds = 12
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
    private var layouts: [String: (layout: TargetTypeLayout, children: [TargetField])] = [:]
    private var unknownLayouts: Set<String> = []
    private var cases: [String: (index: Int, name: String)] = [:]
    private var unknownCases: Set<String> = []
    private var names: [UInt64: String] = [:]
    private var unnamed: Set<UInt64> = []
    private var classFields: [UInt64: [TargetField]] = [:]
    private var fieldless: Set<UInt64> = []

    init(inspector: TargetInspector) {
        self.inspector = inspector
    }

    /// Asks the library everything the last pass needed, in one batch per kind of question.
    func answerNeeds() throws(TypeLoweringError) {
        if !needs.layouts.isEmpty {
            let answered = try inspector.layouts(ofTypes: Array(needs.layouts))
            for mangling in needs.layouts {
                if let layout = answered[mangling] { layouts[mangling] = layout } else { unknownLayouts.insert(mangling) }
            }
        }
        if !needs.cases.isEmpty {
            let answered = try inspector.enumCases(of: Array(needs.cases.values))
            for key in needs.cases.keys {
                if let found = answered[key] { cases[key] = found } else { unknownCases.insert(key) }
            }
        }
        if !needs.names.isEmpty {
            let answered = try inspector.typeNames(ofMetadata: Array(needs.names))
            for metadata in needs.names {
                if let name = answered[metadata] { names[metadata] = name } else { unnamed.insert(metadata) }
            }
        }
        for metadata in needs.classFields {
            if let fields = try inspector.storedFields(ofClassAt: metadata) {
                classFields[metadata] = fields
            } else {
                fieldless.insert(metadata)
            }
        }
    }

    /// The object at `address`, or nil while the library has not answered what it needs.
    func object(at address: UInt64, depth: Int) throws(LiveReadingError) -> ObjectReport? {
        let metadataWord = try read(UInt64.self, at: address, "the object's first word")
        guard let metadata = inspector.classMetadata(at: metadataWord) else { return nil }
        let name = typeName(metadata: metadata.address)
        guard let fields = fields(ofClass: metadata.address) else { return nil }
        var values: [ObjectField] = []
        for field in fields {
            let value = try value(
                at: address &+ UInt64(field.offset), mangling: field.mangledTypeName, kind: field.kind, depth: depth, nesting: 0)
            values.append(ObjectField(name: field.name, type: field.typeName, offset: field.offset, value: value ?? .unknown("pending")))
        }
        guard let name else { return nil }
        return ObjectReport(address: address, type: name, size: Int(metadata.instanceSize), fields: values)
    }

    private func typeName(metadata: UInt64) -> String? {
        if let name = names[metadata] { return name }
        if unnamed.contains(metadata) { return "<class metadata 0x\(String(metadata, radix: 16))>" }
        needs.names.insert(metadata)
        return nil
    }

    private func fields(ofClass metadata: UInt64) -> [TargetField]? {
        if let fields = classFields[metadata] { return fields }
        if fieldless.contains(metadata) { return [] }
        needs.classFields.insert(metadata)
        return nil
    }

    private func layout(_ mangling: String) -> (layout: TargetTypeLayout, children: [TargetField])?? {
        if let known = layouts[mangling] { return known }
        if unknownLayouts.contains(mangling) { return .some(nil) }
        needs.layouts.insert(mangling)
        return nil
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
            guard let (_, children) = found else { return .unknown("the reflection library cannot lay out its type") }
            var fields: [ObjectField] = []
            var pending = false
            for child in children {
                let value = try value(
                    at: address &+ UInt64(child.offset), mangling: child.mangledTypeName, kind: child.kind, depth: depth,
                    nesting: nesting + 1)
                if value == nil { pending = true }
                fields.append(
                    ObjectField(name: child.name, type: child.typeName, offset: child.offset, value: value ?? .unknown("pending")))
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
        guard let (_, children) = found else { return .unknown("the reflection library cannot lay out its type") }
        let key = TargetInspector.enumKey(mangling, address)
        if unknownCases.contains(key) { return .unknown("the reflection library cannot tell its case") }
        guard let (index, name) = cases[key] else {
            needs.cases[key] = (mangling, address)
            return nil
        }
        guard index < children.count else { return .unknown("case \(index) of an enum with \(children.count) cases") }
        guard let payloadType = children[index].mangledTypeName else { return .enumCase(name, payload: nil) }
        // A payload starts at the value's address, whatever the case (indirect cases are boxes).
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
        guard let followed = try self.object(at: object, depth: depth - 1) else { return nil }
        return .reference(object, type: name, object: followed)
    }

    private func arrayValue(at address: UInt64, element: String, depth: Int, nesting: Int) throws(LiveReadingError) -> ObjectValue? {
        guard let found = layout(element) else { return nil }
        guard let (layout, _) = found else { return .unknown("the reflection library cannot lay out its element type") }
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
        return pending ? nil : .array(count: contents.count, elements: elements)
    }
}
