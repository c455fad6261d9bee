import BinaryInfo
import TypeLayout
import TypeLowering

/// The generic instantiations that exist in a target, each laid out by the toolchain's type
/// lowering (libswiftRemoteMirror) reading the target: what a file alone leaves unknown.
///
/// When the process was started with `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`, every
/// entry of its runtime's generic metadata caches is listed (``TargetInspector/genericMetadata()``).
/// Otherwise the runtime keeps no list, and only what the heap shows is: the generic classes with
/// live objects, and the generic structs and enums the stored fields of live objects hold,
/// followed ``heapReachDepth`` levels deep; a note says so and how to get all.
enum LiveInstantiations {
    /// A type's lowering in the target and its children (fields, elements, cases).
    typealias Lowered = (layout: TargetTypeLayout, children: [TargetField])

    /// How many levels of stored fields (of structs, enums and tuples inside objects) are followed.
    static let heapReachDepth = 8
    /// The most types laid out while following fields (a damaged or huge target ends here).
    static let maximumFollowedTypes = 50_000

    /// The instantiations as one document.
    static func read(_ inspector: TargetInspector, pause: ProcessPause?, selection: TypeFilter) throws(LiveReadingError) -> LayoutDocument {
        var notes: [LayoutNote] = []
        if inspector.memory.mayChange, pause == nil { notes.append(.instantiationsReadWhileRunning) }
        var classes: [UInt64] = []
        // Structs and enums by mangling, with the kind their metadata (or lowering) states.
        var values: [String: TypeKind] = [:]
        // Their metadata, where the runtime's list gives it (its descriptor holds the field records).
        var valueMetadata: [String: UInt64] = [:]
        var known: [String: Lowered] = [:]
        var classFields: [UInt64: [TargetField]]?
        // Records left out: not named, or not a class, struct or enum.
        var unnamed = 0
        switch try lowering({ () throws(TypeLoweringError) in try inspector.genericMetadata() }) {
        case .success(let listing):
            for record in listing.records {
                guard let mangling = record.mangling, inspector.typeName(libraryMangling: mangling) != nil else {
                    unnamed += 1
                    continue
                }
                let kind = try? inspector.memory.read(UInt64.self, at: record.metadata, what: "metadata kind")
                switch kind.flatMap({ UInt(exactly: $0) }).flatMap(MetadataKind.init(rawValue:)) {
                case .class?: classes.append(record.metadata)
                case .struct?:
                    values[mangling] = .struct
                    valueMetadata[mangling] = record.metadata
                case .enum?, .optional?: values[mangling] = .enum
                default: unnamed += 1
                }
            }
            if !listing.stops.isEmpty { notes.append(.metadataPoolWalkStopped(addresses: listing.stops)) }
        case .failure(let unavailable):
            do {
                (classes, values, known, classFields) = try reachedFromHeap(inspector, pause: pause)
                notes.append(
                    .instantiationsFromHeapOnly(
                        reason: unavailable.reason, keepsNoList: unavailable.runtimeKeepsNoList, depth: heapReachDepth))
            } catch .target(let error) where !isTargetGone(error) {
                // A heap this reader does not walk (another allocator, a damaged one): the images still stand.
                notes.append(
                    .instantiationsUnavailable(
                        reason: unavailable.reason, keepsNoList: unavailable.runtimeKeepsNoList, heapProblem: error.description))
            } catch .heapKeptChanging(let error, let readings) {
                let problem = LiveReadingError.heapKeptChanging(error, readings: readings).description
                notes.append(
                    .instantiationsUnavailable(
                        reason: unavailable.reason, keepsNoList: unavailable.runtimeKeepsNoList, heapProblem: problem))
            }
        }
        // Why a field's type has no name, by type and field, where its field says more than its mangling.
        var unnamedReasons: [String: [String: String]] = [:]
        let classResults = try classLayouts(classes, fields: classFields, known: &known, unnamedReasons: &unnamedReasons, inspector)
        unnamed += classResults.unnamed
        if unnamed > 0 { notes.append(.instantiationsUnnamed(count: unnamed)) }
        var mutabilityProblems: [String: String] = [:]
        var types =
            try classResults.layouts
            + valueLayouts(
                values, known: known, metadata: valueMetadata, mutabilityProblems: &mutabilityProblems, unnamedReasons: &unnamedReasons,
                inspector)
        types = types.filter(selection.matches).sorted { $0.name < $1.name }
        for type in types {
            for field in type.fields where field.type == "?" {
                guard let mangling = field.mangledType else { continue }
                let reason = unnamedReasons[type.name]?[field.name] ?? LibraryManglings.whyUnnamed(mangling)
                notes.append(.fieldTypeUnnamed(type: type.name, field: field.name, reason: reason))
            }
            if type.fields.contains(where: { $0.isVar == nil }) {
                let reason =
                    mutabilityProblems[type.name]
                    ?? "the field records of the class that declares a field could not be read from the target"
                notes.append(.fieldMutabilityUnknown(type: type.name, reason: reason))
            }
        }
        let incomplete = types.filter { $0.size == nil || ($0.kind == .class && $0.instanceSize == nil) }.count + classResults.withoutFields
        if incomplete > 0 { notes.append(.instantiationsNotLaidOut(count: incomplete)) }
        let memory = inspector.memory
        // The document names the kind of target it describes: the user's difference.
        let fileType: ImageFileType = if case .core = memory.target { .core } else { .process }
        let summary = ImageSummary(
            path: "generic instantiations in \(memory.target)", fileType: fileType, architecture: memory.architecture, notes: notes)
        return LayoutDocument(image: summary, types: types)
    }

