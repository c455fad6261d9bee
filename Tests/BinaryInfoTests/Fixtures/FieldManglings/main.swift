// Field types whose manglings the dump once printed wrongly (issue 23): types declared in
// constrained extensions, bound to arguments, function types over a `~Copyable` type, and a
// conditionally copyable type bound to a copyable argument.
// Run with manglings as arguments, it answers for each, in its own process, what the runtime
// makes of it: `same` (swift_getTypeByMangledNameInContext gives the metadata of the stored
// property at that position of `Holder`, per `_forEachField`), `other`, or `unresolved`.
@_spi(Reflection) import Swift
#if canImport(Glibc)
import Glibc
#endif

public protocol Marked {}
public struct Marker: Marked {}
public struct Box<T> { public var value: T }
extension Box where T: Marked { public struct Inner { public var x = 1 } }
extension Array where Element == Marker { public struct Package { public var y = 2 } }
public struct NoCopy: ~Copyable { public var x = 1 }
public struct MaybeCopy<T: ~Copyable>: ~Copyable { public var x = 1 }
extension MaybeCopy: Copyable where T: Copyable {}

public struct Holder {
    public var inner = Box<Marker>.Inner()
    public var package = [Marker].Package()
    public var packages: [[Marker].Package] = []
    public var consume: (inout NoCopy) -> Void = { _ in }
    public var copied = MaybeCopy<Int>()
}

typealias Lookup = @convention(thin) (UnsafePointer<UInt8>, UInt, UnsafeRawPointer?, UnsafeRawPointer?) -> UnsafeRawPointer?
let lookup = unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_getTypeByMangledNameInContext")!, to: Lookup.self)

var fieldTypes: [ObjectIdentifier] = []
_ = _forEachField(of: Holder.self, options: []) { _, _, type, _ in
    fieldTypes.append(ObjectIdentifier(type))
    return true
}
// Arguments: pairs of (field index, mangling).
var arguments = CommandLine.arguments.dropFirst()
while let index = arguments.popFirst().flatMap({ Int($0) }), var mangling = arguments.popFirst() {
    let metadata = mangling.withUTF8 { lookup($0.baseAddress!, UInt($0.count), nil, nil) }
    guard let metadata else { print("unresolved"); continue }
    let type = unsafeBitCast(metadata, to: Any.Type.self)
    print(index < fieldTypes.count && ObjectIdentifier(type) == fieldTypes[index] ? "same" : "other")
}
