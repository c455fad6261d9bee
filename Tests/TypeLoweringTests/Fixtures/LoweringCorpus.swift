// The lowering fixture corpus: types whose layouts the static metadata alone leaves unknown.
// Compiled by the tests (plain and -O); the program prints its own layouts as the oracle.
import Foundation
import Synchronization

public protocol Shape { func area() -> Double }
public protocol Named { var name: String { get } }
public final class Node { public var value = 0; public init() {} }

public struct Wrapper<T> { public var first: T; public var tag: Int8 }

public struct BoundGenerics {
    public var wrappedInt: Wrapper<Int>
    public var wrappedString: Wrapper<String>?
    public var strings: [String]
    public var table: [String: Int]
    public var set: Set<Int8>
    public var pair: Wrapper<Wrapper<Bool>>
}

public struct Optionals {
    public var int: Int?
    public var bool: Bool?
    public var string: String?
    public var object: Node?
    public var nested: Int8??
    public var closure: (() -> Void)?
    public var any: Any?
    public var pointer: UnsafeRawPointer?
    public var double: Double?
}

public enum MultiPayload {
    case number(Int)
    case text(String)
    case flag(Bool)
    case none
}
public enum PointerPayloads {
    case left(Node)
    case right(Node)
    case neither
}
public enum SpareBitPayloads {
    case yes(Bool)
    case no(Bool)
    case unknown
}
public enum ObjectOrString {
    case object(Node)
    case text(String)
    case pair(Node, Node)
}
public enum NoPayload { case north, east, south, west }
public indirect enum Tree {
    case leaf(Int)
    case branch(Tree, Tree)
}

public struct Enums {
    public var multi: MultiPayload
    public var pointers: PointerPayloads
    public var plain: NoPayload
    public var tree: Tree
    public var optionalMulti: MultiPayload?
}

public struct FoundationTypes {
    public var date: Date
    public var url: URL
    public var data: Data
    public var uuid: UUID
    public var decimalFlag: Bool
}

public final class References {
    public weak var weakNode: Node?
    public unowned var unownedNode: Node
    public unowned(unsafe) var unsafeNode: Node
    public var strongNode: Node
    public init(_ node: Node) { unownedNode = node; unsafeNode = node; strongNode = node }
}

public struct Functions {
    public var thick: () -> Void
    public var c: @convention(c) (Int32) -> Int32
    public var throwing: (Int) throws -> String
    public var flag: Bool
}

public struct Existentials {
    public var any: Any
    public var shape: any Shape
    public var object: AnyObject
    public var error: any Error
    public var composed: any Shape & Named
    public var metatype: Int.Type
    public var anyMetatype: Any.Type
    public var shapeMetatype: any Shape.Type
    public var flag: Int8
}

public struct Tuples {
    public var mixed: (Int8, Int, Bool)
    public var labelled: (name: String, code: Int8)
    public var empty: ()
    public var tail: Int16
}

public class Base { public var small: Int8 = 0; public var wrapped = Wrapper(first: Int8(1), tag: 2); public init() {} }
public class Middle: Base { public var number = 0; public var list: [Int] = [] }
public final class Leaf: Middle { public var byte: Int8 = 0; public var maybe: Wrapper<String>? = nil }

public final class CustomEncoder: JSONEncoder, @unchecked Sendable { public var extra: Int8 = 1 }
public final class CustomDecoder: JSONDecoder, @unchecked Sendable { public var strict = false; public var depth = 0 }

public final class AtomicHolder { public let counter = Atomic<Int>(0); public var flag: Int8 = 0; public init() {} }

// Classes whose superclass is a bound generic class: the standard library's ManagedBuffer (another
// image) bound to a public and to a private header (whose mangling the reader cannot spell), and a
// generic class of this module. The runtime lays their instances out from the instantiated superclass.
public struct PublicHead { public var count = 0; public var flags: Int8 = 0; public var capacity = 0 }
public final class PublicHeadStorage: ManagedBuffer<PublicHead, UInt8> {}
public struct PooledStorage {
    private struct PooledStorageHead { var count = 0; var flags: Int8 = 0; var capacity = 0; var spare = 0 }
    private final class PooledStorageBacking: ManagedBuffer<PooledStorageHead, UInt8> {}
    /// The private class, for the fixture's printout (main.swift cannot name it).
    static let storageClass: AnyClass = PooledStorageBacking.self
}
public class GenericBase<Value> { public var value: Value; public var tag: Int8 = 0; public init(_ value: Value) { self.value = value } }
public final class BoundSubclass: GenericBase<Int> { public var extra: Int16 = 0 }

// Weak class existentials: the library gives them a strong existential's extra inhabitants; the
// runtime's are the witness tables' (2147483647), or none without one.
public protocol Delegate: AnyObject {}
public struct WeakDelegateHolder { public weak var delegate: (any Delegate)?; public var count: Int8 }
public struct WeakObjectHolder { public weak var object: AnyObject? }
public struct WeakComposedHolder { public weak var delegate: (any Delegate & Named)? }
public struct WeakNodeHolder { public weak var node: Node? }
/// Its size rests on the payload's extra inhabitants (none: a tag byte follows); its strategy is left unknown.
public enum WeakPayload { case holder(WeakObjectHolder); case empty }

// Single-case enums with a payload: laid out as the payload, with no tag.
public enum Sanitizer { case address, thread, undefined }
public enum SingleCaseEnumPayload { case unsupported(Sanitizer) }
public enum SingleCaseStructPayload { case only(Wrapper<Int>) }

// Cases that share a name (their labels differ): each has its own payload.
public enum SameNamedCases {
    case invalid(String, file: String?)
    case invalid(String, file: String?, lines: [String]?)
    case other
}