    /// The generic classes with live objects, and the generic value types the stored fields of
    /// every live object hold (through structs, enums and tuples, ``heapReachDepth`` levels deep),
    /// with the layouts read on the way.
    static func reachedFromHeap(_ inspector: TargetInspector, pause: ProcessPause?) throws(LiveReadingError) -> (
        classes: [UInt64], values: [String: TypeKind], known: [String: Lowered], fields: [UInt64: [TargetField]]
    ) {
        let walk = try LiveHeapReader.walkRetrying(inspector, pause: pause, addressesPerType: 0)
        let live = Array(walk.objects.keys).sorted()
        let classes = live.filter { isGeneric(classAt: $0, inspector) }
        let fields = try lowering { () throws(TypeLoweringError) in try inspector.storedFields(ofClassesAt: live) }
        var frontier = Set(fields.values.joined().filter { $0.kind.map(isAggregate) ?? false }.compactMap(\.mangledTypeName))
        var known: [String: Lowered] = [:]
        var values: [String: TypeKind] = [:]
        var depth = 0
        while !frontier.isEmpty, depth < heapReachDepth, known.count < maximumFollowedTypes {
            let batch = frontier.filter { known[$0] == nil }.sorted()
            let layouts = try lowering { () throws(TypeLoweringError) in try inspector.layouts(ofTypes: batch) }
            frontier = []
            for mangling in batch {
                guard let found = layouts[mangling] else { continue }
                known[mangling] = found
                if found.layout.kind != .tuple, isGenericInstance(mangling) {
                    values[mangling] = found.layout.kind == .struct ? .struct : .enum
                }
                frontier.formUnion(found.children.filter { $0.kind.map(isAggregate) ?? false }.compactMap(\.mangledTypeName))
            }
            depth += 1
        }
        return (classes, values, known, fields)
    }

    /// Layouts of classes by metadata: the instance from the class metadata in the target's
    /// memory, the stored fields from the library (`fields`, when already read), each field's
    /// size from its type's lowering (`known`, added to).
    static func classLayouts(
        _ classes: [UInt64], fields: [UInt64: [TargetField]]?, known: inout [String: Lowered],
        unnamedReasons: inout [String: [String: String]], _ inspector: TargetInspector
    ) throws(LiveReadingError) -> (layouts: [TypeLayout], unnamed: Int, withoutFields: Int) {
        guard !classes.isEmpty else { return ([], 0, 0) }
        let metadata = Dictionary(classes.compactMap { address in inspector.classMetadata(at: address).map { (address, $0) } }) { a, _ in a
        }
        let superclasses = metadata.values.compactMap(\.superclass)
        let names = try lowering { () throws(TypeLoweringError) in try inspector.typeNames(ofMetadata: classes + superclasses) }
        var fields = fields ?? [:]
        if fields.isEmpty { fields = try lowering { () throws(TypeLoweringError) in try inspector.storedFields(ofClassesAt: classes) } }
        let fieldTypes = Set(classes.flatMap { fields[$0] ?? [] }.compactMap(\.mangledTypeName)).filter { known[$0] == nil }
        if !fieldTypes.isEmpty {
            let read = try lowering { () throws(TypeLoweringError) in try inspector.layouts(ofTypes: Array(fieldTypes)) }
            known.merge(read) { a, _ in a }
        }
        let fieldLayouts = known
        var unnamed = 0
        var withoutFields = 0
        let layouts = classes.compactMap { address -> TypeLayout? in
            guard let name = names[address] else {
                unnamed += 1
                return nil
            }
            if fields[address] == nil { withoutFields += 1 }
            var type = TypeLayout(name: name, kind: .class, module: module(of: name), source: .computed)
            // A class-typed value is one reference.
            type.size = 8
            type.alignment = 8
            type.stride = 8
            if let record = metadata[address] {
                type.instanceSize = Int(record.instanceSize)
                type.instanceAlignment = Int(record.instanceAlignment)
                type.superclass = record.superclass.flatMap { names[$0] }
                type.factSources = [.instanceSize: [.runtime], .instanceAlignment: [.runtime]]
            }
            type.fields = (fields[address] ?? []).map { fieldLayout($0, fieldLayouts) }
            for field in fields[address] ?? [] where field.requirementUnbound != nil {
                unnamedReasons[name, default: [:]][field.name] = field.whyUnnamed
            }
            return type
        }
        return (layouts, unnamed, withoutFields)
    }

