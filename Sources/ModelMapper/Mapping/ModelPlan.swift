import Foundation
import TypeInfo

/// The mapper's per-type metadata, YYModel's `_YYModelMeta`: which key feeds which property
/// through which codec. Built once from the type's `ClassInfo` and configuration, then
/// immutable and shared by every thread; stale when the `ClassInfo` is rebuilt (another
/// instance or generation) or the type's configuration version changes.
final class ModelPlan<T: MappableModel>: @unchecked Sendable {
    let info: ClassInfo
    let generation: UInt64
    let configurationVersion: Int
    let bindings: [PropertyBinding<T>]
    /// The same bindings, typed without `T`, for the loops (see ``FieldBinding``).
    private let fields: ContiguousArray<FieldBinding>
    /// Per binding: how the encoder writes it (see ``EncodingSlot``).
    private let slots: ContiguousArray<EncodingSlot>
    /// Per binding: how the decoder stores it through the instance's storage (see ``DecodingSlot``).
    private let decodingSlots: ContiguousArray<DecodingSlot>
    /// Properties that exist but have no JSON mapping (closures, weak references, ...).
    let unmappedProperties: [String]
    let designatedPath: [String]?
    let subclassSelector: (@Sendable (JSONObjectReader) -> (any MappableModel.Type)?)?

    /// Bindings read by one plain key, in declaration order, and their key bytes.
    private let simple: [Int]
    private let keyStorage: UnsafeMutableBufferPointer<UInt8>
    private let keyRanges: [Range<Int>]
    private let complex: [Int]
    private let required: [Int]
    private let caseInsensitive: Bool
    private let encodesThroughTree: Bool
    private let hasWillDecode: Bool
    private let hasDidDecode: Bool
    private let hasWillEncode: Bool
    private let hasDidEncode: Bool
    /// `,"key":` per binding, escaped, in one buffer (the slots point into it).
    private let prefixStorage: UnsafeMutableBufferPointer<UInt8>
    /// Whether fields are read and written through `ClassInfo.withStorage` (one instance
    /// check per model) rather than `PropertyInfo.set`/`get` per field.
    private let accessesThroughStorage: Bool
    /// Whether a property's current `T` is decoded into, keeping what the JSON does not
    /// mention: always for a struct; for a class unless the JSON chooses the class (a subclass
    /// selector) or a mapped `let` would have to change in place, which an object being
    /// updated refuses (a fresh object takes it).
    let mergesIntoCurrent: Bool

