// The Swift runtime's own entry points that TypeInfo calls. They are exported by
// libswiftCore on every platform; the signatures follow the runtime's headers
// (stdlib/public/runtime/ReflectionMirror.cpp and include/swift/Runtime/HeapObject.h).

/// What `swift_reflectionMirror_recursiveChildMetadata` reports about one stored property.
struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong: Bool = false
    var isVar: Bool = false
}

/// Number of stored properties of a struct or class, superclasses included.
@_silgen_name("swift_reflectionMirror_recursiveCount")
func _reflectionRecursiveCount(_ type: Any.Type) -> Int

/// The type, name and var/let of stored property `index`, superclasses first.
@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
func _reflectionRecursiveChildMetadata(
    _ type: Any.Type,
    index: Int,
    fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>
) -> Any.Type

/// The byte offset of stored property `index`, superclasses first.
@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
func _reflectionRecursiveChildOffset(_ type: Any.Type, index: Int) -> Int

// Reference-storage entry points. The compiler reserves these names for its own use, so
// they are looked up by name in the loaded runtime instead of being declared with
// @_silgen_name; they use the C calling convention.
import TypeLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime's allocation, reference-counting and reference-storage functions.
struct ReferenceStorageRuntime: @unchecked Sendable {
    typealias LoadStrong = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    typealias Assign = @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    typealias ObjectFunction = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    typealias ObjectProcedure = @convention(c) (UnsafeMutableRawPointer) -> Void
    typealias AllocObject = @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer

    /// `swift_weakLoadStrong`: a weak reference's object, +1, or null when it is gone.
    let weakLoadStrong: LoadStrong
    /// `swift_weakAssign`: stores a (+0) object into a weak reference.
    let weakAssign: Assign
    /// `swift_unownedRetain`: takes an unowned reference count.
    let unownedRetain: ObjectFunction
    /// `swift_unownedRelease`: drops an unowned reference count.
    let unownedRelease: ObjectProcedure
    /// `swift_unownedRetainStrong`: a strong count from an unowned reference; traps if the object is gone, as Swift does.
    let unownedRetainStrong: ObjectProcedure
    /// `swift_retain`.
    let retain: ObjectFunction
    /// `swift_allocObject(metadata, size, alignMask)`: a new instance, +1, its header set and
    /// its stored properties uninitialized (include/swift/Runtime/HeapObject.h).
    let allocObject: AllocObject
    /// `_swift_stdlib_immortalize`: marks an object immortal, so retains and releases of it
    /// only read its reference count. Nil on a runtime that does not export it.
    let immortalize: ObjectProcedure?

    static let shared = ReferenceStorageRuntime()

    private init() {
        func resolve<F>(_ name: String, as: F.Type) -> F {
            // libswiftCore is loaded in every Swift process, so these symbols always resolve.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else {
                preconditionFailure("the Swift runtime does not export \(name)")
            }
            return unsafeBitCast(symbol, to: F.self)
        }
        weakLoadStrong = resolve("swift_weakLoadStrong", as: LoadStrong.self)
        weakAssign = resolve("swift_weakAssign", as: Assign.self)
        unownedRetain = resolve("swift_unownedRetain", as: ObjectFunction.self)
        unownedRelease = resolve("swift_unownedRelease", as: ObjectProcedure.self)
        unownedRetainStrong = resolve("swift_unownedRetainStrong", as: ObjectProcedure.self)
        retain = resolve("swift_retain", as: ObjectFunction.self)
        allocObject = resolve("swift_allocObject", as: AllocObject.self)
        immortalize = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_swift_stdlib_immortalize")
            .map { unsafeBitCast($0, to: ObjectProcedure.self) }
    }
}

/// A type's name as the runtime's demangler prints it, with sugar (`Swift.String?`,
/// `[Swift.Int]`, `[Swift.String: Swift.Bool]`): the same spelling the on-disk readers
/// produce, so in-process and on-disk layouts compare equal.
func demangledTypeName(_ type: Any.Type) -> String {
    _mangledTypeName(type).flatMap(SwiftDemangler.typeName(mangling:)) ?? String(reflecting: type)
}
