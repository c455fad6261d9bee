/// A type the factory builds by calling its `init()`, so that the fields' declared default
/// values (`var retries = 3`) are kept. Conform your own types to opt in:
///
/// ```swift
/// struct Settings: DefaultInitializable { var retries = 3; var name = "x" }
/// try ClassInfo.of(Settings.self).makeInstance(Settings.self).retries  // 3
/// ```
public protocol DefaultInitializable {
    init()
}

/// Why ``ClassInfo/makeInstance()`` could not build a value. Nothing is built when it throws.
public enum InstanceFactoryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A value of `type`, reached through `path` (`"owner.name"`, `""` for the top level), has
    /// no sensible default: existentials, functions, metatypes, non-optional `unowned`
    /// references, opaque and foreign types, and standard library types TypeInfo does not know.
    case noDefault(path: String, type: String, reason: String)
    /// An enum with no cases has no values.
    case uninhabited(path: String, type: String)
    /// `type` contains itself through `path` without an optional to stop the recursion.
    case recursive(path: String, type: String)
    /// The value asked for is not of the ClassInfo's type.
    case wrongType(expected: String, found: String)

    public var description: String {
        switch self {
        case .noDefault(let path, let type, let reason):
            return "cannot build \(Self.place(path)) of type \(type): \(reason)"
        case .uninhabited(let path, let type):
            return "cannot build \(Self.place(path)): \(type) is an enum without cases"
        case .recursive(let path, let type):
            return "cannot build \(Self.place(path)): \(type) contains itself without an optional"
        case .wrongType(let expected, let found):
            return "this ClassInfo builds \(expected), not \(found)"
        }
    }

    private static func place(_ path: String) -> String {
        path.isEmpty ? "the value" : "field '\(path)'"
    }
}

/// How the factory builds one value: worked out completely before any memory is touched, so a
/// type that cannot be built fails before anything is allocated.
indirect enum ValueRecipe {
    /// A value of a type TypeInfo knows a zero or empty value for (numbers, `Bool`, strings,
    /// collections, optionals).
    case zero(any ZeroValueConstructible.Type)
    /// A user type's own `init()`.
    case initializer(any DefaultInitializable.Type)
    /// A struct or tuple: each stored field at its offset.
    case fields([FieldRecipe])
    /// A class instance allocated through the runtime, every stored field (superclasses' too) set.
    case object(AnyClass, instanceSize: Int, alignment: Int, fields: [FieldRecipe])
    /// A nil `weak` or optional `unowned` reference: all-zero reference storage.
    case nullReference(size: Int)
    /// An enum case, with its payload's recipe for a payload case.
    case enumCase(EnumWitnessFunctions, shape: EnumPayloadShape, payload: ValueRecipe?)
    /// A copy of a value built once: for value types that hold no class instance the factory
    /// must allocate and no user `init()` to call, a copy is the same value, built faster.
    case template(ValueTemplate)

    /// Whether every value built by this recipe is the same value: no fresh object, no user code.
    var isReproducible: Bool {
        switch self {
        case .zero, .nullReference, .template: return true
        case .initializer, .object: return false
        case .fields(let fields): return fields.allSatisfy { $0.recipe.isReproducible }
        case .enumCase(_, _, let payload): return payload?.isReproducible ?? true
        }
    }
}

/// Recipes per ClassInfo (by identity: published ClassInfos are never freed, so an identity is
/// never reused).
final class FactoryRecipes: Sendable {
    static let shared = FactoryRecipes()
    let table = PthreadMutex<[ObjectIdentifier: Result<ValueRecipe, InstanceFactoryError>]>([:])
}

/// One field of a struct, tuple or object.
struct FieldRecipe {
    var offset: Int
    var recipe: ValueRecipe
}

extension ClassInfo {
    /// Builds a value of this type without calling an initializer, for types with no `init()`.
    ///
    /// Every stored field gets a default: zero for numbers, `false`, empty strings and
    /// collections, `nil` for optionals and `weak` references; nested structs, tuples and
    /// classes are built the same way (class instances are allocated through the runtime, with
    /// their superclasses' fields set); an enum takes its first case without payload, or else
    /// the first case whose payload can be built. A type conforming to ``DefaultInitializable``
    /// is built with its `init()`, keeping its declared defaults.
    ///
    /// - Returns: the new value, as `Any`.
    /// - Throws: ``InstanceFactoryError`` naming the path of the first field that cannot be
    ///   built; nothing is allocated then.
    public func makeInstance() throws -> Any {
        let recipe = try factoryRecipe()
        func build<T>(_: T.Type) -> Any { InstanceFactoryMemory.build(T.self, recipe) }
        let instanceType: Any.Type = type
        return build(instanceType)
    }

