import BinaryInfo
import TypeLayout

/// Layouts computed by the toolchain's own type lowering (libswiftRemoteMirror) for the types
/// of a file read from disk: what the file implies but its static metadata does not hold.
///
/// ```swift
/// let file = "/usr/lib/libFoo.so"
/// let document = try BinaryImage.layouts(atPath: file)
/// let dependencies = LibraryDependencies.resolve(forFileAt: file, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
/// let computed = ComputedLayouts.compute(forFileAt: file, types: document.types, dependencies: dependencies.paths)
/// let merged = computed.merged(into: document)   // static and computed facts, disagreements as notes
/// ```
public struct ComputedLayouts: Sendable {
    /// Computed layouts by mangled name (without `$s`); only facts the lowering established are set.
    public var layouts: [String: TypeLayout]
    /// What could not be computed, and why.
    public var notes: [LayoutNote]

    /// Lowers every non-generic struct, enum and class among `types`.
    ///
    /// - Parameters:
    ///   - path: the file the types were read from.
    ///   - types: its types, as BinaryInfo's `BinaryImage` read them (mangled names and field types included).
    ///   - dependencies: the Swift libraries it depends on (``LibraryDependencies/resolve(forFileAt:toolchainDirectory:)``):
    ///     an explicit input, so a reading never depends on what this process happens to find.
    ///   - configuration: where the reflection library and the worker are.
    public static func compute(
        forFileAt path: String,
        types: [TypeLayout],
        dependencies: [String],
        configuration: LoweringConfiguration = .resolved()
    ) -> ComputedLayouts {
        let pending = PendingLowering(forFileAt: path, dependencies: dependencies, configuration: configuration)
        return pending.compute(types: types)
    }