    /// Layouts of structs and enums by mangling, from the library's lowering in the target; a
    /// struct's `let` and `var` from the field records of its descriptor (found from its
    /// `metadata` where known, else by its generic type's descriptor symbol, else among the
    /// descriptors the images list), unknown where none is found, with the reason by type name
    /// in `mutabilityProblems`.
    static func valueLayouts(
        _ values: [String: TypeKind], known: [String: Lowered], metadata: [String: UInt64] = [:],
        mutabilityProblems: inout [String: String], unnamedReasons: inout [String: [String: String]], _ inspector: TargetInspector
    ) throws(LiveReadingError) -> [TypeLayout] {
        var symbols: [TargetImageSymbols]?
        var listed: TargetGenericTypeDescriptors??
        func mutability(of mangling: String) -> Result<[String: Bool], MutabilityProblem> {
            var descriptor = metadata[mangling].flatMap(inspector.valueTypeDescriptor(ofMetadata:))
            if descriptor == nil {
                if symbols == nil { symbols = inspector.swiftImageSymbols() }
                if listed == nil { listed = .some(inspector.listedGenericTypeDescriptors()) }
                descriptor = inspector.genericTypeDescriptor(ofInstantiation: mangling, symbols: symbols ?? [], listed: listed ?? nil)
            }
            guard let descriptor else { return .failure(.descriptorNotFound) }
            return inspector.fieldMutability(ofDescriptor: descriptor).map { .success($0) } ?? .failure(.recordsUnreadable(descriptor))
        }
        let manglings = values.keys.sorted()
        let missing = manglings.filter { known[$0] == nil }
        var layouts = known
        if !missing.isEmpty {
            let read = try lowering { () throws(TypeLoweringError) in try inspector.layouts(ofTypes: missing) }
            layouts.merge(read) { a, _ in a }
        }
        let childTypes = Set(manglings.flatMap { layouts[$0]?.children.compactMap(\.mangledTypeName) ?? [] }).filter { layouts[$0] == nil }
        if !childTypes.isEmpty {
            let read = try lowering { () throws(TypeLoweringError) in try inspector.layouts(ofTypes: Array(childTypes)) }
            layouts.merge(read) { a, _ in a }
        }
        return manglings.compactMap { mangling -> TypeLayout? in
            guard let name = inspector.typeName(libraryMangling: mangling), let kind = values[mangling] else { return nil }
            guard let (layout, children) = layouts[mangling] else {
                // Named, not laid out: listed with its facts unknown.
                return TypeLayout(name: name, mangledName: mangling, kind: kind, module: module(ofMangling: mangling))
            }
            var type = TypeLayout(
                name: name, mangledName: mangling, kind: kind, module: module(ofMangling: mangling), size: layout.size,
                alignment: layout.alignment,
                stride: layout.stride, source: .computed)
            // The metadata's kind decides; the library's lowering of an enum says how its cases share storage.
            switch layout.kind {
            case .noPayloadEnum, .singlePayloadEnum, .multiPayloadEnum:
                guard kind == .enum else { break }
                type.enumStrategy = layout.kind.enumStrategy
                type.cases = children.map { child in
                    var enumCase = EnumCaseLayout(name: child.name, payloadType: child.mangledTypeName == nil ? nil : child.typeName ?? "?")
                    enumCase.payloadSize = child.mangledTypeName.flatMap { layouts[$0]?.layout.size }
                    return enumCase
                }
            case .struct where kind == .struct:
                let records = mutability(of: mangling)
                type.fields = children.map { child in
                    var child = child
                    child.isVar = try? records.get()[child.name]
                    if child.requirementUnbound != nil { unnamedReasons[name, default: [:]][child.name] = child.whyUnnamed }
                    return fieldLayout(child, layouts)
                }
                if case .failure(let problem) = records {
                    mutabilityProblems[name] = problem.description
                } else if type.fields.contains(where: { $0.isVar == nil }) {
                    mutabilityProblems[name] = "its generic type's field records do not list every field the reflection library gives"
                }
            default:
                // A lowering of another kind than the metadata's: the sizes stand, its children are not the type's fields.
                break
            }
            return type
        }
    }

