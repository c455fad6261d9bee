/// A chain of stored properties from a root type down to a nested one (`owner.name`), with
/// reads and writes through the whole chain.
///
/// Get one from ``ClassInfo/propertyPath(_:)`` (a dotted name) or
/// ``ClassInfo/propertyPath(for:)`` (a key path such as `\Model.owner.name`).
public struct PropertyPath: Sendable, CustomStringConvertible {
    /// The properties, outermost first: each one is a property of the previous one's type.
    public let properties: [PropertyInfo]

    /// The dotted names (`owner.name`).
    public var description: String { properties.map(\.name).joined(separator: ".") }

    /// The innermost property.
    public var last: PropertyInfo? { properties.last }

    /// Reads the value at the end of the path.
    ///
    /// - Parameter instance: a value or instance of the root type, or an existential (`Any`,
    ///   `any P`) holding one, boxed any number of times: it is opened to its dynamic type.
    /// - Returns: a copy of the value, as `Any`.
    /// - Throws: ``PropertyAccessError`` from the first step that fails.
    public func get<Instance>(from instance: Instance) throws -> Any {
        var current: Any = try properties[0].get(from: instance)
        for property in properties.dropFirst() {
            current = try property.get(from: current)
        }
        return current
    }

    /// Reads the value at the end of the path as a `Value`.
    ///
    /// - Throws: ``PropertyAccessError/typeMismatch(property:expected:found:)`` when it is not a `Value`.
    public func get<Instance, Value>(_ type: Value.Type, from instance: Instance) throws -> Value {
        guard properties.count > 1, let last = properties.last else { return try properties[0].get(Value.self, from: instance) }
        var current: Any = try properties[0].get(from: instance)
        for property in properties.dropFirst().dropLast() {
            current = try property.get(from: current)
        }
        return try last.get(Value.self, from: current)
    }

    /// Writes the value at the end of the path.
    ///
    /// Structs along the path are copied, changed and written back, so the root value changes
    /// as if `root.owner.name = value` had been written; a class instance along the path is
    /// changed in place (and nothing above it is written). A root held in an existential is
    /// opened as `PropertyInfo.set(_:on:)` opens it: a struct root is replaced in
    /// the existential, so copies of the existential made before keep their value.
    /// - Throws: ``PropertyAccessError``; nothing is written when the value does not fit.
    public func set<Instance, Value>(_ value: Value, on instance: inout Instance) throws {
        guard properties.count > 1, let last = properties.last else {
            try properties[0].set(value, on: &instance)
            return
        }
        // containers[i] holds the current value of properties[i], for every property but the last.
        var containers: [Any] = [try properties[0].get(from: instance)]
        for property in properties.dropFirst().dropLast() {
            containers.append(try property.get(from: containers[containers.count - 1]))
        }
        var updated = containers[containers.count - 1]
        try last.set(value, on: &updated)
        var index = properties.count - 2
        while index >= 0 {
            if Swift.type(of: updated) is AnyObject.Type { return }  // changed in place
            if index == 0 {
                try properties[0].set(updated, on: &instance)
                return
            }
            var parent = containers[index - 1]
            try properties[index].set(updated, on: &parent)
            updated = parent
            index -= 1
        }
    }
}

/// Why a property path could not be resolved.
public enum PropertyPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `type` has no stored property `name` (reached through `path`).
    case noSuchProperty(path: String, type: String, name: String)
    /// The key path has a component that is not a stored property (a computed property, an
    /// optional chain, a subscript, an inherited property reached through its accessors).
    case notStoredProperties(keyPath: String)
    /// The key path's root is not this ClassInfo's type.
    case wrongRoot(expected: String, found: String)

    public var description: String {
        switch self {
        case .noSuchProperty(let path, let type, let name):
            return "\(type) has no stored property '\(name)'" + (path.isEmpty ? "" : " (in '\(path)')")
        case .notStoredProperties(let keyPath):
            return "key path \(keyPath) does not lead through stored properties only"
        case .wrongRoot(let expected, let found):
            return "the key path starts at \(found), not at \(expected)"
        }
    }
}

extension ClassInfo {
    /// The chain of stored properties named by a dotted path (`"owner.name"`).
    ///
    /// - Parameter dotted: property names separated by dots; each is a stored property of the
    ///   previous property's type. An optional property ends a path (its value may be nil).
    /// - Returns: the path.
    /// - Throws: ``PropertyPathError/noSuchProperty(path:type:name:)`` naming the first step not found.
    public func propertyPath(_ dotted: String) throws -> PropertyPath {
        var properties: [PropertyInfo] = []
        var info = self
        var walked: [String] = []
        for name in dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard let property = info.propertyInfo(named: name) else {
                throw PropertyPathError.noSuchProperty(path: walked.joined(separator: "."), type: info.qualifiedName, name: name)
            }
            properties.append(property)
            walked.append(name)
            info = ClassInfo.of(property.type)
        }
        return PropertyPath(properties: properties)
    }

    /// The chain of stored properties a key path (`\Model.owner.name`) goes through.
    ///
    /// The stdlib names every stored-property component of a key path (its `debugDescription`,
    /// built from the same field records); the names are resolved here and, for struct roots,
    /// the path's offset is checked against `MemoryLayout.offset(of:)`.
    /// - Parameter keyPath: a key path through stored properties, rooted at this type.
    /// - Returns: the path.
    /// - Throws: ``PropertyPathError``.
    public func propertyPath<Root, Value>(for keyPath: KeyPath<Root, Value>) throws -> PropertyPath {
        guard Root.self == type else { throw PropertyPathError.wrongRoot(expected: qualifiedName, found: String(reflecting: Root.self)) }
        let text = keyPath.debugDescription
        let components = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // The root's name may itself contain dots (nested types): take the shortest tail that
        // resolves from this type and ends at `Value`.
        for start in 1..<max(components.count, 1) {
            let tail = components[start...]
            guard !tail.contains(where: { $0.contains("<") || $0.contains("?") || $0.contains("!") || $0.contains("[") }) else { break }
            guard let path = try? propertyPath(tail.joined(separator: ".")), let last = path.last,
                last.type == Value.self, path.properties.count == tail.count
            else { continue }
            if kind == .struct, let offset = MemoryLayout<Root>.offset(of: keyPath),
                offset != path.properties.reduce(0, { $0 + $1.offset })
            {
                continue
            }
            return path
        }
        throw PropertyPathError.notStoredProperties(keyPath: text)
    }

    /// The stored property a one-step key path (`\Model.field`) names.
    ///
    /// - Returns: the property, or nil when the key path is not one stored property of this type.
    public func propertyInfo<Root, Value>(for keyPath: KeyPath<Root, Value>) -> PropertyInfo? {
        guard let path = try? propertyPath(for: keyPath), path.properties.count == 1 else { return nil }
        return path.properties[0]
    }
}
