import Glibc
// Generic types nested every way a generic type's mangling has argument lists per level, for
// GenericManglingTests: the dump's mangling of each declaration, bound to its own parameters,
// must demangle to its printed name and, with the parameters replaced by the arguments below,
// equal what `_mangledTypeName` gives in-process for that instantiation. No identifier here holds
// an `x` or a `q`, the letters the parameters are mangled with.
//
// Arguments, one type per parameter position (so no two are alike and the mangler compresses
// none): depth 0 index 0 Int, depth 0 index 1 String, depth 1 index 0 Double, depth 1 index 1
// Bool, depth 2 index 0 Float.

struct Outer<A> {
    /// Parameters at depths 0 and 1.
    struct Inner<B> {
        var a: A
        var b: B
        /// Three levels: depth 2.
        struct Innermost<C> { var c: C }
    }
    /// No parameter of its own: one empty argument list.
    struct Plain { var a: A }
    /// Two parameters at depth 1.
    struct Pair<B, C> { var b: B; var c: C }
    var a: A
}

/// A generic type in an unconstrained extension of a generic type in the same module.
extension Outer { struct Added<B> { var b: B } }

/// A generic type in a constrained extension: the runtime spells it `(extension in Nesting):`.
extension Outer where A: Equatable { struct Constrained<B> { var a: A; var b: B } }

/// Its only parameter is its own, under a non-generic parent: an empty first argument list.
struct Single { struct Deep<B> { var b: B } }

/// Generic types in extensions of another module's generic types.
extension Array { struct Elements<B> { var b: B } }
extension Dictionary { struct Entry { var k: Key; var v: Value } }

func show(_ type: Any.Type) { print(_mangledTypeName(type) ?? "?", String(reflecting: type), separator: "\t") }

// With arguments (manglings): the runtime's own mangling of the type each one resolves to, or `-`.
if CommandLine.arguments.count > 1 {
    for mangling in CommandLine.arguments.dropFirst() {
        print(_typeByName(mangling).flatMap { _mangledTypeName($0) } ?? "-")
    }
    exit(0)
}
show(Outer<Int>.self)
show(Outer<Int>.Inner<Double>.self)
show(Outer<Int>.Inner<Double>.Innermost<Float>.self)
show(Outer<Int>.Plain.self)
show(Outer<Int>.Pair<Double, Bool>.self)
show(Outer<Int>.Added<Double>.self)
show(Outer<Int>.Constrained<Double>.self)
show(Single.Deep<Int>.self)
show([Int].Elements<Double>.self)
show([Int: String].Entry.self)
