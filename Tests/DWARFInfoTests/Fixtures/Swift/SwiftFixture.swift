// Swift layouts for the DWARFInfo tests, built with `swiftc -g -Xfrontend -gdwarf-types
// -module-name SwiftFixture`. Run, the program prints its own truth: MemoryLayout for every
// type and the runtime's field offsets (`_forEachField`, the same entry point reflection uses).
// The tests compare that truth with what DWARF says, through LayoutWitnessComparison.
@_spi(Reflection) import Swift

public struct Point { public var x: Double; public var flag: Bool; public var y: Int32 }
public struct Aligned { public var a: Int64; public var b: Int32; public var c: Int16; public var d: UInt8 }
public struct Narrow { public var a: Bool; public var b: Int64; public var c: Bool }
public struct Outer {
    public struct Inner { public var v: UInt16; public var w: UInt8 }
    public var inner: Inner
    public var tail: UInt32
}
public final class Node {
    public var value: Int = 1
    public var flag: Bool = false
    public var count: Int32 = 0
    public var next: Node? = nil
    public init() {}
}
public class Base { public var a: Int8 = 0; public init() {} }
public class Derived: Base { public var b: Int64 = 0; public var c: Int8 = 0 }
public enum Shape {
    case circle(Double)
    case square(Int)
    case empty
}
public enum Direction { case north, south, east, west }

// Globals of every type, so that the compiler describes each one in full.
public var fixturePoint = Point(x: 1, flag: true, y: 2)
public var fixtureAligned = Aligned(a: 1, b: 2, c: 3, d: 4)
public var fixtureNarrow = Narrow(a: true, b: 1, c: false)
public var fixtureOuter = Outer(inner: .init(v: 1, w: 2), tail: 3)
public var fixtureNode = Node()
public var fixtureBase = Base()
public var fixtureDerived = Derived()
public var fixtureShape = Shape.circle(1)
public var fixtureDirection = Direction.east
public var fixtureExistential: any CustomStringConvertible = 1

func printType<T>(_ type: T.Type, kind: String) {
    let name = String(reflecting: type)
    print("type|\(name)|\(kind)|\(MemoryLayout<T>.size)|\(MemoryLayout<T>.alignment)|\(MemoryLayout<T>.stride)")
    let options: _EachFieldOptions = kind == "class" ? [.classType] : []
    guard kind != "enum" else { return }
    _ = _forEachField(of: type, options: options) { fieldName, offset, _, _ in
        print("field|\(name)|\(String(cString: fieldName))|\(offset)")
        return true
    }
}

printType(Point.self, kind: "struct")
printType(Aligned.self, kind: "struct")
printType(Narrow.self, kind: "struct")
printType(Outer.self, kind: "struct")
printType(Outer.Inner.self, kind: "struct")
printType(Node.self, kind: "class")
printType(Base.self, kind: "class")
printType(Derived.self, kind: "class")
printType(Shape.self, kind: "enum")
printType(Direction.self, kind: "enum")
print("superclass|\(String(reflecting: Derived.self))|\(String(reflecting: Base.self))")