    /// The lowering proper, with a worker that may already be laying the images out.
    static func compute(
        forFileAt path: String,
        types: [TypeLayout],
        dependencies: [String],
        client: LoweringClient,
        started: inout WorkerProcess?
    ) -> ComputedLayouts {
        var classes = ClassCatalog(local: types, dependencies: dependencies)
        var manglings: [String] = []
        var seen: Set<String> = []
        var sizeOnly: Set<String> = []
        func ask(_ mangling: String) { if seen.insert(mangling).inserted { manglings.append(mangling) } }
        // Field types need only their size and alignment: asked after the file's own types, so a
        // type wanted whole is never cut down to its size.
        func askSize(_ mangling: String) { if seen.insert(mangling).inserted { manglings.append(mangling); sizeOnly.insert(mangling) } }
        for type in types where type.genericParameters.isEmpty {
            // A class is asked for as a type too: the reference's extra inhabitants.
            guard let mangling = type.nominalMangledName, [.struct, .enum, .optional, .class].contains(type.kind) else { continue }
            ask(mangling)
        }
        for type in types where type.genericParameters.isEmpty {
            guard let mangling = type.nominalMangledName else { continue }
            switch type.kind {
            case .struct:
                // Should the struct itself not lower, its fields' sizes still come from their types.
                for field in type.fields where field.size == nil { ClassCatalog.lowerableMangling(of: field).map(askSize) }
                // An imported C struct's fields whose type has no spelled mangling: from its field record.
                if type.module == "__C", type.fields.contains(where: { $0.size == nil && ClassCatalog.lowerableMangling(of: $0) == nil }) {
                    ask(LoweringWire.importedFieldsKey(mangling))
                }
            case .class:
                let needed = classes.fieldTypeManglings(ofClass: mangling)
                needed.types.forEach(askSize)
                needed.instances.map(LoweringWire.instanceKey).forEach(ask)
                for field in type.fields where field.size == nil { ClassCatalog.lowerableMangling(of: field).map(askSize) }
            default: break
            }
        }
        LoweringTrace.mark("typeinfo", "requests-built")
        let (lowered, clientNotes) = client.lower(
            manglings: manglings, file: path, dependencies: dependencies, started: &started, sizeOnly: sizeOnly)
        LoweringTrace.mark("typeinfo", "replies-parsed")
        var result = ComputedLayouts(layouts: [:], notes: clientNotes + classes.notes)
        // Types the library answered but could not lay out, and types it gave no answer for (when
        // the worker could not run or gave up, every type): the two have different causes.
        var unknown = 0
        var unanswered = 0
        for type in types where type.genericParameters.isEmpty {
            guard let mangling = type.nominalMangledName else { continue }
            switch type.kind {
            case .struct, .enum, .optional:
                if let answer = lowered[mangling], answer.kind != nil {
                    // Imported C structs lower as opaque (`builtin`, no children): their fields'
                    // sizes come from the fields' types.
                    result.layouts[mangling] = Self.filledFieldSizes(Self.valueLayout(of: type, from: answer), from: type, lowered: lowered)
                } else {
                    if !type.isGenericOrInGenericContext {
                        if lowered[mangling] == nil { unanswered += 1 } else { unknown += 1 }
                    }
                    if let partial = Self.fieldSizes(of: type, lowered: lowered) { result.layouts[mangling] = partial }
                }
            case .class:
                if let instance = classes.instanceLayout(ofClass: mangling, lowered: lowered) {
                    var layout = TypeLayout(name: type.name, mangledName: mangling, kind: .class, module: type.module)
                    layout.size = 8
                    layout.alignment = 8
                    layout.stride = 8
                    layout.instanceSize = instance.size
                    layout.instanceAlignment = instance.alignment
                    layout.fields = instance.fields
                    layout.source = .computed
                    result.layouts[mangling] = layout
                } else {
                    if !type.isGenericOrInGenericContext {
                        if lowered[mangling] == nil { unanswered += 1 } else { unknown += 1 }
                    }
                    if let partial = Self.fieldSizes(of: type, lowered: lowered) { result.layouts[mangling] = partial }
                }
                // A class's value witnesses are its reference's: the library lowers the class
                // name as that reference, with the reference's extra inhabitants.
                if let reference = lowered[mangling], reference.kind == .strongReference, let count = reference.extraInhabitants {
                    var layout =
                        result.layouts[mangling] ?? TypeLayout(name: type.name, mangledName: mangling, kind: .class, module: type.module)
                    layout.source = .computed
                    layout.extraInhabitants = count
                    if layout.size == nil {
                        layout.size = reference.size
                        layout.alignment = reference.alignment
                        layout.stride = reference.stride
                    }
                    result.layouts[mangling] = layout
                }
            default:
                break
            }
        }
        LoweringTrace.mark("typeinfo", "layouts-built")
        if unknown > 0 { result.notes.append(.layoutsNotComputed(count: unknown, cause: .libraryCannotLower)) }
        if unanswered > 0 { result.notes.append(.layoutsNotComputed(count: unanswered, cause: .noAnswer)) }
        return result
    }