    static func fieldLayout(_ field: TargetField, _ layouts: [String: Lowered]) -> FieldLayout {
        let layout = field.mangledTypeName.flatMap { layouts[$0]?.layout }
        var result = FieldLayout(
            name: field.name, type: field.typeName ?? "?", mangledType: field.mangledTypeName, offset: field.offset, size: layout?.size,
            alignment: layout?.alignment)
        // A field whose record was not read: unknown, never the default `var`.
        result.isVar = field.isVar
        switch field.kind {
        case .weakReference?: result.ownership = .weak
        case .unownedReference?: result.ownership = .unowned
        case .unmanagedReference?: result.ownership = .unownedUnsafe
        default: break
        }
        return result
    }

    /// Why a struct instantiation's `let` and `var` are unknown.
    enum MutabilityProblem: Error, CustomStringConvertible {
        /// No descriptor of its generic type was found.
        case descriptorNotFound
        /// Its descriptor's field records could not be read.
        case recordsUnreadable(UInt64)

        var description: String {
            switch self {
            case .descriptorNotFound:
                return "its generic type's descriptor was not found: no image's symbol table names it (a stripped image has none), "
                    + "and no one type the images list in swift5_type_metadata has its name"
            case .recordsUnreadable(let address):
                return
                    "the field records of its generic type's descriptor at 0x\(String(address, radix: 16)) could not be read from the target"
            }
        }
    }

    /// Whether the error means the target itself can no longer be read (the whole reading fails).
    static func isTargetGone(_ error: BinaryInfoError) -> Bool {
        switch error {
        case .noSuchProcess, .processExited, .processAccessDenied: return true
        default: return false
        }
    }

    /// Whether a lowering holds further fields to follow: structs, enums (their payloads) and tuples.
    static func isAggregate(_ kind: LoweredKind) -> Bool {
        switch kind {
        case .struct, .tuple, .noPayloadEnum, .singlePayloadEnum, .multiPayloadEnum: return true
        default: return false
        }
    }

    /// Whether the mangled type is an instantiation of a generic type (or a type nested in one):
    /// the runtime's demangler spells it with generic arguments, outside any tuple or function.
    static func isGenericInstance(_ mangling: String) -> Bool {
        guard let name = SwiftDemangler.demangle(symbol: "$s" + mangling + "D") else { return false }
        return !name.hasPrefix("(") && name.contains("<")
    }

    /// Whether the class whose metadata is at `address` is generic (its descriptor's `isGeneric` flag).
    static func isGeneric(classAt address: UInt64, _ inspector: TargetInspector) -> Bool {
        guard let record = inspector.classMetadata(at: address),
            let flags = try? inspector.memory.read(UInt32.self, at: record.descriptor, what: "class descriptor flags")
        else { return false }
        return flags & ContextDescriptorKind.isGenericFlag != 0
    }

    /// The module of a type the demangler names `Module.Name…` (a class's name has no sugar).
    static func module(of name: String) -> String? {
        guard !name.hasPrefix("("), !name.hasPrefix("["), let dot = name.firstIndex(of: ".") else { return nil }
        return String(name[..<dot])
    }

    /// The module of a mangled type, from the demangler's name without sugar (`Swift.Optional<…>`).
    static func module(ofMangling mangling: String) -> String? {
        SwiftDemangler.demangle(symbol: "$s" + mangling + "D").flatMap(module(of:))
    }

    static func lowering<T>(_ body: () throws(TypeLoweringError) -> T) throws(LiveReadingError) -> T {
        do {
            return try body()
        } catch {
            throw .lowering(error)
        }
    }
}
