// A fixture module compiled by BinaryInfoTests (plain, -g, -O, as a shared library and as an
// object file). `fixtureOracleJSON()` prints what the running program itself knows about its
// types (MemoryLayout, _forEachField, the runtime's names), which the tests compare with what
// BinaryInfo reads from the compiled file on disk.
@_spi(Reflection) import Swift
#if canImport(Glibc)
import Glibc
#endif

// MARK: - The case table

public struct EmptyStruct {}
public struct MixedScalars { var a: Int8; var b: Int64; var c: Int16; var d: Bool; var e: Double; var f: UInt32; var g: Float }
public struct Inner { var x: Int32; var y: Int8 }
public struct NestedStructs { var first: Inner; var flag: Bool; var second: Inner; var big: Int }
public final class Ref { var value = 0 }
public struct Optionals { var i: Int?; var s: String?; var r: Ref?; var inner: Inner?; var b: Bool? }
public struct Collections { var array: [Int]; var dictionary: [String: Int]; var set: Set<String>; var nested: [[Double]] }
public struct Tuples { var labelled: (x: Float, y: Float); var plain: (Int, Bool, Int8); var empty: () }
public struct Closures { var f: (Int) -> Int; var g: (() -> Void)?; var h: @convention(thin) () -> Void }
public protocol Shape { var area: Double { get } }
public protocol Named: AnyObject { var name: String { get } }
public protocol Tagged {}
public struct Existentials {
    var any: Any; var shape: any Shape; var object: AnyObject; var named: any Named; var both: any Shape & Tagged; var meta: Any.Type;
    var optAny: Any?
}
public enum NoPayload { case north, south, east, west }
public enum WithPayload {
    case int(Int)
    case text(String)
    case pair(Int8, Int8)
    case nothing
}
public enum RawValued: String {
    case alpha = "a"
    case beta = "b"
}
public indirect enum Tree {
    case leaf(Int)
    case node(Tree, Tree)
}
public enum PartlyIndirect { case value(Int); indirect case more(PartlyIndirect); case none }
public struct StaticAndComputed { static var shared = 1; var stored: Int16; var computed: Int { Int(stored) * 2 }; let constant: UInt8 }
public final class LazyHolder { lazy var expensive: Int = 42; var plain: Int8 = 0 }
@propertyWrapper public struct Clamped {
    var storage: Int;
    public var wrappedValue: Int {
        get { storage }
        set { storage = min(newValue, 100) }
    }; public init(wrappedValue: Int) { storage = wrappedValue }
}
public struct Wrapped { @Clamped var level: Int = 0; var other: UInt16 = 0 }
public struct Outer { public struct Middle { public struct Innermost { var deep: UInt64 }; var m: Int8 }; var o: Middle }
private struct PrivateThing { var secret: Int32; var more: Bool }
private final class FilePrivateClass { var hidden: Double = 0 }
public struct Box<T> { var value: T; var count: Int }
extension Box { public struct Nested { var inner: T?; var flag: Bool } }
public struct GenericOuter<T> { public struct GenericInner<U> { var u: U; var t: T; var n: Int }; var t: T }
public final class GenericRef<T, U> { var first: T; var second: U; init(_ t: T, _ u: U) { first = t; second = u } }
open class Base { var baseField: Int = 1; let baseConstant: Int8 = 2 }
open class Middle: Base { var middleField: String = "" }
public final class Leaf: Middle { var leafField: Bool = false; var leafNumber: Double = 0 }
public final class References {
    weak var weakRef: Ref?; unowned var unownedRef: Ref; unowned(unsafe) var unsafeRef: Ref; var strong: Ref;
    init(_ r: Ref) { unownedRef = r; unsafeRef = r; strong = r }
}
public final class FinalClass { var a: Int16 = 0; var b: Int64 = 0 }
extension Int { public struct IntExtensionType { var k: Int } }
public struct WithCTypes { var time: timespec; var flag: Bool; var div: div_t }
public struct Conformer: Shape, Tagged, Equatable { var side: Double; public var area: Double { side * side } }
extension Conformer: CustomStringConvertible { public var description: String { "\(side)" } }

// MARK: - The oracle

private func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