    /// For a type whose own layout could not be computed: its fields' sizes and alignments, each
    /// from the lowering of the field's type (a stored property occupies exactly its type's
    /// size). Offsets, and the type's own size, stay with the other sources. Nil when no field
    /// type could be lowered either.
    ///
    /// A field type's own lowering fills only fields of unknown size: those types are the ones
    /// asked for this type, so the answer does not depend on which other types were lowered in
    /// the same batch (a reading of one type gives what a reading of the whole file gives).
    static func fieldSizes(of type: TypeLayout, lowered: [String: LoweredType]) -> TypeLayout? {
        var layout = TypeLayout(name: type.name, mangledName: type.mangledName, kind: type.kind, module: type.module)
        layout.source = .computed
        var any = false
        // An imported C struct's field types as the library read them from its field record.
        let fromRecord = type.nominalMangledName.flatMap { lowered[LoweringWire.importedFieldsKey($0)] }.map { answer in
            Dictionary(answer.children.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        layout.fields = type.fields.map { field in
            var sized = FieldLayout(
                name: field.name, type: field.type, mangledType: field.mangledType, isVar: field.isVar, ownership: field.ownership)
            if let mangling = ClassCatalog.lowerableMangling(of: field) {
                if field.size == nil, let answer = lowered[mangling], answer.kind != nil {
                    sized.size = answer.size
                    sized.alignment = answer.alignment
                    any = true
                }
            } else if field.ownership == .strong, let child = fromRecord?[field.name], let kind = child.kind, kind != .unknown,
                let size = child.size, let alignment = child.alignment
            {
                sized.size = size
                sized.alignment = alignment
                any = true
            }
            return sized
        }
        return any ? layout : nil
    }

    /// `layout` with each field of unknown size given its type's size and alignment, where the
    /// field's type lowered (see ``fieldSizes(of:lowered:)``).
    static func filledFieldSizes(_ layout: TypeLayout, from type: TypeLayout, lowered: [String: LoweredType]) -> TypeLayout {
        guard layout.fields.contains(where: { $0.size == nil }), let sizes = fieldSizes(of: type, lowered: lowered) else { return layout }
        var filled = layout
        for index in filled.fields.indices where filled.fields[index].size == nil && index < sizes.fields.count {
            filled.fields[index].size = sizes.fields[index].size
            filled.fields[index].alignment = sizes.fields[index].alignment
        }
        return filled
    }

    /// How an enum's cases share storage, from the library's layout kind.
    static func enumStrategy(_ answer: LoweredType) -> EnumStrategy? { answer.kind?.enumStrategy }

    /// The tag bytes after an enum's largest payload: its size less that payload's (the whole
    /// value without payloads). Nil when a payload's size is unknown.
    static func enumTagBytes(_ answer: LoweredType) -> Int? {
        guard let strategy = enumStrategy(answer), let size = answer.size else { return nil }
        // Cases without payload have no type (and so no size); a payload case whose type the
        // library could not lower has a type but no size, which makes the answer unknown.
        let payloads = answer.children.filter { $0.kind != nil || $0.mangledType != nil }
        guard strategy != .noPayload else { return payloads.isEmpty ? size : nil }
        let sizes = payloads.compactMap(\.size)
        guard !sizes.isEmpty, sizes.count == payloads.count, let largest = sizes.max(), largest <= size else { return nil }
        return size - largest
    }

    /// A struct's or enum's layout from the worker's answer: fields matched by name.
    static func valueLayout(of type: TypeLayout, from answer: LoweredType) -> TypeLayout {
        var layout = TypeLayout(name: type.name, mangledName: type.mangledName, kind: type.kind, module: type.module)
        layout.size = answer.size
        layout.alignment = answer.alignment
        layout.stride = answer.stride
        layout.source = .computed
        layout.extraInhabitants = answer.extraInhabitants
        if type.kind == .enum, let only = type.cases.first, type.cases.count == 1, only.payloadType != nil {
            // A single-case enum is laid out as its payload, and the library answers with the
            // payload's lowering (a struct, a builtin, the cases of a no-payload enum), not an enum's.
            layout.enumStrategy = .singlePayload
            layout.enumTagBytes = 0
            var computed = only
            if !only.indirect { computed.payloadSize = answer.size }
            layout.cases = [computed]
        } else if type.kind == .enum || type.kind == .optional {
            layout.enumStrategy = Self.enumStrategy(answer)
            layout.enumTagBytes = Self.enumTagBytes(answer)
            layout.enumTagSpareBits = layout.enumStrategy == .multiPayload ? answer.tagSpareBits : nil
            let payloads = EnumCaseKey.index(names: answer.children.map(\.name), values: answer.children.map(\.size))
            layout.cases = zip(type.cases, EnumCaseKey.keys(type.cases.map(\.name))).map { enumCase, key in
                var computed = enumCase
                if enumCase.payloadType != nil, let size = payloads[key] { computed.payloadSize = size }
                return computed
            }
        }
        if type.kind == .struct {
            let children = Dictionary(answer.children.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            layout.fields = type.fields.map { field in
                var computed = FieldLayout(
                    name: field.name, type: field.type, mangledType: field.mangledType, isVar: field.isVar, ownership: field.ownership)
                if let child = children[field.name] {
                    computed.offset = child.offset
                    computed.size = child.size
                    computed.alignment = child.alignment
                }
                return computed
            }
        }
        return layout
    }
}

extension LoweredKind {
    /// How an enum of this lowering shares storage among its cases; nil for a kind that is no enum's.
    public var enumStrategy: EnumStrategy? {
        switch self {
        case .noPayloadEnum: return .noPayload
        case .singlePayloadEnum: return .singlePayload
        case .multiPayloadEnum: return .multiPayload
        default: return nil
        }
    }
}
