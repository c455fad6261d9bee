import Foundation
import TypeInfo

/// The mapper's per-type metadata, YYModel's `_YYModelMeta`: which key feeds which property
/// through which codec. Built once from the type's `ClassInfo` and configuration, then
/// immutable and shared by every thread; stale when the `ClassInfo` is rebuilt (another
/// instance or generation) or the type's configuration version changes.
final class ModelPlan<T: Mappable>: @unchecked Sendable {
    let info: ClassInfo
    let generation: UInt64
    let configurationVersion: Int
    let bindings: [PropertyBinding<T>]
    /// Properties that exist but have no JSON mapping (closures, weak references, ...).
    let unmappedProperties: [String]
    let designatedPath: [String]?
    let subclassSelector: (@Sendable (JSONObjectReader) -> (any Mappable.Type)?)?

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
    /// `"key":` per binding, escaped, for the fast encoder.
    private let keyPrefixes: [[UInt8]]

    init(
        info: ClassInfo, configurationVersion: Int, configuration: MappingConfiguration,
        bindings: [PropertyBinding<T>], unmapped: [String], keyNaming: KeyNamingStrategy
    ) {
        self.info = info
        self.generation = info.generation
        self.configurationVersion = configurationVersion
        self.bindings = bindings
        self.unmappedProperties = unmapped
        self.designatedPath = configuration.designatedPath.map(MappingConfiguration.components(of:))
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
        self.keyPrefixes = bindings.map { binding in
            var writer = JSONWriter(capacity: 16)
            writer.string(binding.keyPaths[0].first ?? binding.property)
            writer.byte(UInt8(ascii: ":"))
            return writer.bytes
        }
        self.hasWillDecode = T.self is any MappingWillDecode.Type
        self.hasDidDecode = T.self is any MappingDidDecode.Type
        self.hasWillEncode = T.self is any MappingWillEncode.Type
        self.hasDidEncode = T.self is any MappingDidEncode.Type
        self.encodesThroughTree = hasDidEncode || bindings.contains { $0.keyPaths[0].count != 1 }
    }

    deinit { keyStorage.deallocate() }

    /// Whether the plan still describes `info` under configuration `version`.
    @inline(__always)
    func isCurrent(for info: ClassInfo, version: Int) -> Bool {
        self.info === info && generation == info.generation && configurationVersion == version
    }

    // MARK: Decoding

    /// Reads a `T` from the object at `i`.
    func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext, runHooks: Bool = true) throws -> T {
        guard tape.kind(i) == .object else {
            throw MappingError(.typeMismatch(expected: "an object for \(T.self)", found: tape.typeName(i)))
        }
        if let subclassSelector, let chosen = subclassSelector(JSONObjectReader(tape: tape, object: i)),
            chosen != T.self, chosen is T.Type
        {
            return try decodeSubclass(chosen, tape, i, context)
        }
        if hasWillDecode && runHooks { return try decodeAfterWillDecode(tape, i, context) }

        var instance = T()
        let count = Int(tape.nodes[i].count)
        var present = required.isEmpty ? [] : [Bool](repeating: false, count: bindings.count)
        var key = i + 1
        var expected = 0
        for _ in 0..<count {
            if let index = lookup(tape, key, &expected) {
                if !required.isEmpty { present[index] = true }
                try bind(index, &instance, tape, key + 1, context)
            }
            key = tape.next(after: key + 1)
        }
        for index in complex {
            for path in bindings[index].keyPaths {
                guard let node = resolve(path, in: i, tape) else { continue }
                if !required.isEmpty { present[index] = true }
                try bind(index, &instance, tape, node, context, path: path)
                break
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

    @inline(__always)
    private func bind(
        _ index: Int, _ instance: inout T, _ tape: JSONTape, _ node: Int, _ context: DecodeContext,
        path: [String]? = nil
    ) throws {
        do {
            try bindings[index].decode(&instance, tape, node, context)
        } catch let error as MappingError {
            var located = error
            located.path.insert(contentsOf: (path ?? bindings[index].keyPaths[0]).map(JSONPathComponent.key), at: 0)
            if context.strict { throw located }
            context.skipped(located)
        }
    }

    /// The binding fed by the key at node `key`: first the one after the last match (JSON
    /// usually lists keys in declaration order), then a scan.
    @inline(__always)
    private func lookup(_ tape: JSONTape, _ key: Int, _ expected: inout Int) -> Int? {
        let n = simple.count
        if caseInsensitive {
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

    /// The node at `path` below the object at `i`, or `nil`.
    func resolve(_ path: [String], in i: Int, _ tape: JSONTape) -> Int? {
        var node = i
        for component in path {
            guard tape.kind(node) == .object, let member = tape.member(component, in: node) else { return nil }
            node = member
        }
        return node
    }

    private func decodeSubclass(_ chosen: any Mappable.Type, _ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> T {
        func decodeAs<S: Mappable>(_ type: S.Type) throws -> T {
            let model = try context.mapper.plan(for: S.self).decode(tape, i, context)
            guard let typed = model as? T else {
                throw MappingError(.invalidConfiguration("\(S.self) chosen for \(T.self) is not a subclass of it"))
            }
            return typed
        }
        return try decodeAs(chosen)
    }

    private func decodeAfterWillDecode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> T {
        guard let hook = T.self as? any MappingWillDecode.Type else { return try decode(tape, i, context, runHooks: false) }
        let replaced: JSONValue
        do { replaced = try hook.willDecode(tape.value(at: i)) } catch let error as MappingError { throw error } catch {
            throw MappingError(.hookFailed(String(describing: error)))
        }
        var writer = JSONWriter()
        writer.value(replaced)
        return try writer.bytes.withUnsafeBufferPointer { bytes in
            try JSONReader.withTape(bytes, options: JSONReadOptions(maxDepth: .max)) { rewritten in
                try decode(rewritten, 0, context, runHooks: false)
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
        var first = true
        for index in bindings.indices {
            let mark = writer.bytes.count
            if !first { writer.byte(UInt8(ascii: ",")) }
            writer.raw(keyPrefixes[index])
            do {
                if try bindings[index].encode(value, &writer, context) {
                    first = false
                } else {
                    writer.bytes.removeSubrange(mark...)
                }
            } catch let error as MappingError {
                throw error.prefixed(.key(bindings[index].keyPaths[0].first ?? bindings[index].property))
            }
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// The slow encoder for key paths and `didEncode`: builds a ``JSONObject`` first.
    private func encodeThroughTree(_ value: T, into writer: inout JSONWriter, _ context: EncodeContext) throws {
        var object = JSONObject()
        for binding in bindings {
            var fragment = JSONWriter(capacity: 32)
            let path = binding.keyPaths[0]
            do {
                guard try binding.encode(value, &fragment, context) else { continue }
            } catch let error as MappingError {
                var located = error
                located.path.insert(contentsOf: path.map(JSONPathComponent.key), at: 0)
                throw located
            }
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

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout JSONObject) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var inner: JSONObject
        if case .object(let existing)? = object[first] { inner = existing } else { inner = JSONObject() }
        insert(value, at: path.dropFirst(), into: &inner)
        object[first] = .object(inner)
    }
}
