import Foundation
import TypeInfoFixtures
typealias CrossModuleBaseAlias = CrossModuleBase

// The case table: one type per situation the issue names. Each test reads a type through
// ClassInfo and compares with what the language itself says (MemoryLayout, offset(of:),
// addresses inside live instances, Mirror).

struct EmptyStruct {}

struct MixedScalars {
    var flag: Bool = true
    var wide: Int64 = -5
    var small: UInt8 = 9
    var real: Double = 2.5
    var half: Int16 = 300
    var single: Float = 1.5
    var character: Character = "é"
}

struct Inner {
    var a: Int32 = 1
    var b: Bool = false
}

struct Nested {
    var inner: Inner = Inner()
    var tag: UInt8 = 3
    var more: Inner = Inner(a: 9, b: true)
}

final class Referent {
    var value: Int
    init(_ value: Int = 0) { self.value = value }
}

struct Optionals {
    var int: Int? = 4
    var string: String? = "s"
    var object: Referent? = Referent(2)
    var inner: Inner? = nil
    var double: Double?? = .some(nil)
}

struct Collections {
    var array: [Int] = [1, 2]
    var dictionary: [String: Double] = ["a": 1]
    var set: Set<String> = ["x"]
    var nested: [[Inner]] = [[Inner()]]
}

struct Tuples {
    var pair: (Int, String) = (1, "one")
    var labelled: (x: Float, y: Float) = (x: 1, y: 2)
    var unit: () = ()
}

struct Closures {
    var transform: (Int) -> Int = { $0 + 1 }
    var thrower: (String) throws -> Void = { _ in }
    var asyncSendable: @Sendable () async -> Int = { 1 }
}

protocol Shape { var area: Double { get } }
protocol Named { var name: String { get } }
protocol Delegate: AnyObject { func ping() }
struct Square: Shape, Named { var side = 2.0; var area: Double { side * side }; var name: String { "square" } }
final class DelegateObject: Delegate { func ping() {} }
class BaseObject {}

struct Existentials {
    var any: Any = 1
    var shape: any Shape = Square()
    var object: AnyObject = Referent()
    var delegate: any Delegate = DelegateObject()
    var composition: any Shape & Named = Square()
    var classBound: BaseObject & Delegate = DelegateBase()
    var metatype: Any.Type = Int.self
}
final class DelegateBase: BaseObject, Delegate { func ping() {} }

enum NoPayload { case north, south, east, west }
enum WithPayload {
    case point(Double, Double)
    case label(String)
    case empty
}
enum RawValued: String {
    case alpha = "a"
    case beta = "b"
}
indirect enum Tree {
    case leaf(Int)
    case node(Tree, Tree)
}
enum PartlyIndirect { case value(Int); indirect case list(PartlyIndirect) }

struct Statics {
    nonisolated(unsafe) static var shared = 5
    static let constant = "c"
    var stored: Int = 1
    var computed: Int { stored * 2 }
}

struct LazyHolder {
    var before: Int = 1
    lazy var expensive: String = "computed"
    var after: Bool = true
}

@propertyWrapper struct Clamped {
    var wrappedValue: Int { didSet { wrappedValue = min(max(wrappedValue, 0), 10) } }
    init(wrappedValue: Int) { self.wrappedValue = wrappedValue }
}

struct Wrapped {
    @Clamped var level: Int = 5
    var plain: String = "p"
}

enum Outer {
    struct NestedType { var value: Int = 0 }
}

private struct PrivateType {
    var hidden: Int = 3
    var other: String = "o"
}
func privateTypeForTests() -> Any.Type { PrivateType.self }
func privateTypeOffsets() -> [String: Int?] {
    ["hidden": MemoryLayout<PrivateType>.offset(of: \.hidden), "other": MemoryLayout<PrivateType>.offset(of: \.other)]
}
func privateValue() -> Any { PrivateType() }

struct Box<T> {
    var value: T
    var count: Int = 0
}

struct Pair<A, B> {
    var first: A
    var second: B
}

class GenericNode<Element> {
    final var element: Element
    final var next: GenericNode<Element>?
    init(_ element: Element) { self.element = element }
}

// Stored properties of these non-final classes are `final`, so that `&object.property`
// addresses the storage itself (the live-offset oracle) rather than a temporary.
class Animal {
    final var name: String = "animal"
    let legs: Int = 4
    init() {}
}

class Mammal: Animal {
    final var furColor: String = "brown"
    final var warm: Bool = true
}

class Dog: Mammal {
    final var breed: String = "mutt"
    let good: Bool = true
    final var tail: UInt8 = 1
}

final class FinalThing {
    var x: Int = 1
    var y: UInt8 = 2
}

final class Ownerships {
    var strong: Referent = Referent(1)
    weak var weakRef: Referent?
    unowned var unownedRef: Referent
    unowned(unsafe) var unsafeRef: Referent
    weak var weakDelegate: (any Delegate)?
    unowned var unownedDelegate: any Delegate

    init(anchor: Referent, delegate: any Delegate) {
        unownedRef = anchor
        unsafeRef = anchor
        unownedDelegate = delegate
    }
}

struct WeakHolder {
    var count: Int = 0
    weak var ref: Referent?
}

final class SubclassOfOtherModule: CrossModuleBaseAlias {
    var extra: UInt16 = 5
}