    /// Builds a value of this type, typed (see ``makeInstance()``).
    ///
    /// - Parameter instanceType: this ClassInfo's type, or an existential that can hold its
    ///   values (`Any.self`, `(any P).self`): the value is then returned in that existential.
    /// - Returns: the new value.
    /// - Throws: ``InstanceFactoryError``; ``InstanceFactoryError/wrongType(expected:found:)``
    ///   before anything is built when `instanceType` is neither.
    public func makeInstance<T>(_ instanceType: T.Type) throws -> T {
        guard T.self == type else {
            guard isExistentialType(T.self), existential(T.self, canHold: type) else {
                throw InstanceFactoryError.wrongType(expected: qualifiedName, found: String(reflecting: T.self))
            }
            return try makeInstance() as! T
        }
        return InstanceFactoryMemory.build(T.self, try factoryRecipe())
    }

    /// This type's recipe (or why there is none), worked out on first use and kept with this
    /// ClassInfo: a ClassInfo rebuilt after ``setNeedsUpdate()`` works it out again.
    private func factoryRecipe() throws -> ValueRecipe {
        let key = ObjectIdentifier(self)
        if let known = FactoryRecipes.shared.table.withLock({ $0[key] }) { return try known.get() }
        let result = Result { try Self.recipe(for: type, path: "", enclosing: []) }.mapError {
            $0 as? InstanceFactoryError ?? .noDefault(path: "", type: qualifiedName, reason: "\($0)")
        }
        FactoryRecipes.shared.table.withLock { $0[key] = result }
        return try result.get()
    }

    /// Works out how to build a `type` reached through `path`; `enclosing` holds the types being
    /// built around it, to stop recursion.
    static func recipe(for type: Any.Type, path: String, enclosing: Set<ObjectIdentifier>) throws -> ValueRecipe {
        if let initializable = type as? any DefaultInitializable.Type { return .initializer(initializable) }
        if let zero = type as? any ZeroValueConstructible.Type { return .zero(zero) }
        let info = ClassInfo.of(type)
        let name = info.qualifiedName
        guard !enclosing.contains(ObjectIdentifier(type)) else { throw InstanceFactoryError.recursive(path: path, type: name) }
        let inner = enclosing.union([ObjectIdentifier(type)])
        func noDefault(_ reason: String) -> InstanceFactoryError { .noDefault(path: path, type: name, reason: reason) }
        switch info.kind {
        case .struct:
            if Self.isStandardLibrary(name) { throw noDefault("TypeInfo knows no default value for this standard library type") }
            return templated(.fields(try info.propertyInfos.map { try fieldRecipe($0, path: path, enclosing: inner) }), type)
        case .tuple:
            return templated(
                .fields(
                    try info.tupleElements.enumerated().map { index, element in
                        let elementPath = Self.join(path, element.label ?? ".\(index)")
                        return FieldRecipe(
                            offset: element.offset, recipe: try recipe(for: element.type, path: elementPath, enclosing: inner))
                    }), type)
        case .class:
            guard let cls = type as? AnyClass, let size = info.instanceSize, let alignment = info.instanceAlignment else {
                throw noDefault("a class without Swift metadata")
            }
            if MetadataReader(type).isActorClass { throw noDefault("actor instances hold runtime state only their initializer sets up") }
            if Self.isStandardLibrary(name) { throw noDefault("TypeInfo knows no default value for this standard library class") }
            let fields = try info.propertyInfos.map { try fieldRecipe($0, path: path, enclosing: inner) }
            return .object(cls, instanceSize: size, alignment: alignment, fields: fields)
        case .enum:
            return templated(try enumRecipe(info, path: path, enclosing: inner), type)
        case .existential: throw noDefault("an existential has no default value")
        case .function: throw noDefault("a function has no default value")
        case .metatype, .existentialMetatype: throw noDefault("a metatype has no default value")
        default: throw noDefault("a \(info.kind.rawValue) type has no default value")
        }
    }

    private static func fieldRecipe(_ property: PropertyInfo, path: String, enclosing: Set<ObjectIdentifier>) throws -> FieldRecipe {
        let fieldPath = join(path, property.name)
        switch property.ownership {
        case .strong:
            return FieldRecipe(offset: property.offset, recipe: try recipe(for: property.type, path: fieldPath, enclosing: enclosing))
        case .weak:
            return FieldRecipe(offset: property.offset, recipe: .nullReference(size: property.size))
        case .unowned, .unownedUnsafe:
            guard ClassInfo.of(property.type).kind == .optional else {
                throw InstanceFactoryError.noDefault(
                    path: fieldPath, type: String(reflecting: property.type),
                    reason: "an unowned reference must refer to an existing object")
            }
            return FieldRecipe(offset: property.offset, recipe: .nullReference(size: property.size))
        }
    }

