// Instances handed to TypeInfo inside an existential (`Any`, `any P`, `any P & Q`, `AnyObject`).
// In generic code whose `Instance` is itself an existential, which is what a Swift 5 language
// mode caller passes (Swift 6 opens the existential at the call site), `instance as Any` puts the
// existential into a second box, and `_openExistential` opens one box only: it hands back the
// existential type, and an entry point that re-enters itself with it never ends. The runtime's
// dynamic type of an `Any` looks through every box, and a cast to that type takes the value out
// of all of them, so every entry point opens existentials here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `type` is an existential, whose values must be opened first: one load of the
/// metadata's kind word, cheap enough for the checks in front of the fast paths.
func isExistentialType(_ type: Any.Type) -> Bool {
    MetadataReader(type).kind == .existential
}

/// The value inside an existential, however deeply it is boxed, in an `Any` holding it directly:
/// `_openExistential` on the result binds its generic parameter to the value's dynamic type,
/// never to an existential.
/// - Parameter instance: a value whose static type is an existential.
/// - Returns: a copy of the value (for a class instance, the same reference).
func unboxedExistential<Instance>(_ instance: Instance) -> Any {
    let boxed: Any = instance
    func unbox<Dynamic>(_: Dynamic.Type) -> Any { boxed as! Dynamic }
    return _openExistential(Swift.type(of: boxed), do: unbox)
}

/// Whether a value of `type` can be held in the existential `existential` (`Any`, `any P & Q`,
/// `AnyObject`, `any Base & P`), decided before any value is built: the runtime's own cast of
/// the metatype `type` to the existential's metatype (`any P.Type`) checks the conformances,
/// the class constraint and the superclass.
func existential(_ existential: Any.Type, canHold type: Any.Type) -> Bool {
    guard let metatypeOf = ExistentialMetatypes.metatypeOf else { return false }
    let metatype = unsafeBitCast(metatypeOf(unsafeBitCast(existential, to: UnsafeRawPointer.self)), to: Any.Type.self)
    func isMetatypeOf<Metatype>(_: Metatype.Type) -> Bool { (type as Any) is Metatype }
    return _openExistential(metatype, do: isMetatypeOf)
}

/// `swift_getExistentialMetatypeMetadata` (include/swift/Runtime/Metadata.h): the metadata of
/// `any P.Type` from that of `any P`. A C function of the runtime, looked up once by name.
private enum ExistentialMetatypes {
    typealias MetatypeOf = @convention(c) (UnsafeRawPointer) -> UnsafeRawPointer
    static let metatypeOf: MetatypeOf? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_getExistentialMetatypeMetadata")
        .map { unsafeBitCast($0, to: MetatypeOf.self) }
}
