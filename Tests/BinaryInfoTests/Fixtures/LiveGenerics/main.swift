// A process whose generic instantiations exist only at run time (built by
// Tests/BinaryFixtures/LiveGenericsFixture.swift), for `typeinfo dump --pid` and `dump CORE`.
//
// It makes objects of generic classes over its own types, a non-generic class that stores a
// generic struct, and one instantiation that no object holds (its metadata is made, nothing on
// the heap reaches it). It prints each instantiation as the runtime lays it out (MemoryLayout,
// `_forEachField`), with whether a live object's stored fields reach it, as one JSON line, and
// waits until killed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Reflection) import Swift

struct Point {
    var x: Int32
    var y: Int32
}

struct Pair<First, Second> {
    var first: First
    var second: Second
}

struct Wrapper<Inner> {
    var count: UInt8
    var inner: Inner
    var total: Int
}

enum Choice<Value> {
    case empty
    case one(Value)
    case two(Value, Value)
}

final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

final class Holder {
    var label: UInt16 = 7
    var pair: Pair<Int, String>
    var choice: Choice<Point>
    init(pair: Pair<Int, String>, choice: Choice<Point>) {
        self.pair = pair
        self.choice = choice
    }
}

/// Everything alive.
var held: [AnyObject] = []
for index in 0..<10 { held.append(Box(Point(x: Int32(index), y: -1))) }
for index in 0..<3 { held.append(Box(Pair(first: index, second: "pair \(index)"))) }
held.append(Box(Wrapper(count: 2, inner: Pair(first: Int8(1), second: 2.5), total: 99)))
held.append(Holder(pair: Pair(first: 5, second: "held"), choice: .two(Point(x: 1, y: 2), Point(x: 3, y: 4))))

func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// One instantiation as the runtime lays it out: a value type's MemoryLayout and field offsets,
/// or a class's instance (fields from `_forEachField(options: .classType)`; the instance size is
/// the end of its last field).
@inline(never)
func describe<T>(_ type: T.Type, kind: String, reachedFromHeap: Bool) -> String {
    let metadata = UInt(bitPattern: unsafeBitCast(type as Any.Type, to: Int.self))
    var fields: [String] = []
    var instanceSize = 16
    let isClass = type is AnyObject.Type
    func size<U>(_: U.Type) -> Int { MemoryLayout<U>.size }
    _ = _forEachField(of: type, options: isClass ? .classType : []) { name, offset, fieldType, _ in
        fields.append("{\"name\":\(quoted(String(cString: name))),\"offset\":\(offset)}")
        instanceSize = max(instanceSize, offset + _openExistential(fieldType, do: size))
        return true
    }
    return "{\"type\":\(quoted(String(reflecting: type))),\"metadata\":\"0x\(String(metadata, radix: 16))\","
        + "\"kind\":\"\(kind)\","
        + "\"size\":\(MemoryLayout<T>.size),\"alignment\":\(MemoryLayout<T>.alignment),\"stride\":\(MemoryLayout<T>.stride),"
        + (isClass ? "\"instanceSize\":\(instanceSize)," : "")
        + "\"reachedFromHeap\":\(reachedFromHeap),\"fields\":[\(fields.joined(separator: ","))]}"
}

let types = [
    describe(Box<Point>.self, kind: "class", reachedFromHeap: true),
    describe(Box<Pair<Int, String>>.self, kind: "class", reachedFromHeap: true),
    describe(Box<Wrapper<Pair<Int8, Double>>>.self, kind: "class", reachedFromHeap: true),
    describe(Pair<Int, String>.self, kind: "struct", reachedFromHeap: true),
    describe(Wrapper<Pair<Int8, Double>>.self, kind: "struct", reachedFromHeap: true),
    describe(Pair<Int8, Double>.self, kind: "struct", reachedFromHeap: true),
    describe(Choice<Point>.self, kind: "enum", reachedFromHeap: true),
    // Made here, held by nothing: only the runtime's metadata caches know of it.
    describe(Pair<UInt16, Bool>.self, kind: "struct", reachedFromHeap: false),
]
print("{\"pid\":\(getpid()),\"types\":[\(types.joined(separator: ","))]}")
fflush(stdout)
while true { pause() }