    /// The first case without payload, else the first case whose payload can be built.
    private static func enumRecipe(_ info: ClassInfo, path: String, enclosing: Set<ObjectIdentifier>) throws -> ValueRecipe {
        guard !info.cases.isEmpty else { throw InstanceFactoryError.uninhabited(path: path, type: info.qualifiedName) }
        let witnesses = try info.enumWitnesses()
        if let empty = info.cases.firstIndex(where: { $0.payloadType == nil }) {
            return .enumCase(witnesses, shape: EnumPayloadShape(tag: UInt32(empty), payloadType: nil, isIndirect: false), payload: nil)
        }
        var firstError: Error?
        for (index, enumCase) in info.cases.enumerated() {
            guard let payloadType = enumCase.payloadType else { continue }
            do {
                let payload = try recipe(for: payloadType, path: join(path, enumCase.name), enclosing: enclosing)
                let shape = EnumPayloadShape(tag: UInt32(index), payloadType: payloadType, isIndirect: enumCase.isIndirect)
                return .enumCase(witnesses, shape: shape, payload: payload)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? InstanceFactoryError.uninhabited(path: path, type: info.qualifiedName)
    }

    /// `recipe` as a template when every value it builds is the same.
    private static func templated(_ recipe: ValueRecipe, _ type: Any.Type) -> ValueRecipe {
        guard recipe.isReproducible else { return recipe }
        return .template(ValueTemplate(type, recipe: recipe))
    }

    private static func join(_ path: String, _ name: String) -> String {
        path.isEmpty ? name : path + "." + name
    }

    /// Types of the standard library and the toolchain's core modules keep invariants in their
    /// private fields (a `Character` holds exactly one grapheme), so zeroed fields would make
    /// invalid values: only the ones ``ZeroValueConstructible`` lists are built.
    private static func isStandardLibrary(_ qualifiedName: String) -> Bool {
        ["Swift.", "_Concurrency.", "Synchronization.", "_StringProcessing.", "Foundation.", "FoundationEssentials.", "Dispatch."]
            .contains { qualifiedName.hasPrefix($0) }
    }
}

/// Standard library types with an obvious zero or empty value (U+0000 for characters and
/// Unicode scalars, like Runtime's factory).
protocol ZeroValueConstructible {
    static var zeroValue: Self { get }
}

// Each literal family's zero, said once: `0` for the numbers, `[]` for the array-like
// collections, `""` for the strings; the conformances below only say which types count.
extension ZeroValueConstructible where Self: ExpressibleByIntegerLiteral { static var zeroValue: Self { 0 } }
extension ZeroValueConstructible where Self: ExpressibleByArrayLiteral { static var zeroValue: Self { [] } }
extension ZeroValueConstructible where Self: ExpressibleByStringLiteral { static var zeroValue: Self { "" } }

extension Int: ZeroValueConstructible {}
extension Int8: ZeroValueConstructible {}
extension Int16: ZeroValueConstructible {}
extension Int32: ZeroValueConstructible {}
extension Int64: ZeroValueConstructible {}
extension UInt: ZeroValueConstructible {}
extension UInt8: ZeroValueConstructible {}
extension UInt16: ZeroValueConstructible {}
extension UInt32: ZeroValueConstructible {}
extension UInt64: ZeroValueConstructible {}
extension Float: ZeroValueConstructible {}
extension Double: ZeroValueConstructible {}
extension String: ZeroValueConstructible {}
extension Substring: ZeroValueConstructible {}
extension Array: ZeroValueConstructible {}
extension ContiguousArray: ZeroValueConstructible {}
extension ArraySlice: ZeroValueConstructible {}
extension Set: ZeroValueConstructible {}
extension Bool: ZeroValueConstructible { static var zeroValue: Bool { false } }
extension Dictionary: ZeroValueConstructible { static var zeroValue: Dictionary { [:] } }
extension Unicode.Scalar: ZeroValueConstructible { static var zeroValue: Unicode.Scalar { "\u{0}" } }
extension Character: ZeroValueConstructible { static var zeroValue: Character { "\u{0}" } }
extension Optional: ZeroValueConstructible { static var zeroValue: Optional { nil } }