private func entry<T>(_ type: T.Type, kind: String, generic: Bool = false, cases: [String] = []) -> String {
    var fields: [String] = []
    if kind == "struct" || kind == "class" {
        let options: _EachFieldOptions = kind == "class" ? [.classType] : []
        _ = _forEachField(of: type, options: options) { name, offset, fieldType, _ in
            func layoutOf<F>(_: F.Type) -> (Int, Int) { (MemoryLayout<F>.size, MemoryLayout<F>.alignment) }
            let (size, alignment) = _openExistential(fieldType, do: layoutOf)
            fields.append(
                "{\"name\": \(quote(String(cString: name))), \"offset\": \(offset), \"type\": \(quote(String(reflecting: fieldType))), \"size\": \(size), \"alignment\": \(alignment)}"
            )
            return true
        }
    }
    // Conformances the running program sees, among the protocols the tests ask about.
    var conformances: [String] = []
    if type is any Shape.Type { conformances.append(String(reflecting: (any Shape).self)) }
    if type is any Tagged.Type { conformances.append(String(reflecting: (any Tagged).self)) }
    if type is any Equatable.Type { conformances.append("Swift.Equatable") }
    if type is any Hashable.Type { conformances.append("Swift.Hashable") }
    if type is any RawRepresentable.Type { conformances.append("Swift.RawRepresentable") }
    if type is any CustomStringConvertible.Type { conformances.append("Swift.CustomStringConvertible") }
    // The value witness table's extraInhabitantCount (uint32 at +84; a class's table is its reference's).
    let witnesses = unsafeBitCast(type as Any.Type, to: UnsafeRawPointer.self).load(fromByteOffset: -8, as: UnsafeRawPointer.self)
    let extraInhabitants = witnesses.load(fromByteOffset: 84, as: UInt32.self)
    var superclass = "null"
    if let cls = type as? AnyClass, let parent = _getSuperclass(cls) {
        superclass = quote(String(reflecting: parent))
    }
    return """
        {"name": \(quote(String(reflecting: type))), "mangledName": \(quote(_mangledTypeName(type) ?? "")), "kind": \(quote(kind)), \
        "generic": \(generic), "size": \(MemoryLayout<T>.size), "alignment": \(MemoryLayout<T>.alignment), "stride": \(MemoryLayout<T>.stride), \
        "extraInhabitants": \(extraInhabitants), "superclass": \(superclass), "fields": [\(fields.joined(separator: ", "))], "cases": [\(cases.map(quote).joined(separator: ", "))], \
        "conformances": [\(conformances.map(quote).joined(separator: ", "))]}
        """
}

/// The names of an enum's cases, as the running program prints its values.
private func caseNames<T>(_ values: [T]) -> [String] {
    values.map { value in
        let text = String(describing: value)
        return String(text.prefix { $0 != "(" })
    }
}

public func fixtureOracleJSON() -> String {
    let r = Ref()
    let entries: [String] = [
        entry(EmptyStruct.self, kind: "struct"),
        entry(MixedScalars.self, kind: "struct"),
        entry(Inner.self, kind: "struct"),
        entry(NestedStructs.self, kind: "struct"),
        entry(Ref.self, kind: "class"),
        entry(Optionals.self, kind: "struct"),
        entry(Collections.self, kind: "struct"),
        entry(Tuples.self, kind: "struct"),
        entry(Closures.self, kind: "struct"),
        entry(Existentials.self, kind: "struct"),
        entry(NoPayload.self, kind: "enum", cases: caseNames([NoPayload.north, .south, .east, .west])),
        entry(WithPayload.self, kind: "enum", cases: caseNames([WithPayload.int(1), .text(""), .pair(1, 2), .nothing])),
        entry(RawValued.self, kind: "enum", cases: caseNames([RawValued.alpha, .beta])),
        entry(Tree.self, kind: "enum", cases: caseNames([Tree.leaf(1), .node(.leaf(1), .leaf(2))])),
        entry(PartlyIndirect.self, kind: "enum", cases: caseNames([PartlyIndirect.value(1), .more(.none), .none])),
        entry(StaticAndComputed.self, kind: "struct"),
        entry(LazyHolder.self, kind: "class"),
        entry(Wrapped.self, kind: "struct"),
        entry(Outer.self, kind: "struct"),
        entry(Outer.Middle.self, kind: "struct"),
        entry(Outer.Middle.Innermost.self, kind: "struct"),
        entry(PrivateThing.self, kind: "struct"),
        entry(FilePrivateClass.self, kind: "class"),
        entry(Box<Int>.self, kind: "struct", generic: true),
        entry(Box<Int>.Nested.self, kind: "struct", generic: true),
        entry(GenericRef<Int, String>.self, kind: "class", generic: true),
        entry(GenericOuter<Int>.self, kind: "struct", generic: true),
        entry(GenericOuter<Int>.GenericInner<String>.self, kind: "struct", generic: true),
        entry(Base.self, kind: "class"),
        entry(Middle.self, kind: "class"),
        entry(Leaf.self, kind: "class"),
        entry(References.self, kind: "class"),
        entry(FinalClass.self, kind: "class"),
        entry(Int.IntExtensionType.self, kind: "struct"),
        entry(Conformer.self, kind: "struct"),
        entry(WithCTypes.self, kind: "struct"),
        entry(timespec.self, kind: "struct"),
        entry(div_t.self, kind: "struct"),
    ]
    _ = r
    return "[\n" + entries.joined(separator: ",\n") + "\n]"
}
