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

/// A protocol with a primary associated type: a field `any Handler<Context>` of a generic type is
/// a parameterized existential of the type's own generic parameter.
protocol Handler<Context> {
    associatedtype Context
    func handle(_ context: Context) -> Int
}

struct RequestContext {
    var id = 1
}

struct EchoHandler: Handler {
    func handle(_ context: RequestContext) -> Int { context.id }
}

/// Two generic arguments, the existential on the second.
struct Routes<Tag, Context> {
    var tag: Tag
    var handlers: [String: any Handler<Context>]
}

/// A generic class of one argument with such a field.
final class Responders<Context> {
    var handler: any Handler<Context>
    init(_ handler: any Handler<Context>) { self.handler = handler }
}

/// A generic class of two arguments with such fields, one inside a struct of both arguments.
final class Router<Tag, Context> {
    var first: any Handler<Context>
    var routes: Routes<Tag, Context>
    init(_ tag: Tag, _ handler: any Handler<Context>) {
        first = handler
        routes = Routes(tag: tag, handlers: ["GET": handler])
    }
}

/// A generic type nested in a generic type: its field's parameter is the inner type's (depth 1).
struct Outer<Tag> {
    struct Inner<Context> {
        var tag: Tag
        var handler: any Handler<Context>
    }
}

final class InnerHolder {
    var inner = Outer<UInt8>.Inner<RequestContext>(tag: 3, handler: EchoHandler())
}

/// Everything alive.
var held: [AnyObject] = []
for index in 0..<10 { held.append(Box(Point(x: Int32(index), y: -1))) }
for index in 0..<3 { held.append(Box(Pair(first: index, second: "pair \(index)"))) }
held.append(Box(Wrapper(count: 2, inner: Pair(first: Int8(1), second: 2.5), total: 99)))
held.append(Holder(pair: Pair(first: 5, second: "held"), choice: .two(Point(x: 1, y: 2), Point(x: 3, y: 4))))
let responders = Responders<RequestContext>(EchoHandler())
let router = Router<Point, RequestContext>(Point(x: 7, y: 8), EchoHandler())
let innerHolder = InnerHolder()
held += [responders, router, innerHolder]

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
        fields.append(
            "{\"name\":\(quoted(String(cString: name))),\"offset\":\(offset),\"type\":\(quoted(String(reflecting: fieldType)))}")
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
    describe(Responders<RequestContext>.self, kind: "class", reachedFromHeap: true),
    describe(Router<Point, RequestContext>.self, kind: "class", reachedFromHeap: true),
    describe(Routes<Point, RequestContext>.self, kind: "struct", reachedFromHeap: true),
    describe(Outer<UInt8>.Inner<RequestContext>.self, kind: "struct", reachedFromHeap: true),
]
func object(_ object: AnyObject) -> String {
    "{\"address\":\"0x\(String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16))\","
        + "\"type\":\(quoted(String(reflecting: type(of: object))))}"
}
print(
    "{\"pid\":\(getpid()),\"types\":[\(types.joined(separator: ","))],"
        + "\"objects\":[\([responders, router, innerHolder].map(object).joined(separator: ","))]}")
fflush(stdout)
while true { pause() }