    init(
        info: ClassInfo, configurationVersion: Int, configuration: MappingConfiguration,
        bindings: [PropertyBinding<T>], unmapped: [String], keyNaming: KeyNamingStrategy, fieldAccess: FieldAccessStrategy
    ) {
        self.info = info
        self.generation = info.generation
        self.configurationVersion = configurationVersion
        self.bindings = bindings
        self.fields = ContiguousArray(bindings.map { $0 as FieldBinding })
        self.decodingSlots = ContiguousArray(bindings.map { DecodingSlot(binding: $0) })

        self.unmappedProperties = unmapped
        self.designatedPath = configuration.designatedPath.map(MappingConfiguration.designatedComponents(of:))
        self.subclassSelector = configuration.subclassSelector
        self.caseInsensitive = keyNaming.isCaseInsensitive
        let simple = bindings.indices.filter { bindings[$0].isSimple }
        self.simple = simple
        self.complex = bindings.indices.filter { !bindings[$0].isSimple }
        self.required = bindings.indices.filter { configuration.requiredProperties.contains(bindings[$0].property) }
        var keys: [UInt8] = []
        var ranges: [Range<Int>] = []
        for index in simple {
            var key = bindings[index].keyPaths[0][0]
            if caseInsensitive { key = String(key.lowercased()) }
            let start = keys.count
            keys.append(contentsOf: key.utf8)
            ranges.append(start..<keys.count)
        }
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(keys.count, 1))
        _ = storage.initialize(from: keys)
        self.keyStorage = storage
        self.keyRanges = ranges
        var prefixes = JSONWriter(capacity: 256)
        var prefixRanges: [Range<Int>] = []
        for binding in bindings {
            let start = prefixes.bytes.count
            prefixes.byte(UInt8(ascii: ","))
            prefixes.string(binding.keyPaths[0].first ?? binding.property)
            prefixes.byte(UInt8(ascii: ":"))
            prefixRanges.append(start..<prefixes.bytes.count)
        }
        let prefixStorage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(prefixes.bytes.count, 1))
        _ = prefixStorage.initialize(from: prefixes.bytes)
        self.prefixStorage = prefixStorage
        self.slots = ContiguousArray(
            bindings.indices.map { index in
                EncodingSlot(
                    binding: bindings[index], member: UnsafeBufferPointer(rebasing: prefixStorage[prefixRanges[index]]))
            })
        // A model with nothing to map needs no storage (and an empty struct has no address to
        // give: TypeInfo's withStorage traps on it in debug builds).
        self.accessesThroughStorage = fieldAccess == .instanceStorage && !bindings.isEmpty
        self.hasWillDecode = T.self is any MappingWillDecode.Type
        self.hasDidDecode = T.self is any MappingDidDecode.Type
        self.hasWillEncode = T.self is any MappingWillEncode.Type
        self.hasDidEncode = T.self is any MappingDidEncode.Type
        self.encodesThroughTree = hasDidEncode || bindings.contains { $0.keyPaths[0].count != 1 }
        self.mergesIntoCurrent =
            !(T.self is AnyObject.Type) || (configuration.subclassSelector == nil && bindings.allSatisfy { $0.info.isVar })
    }

    deinit {
        keyStorage.deallocate()
        prefixStorage.deallocate()
    }

    /// Whether fields are accessed through `ClassInfo.withStorage` (``FieldAccessStrategy/instanceStorage``).
    var usesInstanceStorage: Bool { accessesThroughStorage }

    /// Whether the plan still describes `info` under configuration `version`.
    @inline(__always)
    func isCurrent(for info: ClassInfo, version: Int) -> Bool {
        self.info === info && generation == info.generation && configurationVersion == version
    }

    // MARK: Decoding

    /// Reads a `T` from the object at `i`: a fresh one (`makeForMapping()`), or `existing` with the members the
    /// JSON has written into it (a class instance in place).
    func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, runHooks: Bool = true, updating existing: T? = nil) throws -> T {
        guard tape.kind(i) == .object else {
            throw MappingError(.typeMismatch(expected: "an object for \(T.self)", found: tape.typeName(i)))
        }
        if existing == nil, let subclassSelector, let chosen = subclassSelector(JSONObjectReader(tape: tape, object: i)),
            chosen != T.self, chosen is T.Type
        {
            return try decodeSubclass(chosen, tape, i, context)
        }
        if hasWillDecode && runHooks { return try decodeAfterWillDecode(tape, i, context, updating: existing) }

        var instance = try existing ?? T.makeForMapping()
        // An object the caller already holds may have had its `let`s read and the values kept
        // by the optimizer (they cannot change, as far as it knows): they are not written.
        let refusesLets = existing != nil && T.self is AnyObject.Type
        var present = required.isEmpty ? [] : [Bool](repeating: false, count: bindings.count)
        if accessesThroughStorage {
            // `instance` is a new `T` or a `T` the caller passed, so TypeInfo's instance check cannot fail.
            try info.withStorage(of: &instance) { storage in
                try mapMembers(tape, i, context, &present) { index, node in
                    if refusesLets && !fields[index].info.isVar { throw ModelPlan.inPlaceLetRefusal(fields[index], context) }
                    try decodingSlots[index].decode(into: storage, tape, node, context)
                }
            }
        } else {
            try mapMembers(tape, i, context, &present) { index, node in
                if refusesLets && !fields[index].info.isVar { throw ModelPlan.inPlaceLetRefusal(fields[index], context) }
                try bindings[index].decode(&instance, tape, node, context)
            }
        }
        if context.strict {
            for index in required where !present[index] {
                throw MappingError(.keyNotFound(bindings[index].keyPaths[0].joined(separator: ".")))
            }
        }
        if hasDidDecode, var hooked = instance as? any MappingDidDecode {
            do { try hooked.didDecode() } catch let error as MappingError { throw error } catch {
                throw MappingError(.hookFailed(String(describing: error)))
            }
            if let back = hooked as? T { instance = back }
        }
        return instance
    }

    /// Feeds every member the plan maps to `apply(binding, node)`: plain keys in one pass over
    /// the object, key paths and candidate lists after. Errors get their JSON path here; in
    /// lenient mode they are recorded and the property keeps its value.
    @inline(__always)
    private func mapMembers(
        _ tape: JSONTape, _ i: Int, _ context: DecodeContext, _ present: inout [Bool],
        _ apply: (Int, Int) throws -> Void
    ) throws {
        let count = Int(tape.nodes[i].count)
        var key = i + 1
        var expected = 0
        for _ in 0..<count {
            if let index = lookup(tape, key, &expected) {
                if !present.isEmpty { present[index] = true }
                do {
                    if context.tracksPath {
                        try context.within(fields[index].keyPaths[0].map(JSONPathComponent.key)) { try apply(index, key + 1) }
                    } else {
                        try apply(index, key + 1)
                    }
                } catch let error as MappingError {
                    try handle(error, at: fields[index].keyPaths[0], context)
                }
            }
            key = tape.next(after: key + 1)
        }
        for index in complex {
            for path in fields[index].keyPaths {
                let node: Int?
                do { node = try resolve(path, in: i, tape, strict: context.strict) } catch let error as MappingError {
                    try handle(error, at: [], context)
                    break
                }
                guard let node else { continue }
                if !present.isEmpty { present[index] = true }
                do {
                    try context.within(context.tracksPath ? path.map(JSONPathComponent.key) : []) { try apply(index, node) }
                } catch let error as MappingError {
                    try handle(error, at: path, context)
                }
                break
            }
        }
    }

    private func handle(_ error: MappingError, at path: [String], _ context: DecodeContext) throws {
        var located = error
        located.path.insert(contentsOf: path.map(JSONPathComponent.key), at: 0)
        if context.strict { throw located }
        context.skipped(located)
    }

    /// The binding fed by the key at node `key`: first the one after the last match (JSON
    /// usually lists keys in declaration order), then a scan.
    @inline(__always)
    private func lookup(_ tape: JSONTape, _ key: Int, _ expected: inout Int) -> Int? {
        let n = simple.count
        if caseInsensitive {
            // Plain ASCII keys (nearly all) compare folded in place; others are lowercased.
            if let raw = tape.plainASCIIKey(key) {
                for j in 0..<n where JSONTape.equalFoldingASCII(raw, keyBytes(j)) { return simple[j] }
                return nil
            }
            let folded = tape.string(at: key).lowercased()
            for j in 0..<n where keyBytes(j).elementsEqual(folded.utf8) {
                return simple[j]
            }
            return nil
        }
        if expected < n && tape.keyEquals(key, keyBytes(expected)) {
            expected += 1
            return simple[expected - 1]
        }
        for j in 0..<n where tape.keyEquals(key, keyBytes(j)) {
            expected = j + 1
            return simple[j]
        }
        return nil
    }

    @inline(__always)
    private func keyBytes(_ j: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: keyStorage[keyRanges[j]])
    }

    /// The node at `path` below the object at `i`, or `nil` when the path is absent. A
    /// component that is a decimal integer indexes an array (`"distances.0.value"`); on an
    /// object it is a key. A `null` on the way means absent.
    ///
    /// - Throws: in strict mode, when the path runs through a value that is neither an object
    ///   nor an array (a string, a number, ...): the error's path is where it does.
    func resolve(_ path: [String], in i: Int, _ tape: JSONTape, strict: Bool) throws -> Int? {
        var node = i
        var walked: [JSONPathComponent] = []
        for component in path {
            switch tape.kind(node) {
            case .object:
                guard let member = tape.member(component, in: node) else { return nil }
                walked.append(.key(component))
                node = member
            case .array:
                guard let index = MappingConfiguration.arrayIndex(component) else {
                    guard strict else { return nil }
                    throw MappingError(.typeMismatch(expected: "an object with key \"\(component)\"", found: "an array"), path: walked)
                }
                guard let element = tape.element(index, in: node) else { return nil }
                walked.append(.index(index))
                node = element
            case .null:
                return nil
            default:
                guard strict else { return nil }
                let expected = MappingConfiguration.arrayIndex(component) == nil ? "an object with key" : "an array or object with"
                throw MappingError(.typeMismatch(expected: "\(expected) \"\(component)\"", found: tape.typeName(node)), path: walked)
            }
        }
        return node
    }

    private func decodeSubclass(_ chosen: any MappableModel.Type, _ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> T {
        func decodeAs<S: MappableModel>(_ type: S.Type) throws -> T {
            let model = try context.mapper.plan(for: S.self).decode(tape, i, context)
            guard let typed = model as? T else {
                throw MappingError(.invalidConfiguration("\(S.self) chosen for \(T.self) is not a subclass of it"))
            }
            return typed
        }
        return try decodeAs(chosen)
    }

    /// The error for a `let` of a class instance updated in place.
    static func inPlaceLetRefusal(_ field: FieldBinding, _ context: DecodeContext) -> MappingError {
        let reason =
            "it is a 'let', and the instance being updated may already have had it read; an optimized build "
            + "may keep using that value, so it is never changed in place; declare it 'var', or decode a new instance"
        if !context.strict { context.mapper.report(["ModelMapper: \(T.self).\(field.property) is not decoded: \(reason)"]) }
        return MappingError(.unsettableProperty(type: String(describing: T.self), property: field.property, reason: reason))
    }

    private func decodeAfterWillDecode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, updating existing: T?) throws -> T {
        guard let hook = T.self as? any MappingWillDecode.Type else {
            return try decode(tape, i, context, runHooks: false, updating: existing)
        }
        let replaced: JSONValue
        do { replaced = try hook.willDecode(tape.value(at: i)) } catch let error as MappingError { throw error } catch {
            throw MappingError(.hookFailed(String(describing: error)))
        }
        var writer = JSONWriter()
        writer.value(replaced)
        return try writer.bytes.withUnsafeBufferPointer { bytes in
            try JSONReader.withTape(bytes, options: JSONReadOptions(maxDepth: .max)) { rewritten in
                try decode(rewritten, 0, context, runHooks: false, updating: existing)
            }
        }
    }

    // MARK: Encoding

    /// Writes `value` as a JSON object.
    func encode(_ value: T, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        if hasWillEncode, let hooked = value as? any MappingWillEncode {
            do { try hooked.willEncode() } catch let error as MappingError { throw error } catch {
                throw MappingError(.hookFailed(String(describing: error)))
            }
        }
        if encodesThroughTree { return try encodeThroughTree(value, into: &writer, context) }
        writer.byte(UInt8(ascii: "{"))
        if accessesThroughStorage {
            try info.withStorage(reading: value) { storage in try writeMembers(from: storage, &writer, context) }
        } else {
            try writeMembers(&writer) { index, _, writer in try bindings[index].encode(value, &writer, context) }
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// ``writeMembers(_:_:)`` through the instance's storage, the common scalars written inline
    /// (``FieldScalar``): no closure or dynamic dispatch per field for them.
    private func writeMembers(from storage: InstanceStorage, _ writer: inout JSONWriter, _ context: EncodeContext) throws {
        try writeMembers(&writer) { _, slot, writer in
            do {
                return try slot.info._withUnsafeGuaranteedRef { info in
                    try slot.encoding.write(slot.binding, info, from: storage, &writer, context)
                }
            } catch let error as MappingError {
                throw error
            } catch {
                throw slot.binding._withUnsafeGuaranteedRef { $0.accessError(error) }
            }
        }
    }

    /// Writes `"key":value` for every binding, comma-separated; `write` returns `false` for an
    /// omitted `nil`, whose key is then taken back.
    @inline(__always)
    private func writeMembers(
        _ writer: inout JSONWriter, _ write: (Int, EncodingSlot, inout JSONWriter) throws -> Bool
    ) throws {
        // Each slot's member prefix is `,"key":`; the first member written leaves out the comma.
        var skippedComma = 1
        for index in slots.indices {
            let slot = slots[index]
            let mark = writer.bytes.count
            writer.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: slot.member[skippedComma...]))
            do {
                if try write(index, slot, &writer) {
                    skippedComma = 0
                } else {
                    writer.bytes.removeSubrange(mark...)
                }
            } catch let error as MappingError {
                throw error.prefixed(.key(fields[index].keyPaths[0].first ?? fields[index].property))
            }
        }
    }

    /// The slow encoder for key paths and `didEncode`: builds a ``JSONObject`` first.
    private func encodeThroughTree(_ value: T, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        var fragments: [JSONWriter?] = []
        fragments.reserveCapacity(bindings.count)
        func writeFragments(_ write: (Int, inout JSONWriter) throws -> Bool) throws {
            for index in bindings.indices {
                var fragment = JSONWriter(capacity: 32)
                do {
                    fragments.append(try write(index, &fragment) ? fragment : nil)
                } catch let error as MappingError {
                    var located = error
                    located.path.insert(contentsOf: bindings[index].keyPaths[0].map(JSONPathComponent.key), at: 0)
                    throw located
                }
            }
        }
        if accessesThroughStorage {
            try info.withStorage(reading: value) { storage in
                try writeFragments { index, writer in try fields[index].encode(from: storage, &writer, context) }
            }
        } else {
            try writeFragments { index, writer in try bindings[index].encode(value, &writer, context) }
        }
        var object = JSONObject()
        for (binding, fragment) in zip(bindings, fragments) {
            guard let fragment else { continue }
            let path = binding.keyPaths[0]
            let json = try fragment.bytes.withUnsafeBufferPointer { bytes in
                try JSONReader.withTape(bytes, options: JSONReadOptions(maxDepth: .max)) { $0.value(at: 0) }
            }
            ModelPlan.insert(json, at: path[...], into: &object)
        }
        if hasDidEncode, let hooked = value as? any MappingDidEncode {
            do { try hooked.didEncode(into: &object) } catch let error as MappingError { throw error } catch {
                throw MappingError(.hookFailed(String(describing: error)))
            }
        }
        writer.value(.object(object))
    }

    /// Puts `value` at `path` inside `object`, creating what is missing: an array where the
    /// component is an index (earlier elements `null`), else an object.
    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout JSONObject) {
        guard let first = path.first else { return }
        var inner = object[first] ?? .null
        insert(value, at: path.dropFirst(), into: &inner)
        object[first] = inner
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into container: inout JSONValue) {
        guard let first = path.first else {
            container = value
            return
        }
        if case .object(var object) = container {
            insert(value, at: path, into: &object)
            container = .object(object)
        } else if let index = MappingConfiguration.arrayIndex(first) {
            var elements: [JSONValue] = []
            if case .array(let existing) = container { elements = existing }
            if elements.count <= index { elements.append(contentsOf: repeatElement(.null, count: index + 1 - elements.count)) }
            insert(value, at: path.dropFirst(), into: &elements[index])
            container = .array(elements)
        } else {
            var object = JSONObject()
            insert(value, at: path, into: &object)
            container = .object(object)
        }
    }
}
