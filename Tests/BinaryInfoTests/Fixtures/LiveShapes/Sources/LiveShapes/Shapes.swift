// The types whose objects LiveShapes keeps alive. `String(reflecting:)` of each is what a reader
// must print for it.

public protocol Responder<Context> {
    associatedtype Context
    func respond(_ context: Context) -> Int
}

public struct BasicContext { public var id = 7 }

public struct EchoResponder: Responder {
    public func respond(_ context: BasicContext) -> Int { context.id }
}

/// A parameterized existential field.
public final class Router {
    public var responder: any Responder<BasicContext> = EchoResponder()
}

public protocol Schema { static var schemaName: String { get } }
public struct UserSchema: Schema { public static let schemaName = "users" }
public struct OrderSchema: Schema { public static let schemaName = "orders" }

/// Existential metatypes in an array.
public final class Migrations {
    public var models: [any Schema.Type] = [UserSchema.self, OrderSchema.self]
}

/// An indirect enum whose payloads are boxed.
public indirect enum FieldKey {
    case string(String)
    case prefixed(FieldKey, String)
    case id
}

public final class FieldHolder {
    public var key: FieldKey = .string("title")
    public var nested: FieldKey = .prefixed(.string("inner"), "outer")
    public var plain: FieldKey = .id
}

/// Nested optionals: each of the three states.
public final class Optionals {
    public var none: Double?? = .none
    public var someNone: Double?? = .some(nil)
    public var someSome: Double?? = .some(1.5)
}

public final class Order {
    public let number: Int
    public var note: String
    public init(number: Int) {
        self.number = number
        note = "order \(number)"
    }
}

/// A generic class with `let` and `var` fields.
public final class Box<T> {
    public let value: T
    public var count: Int
    public init(_ value: T) {
        self.value = value
        count = 1
    }
}

/// Arrays of class elements.
public final class OrderBook {
    public var orders: [Order] = (0..<5).map { Order(number: $0) }
}

/// A two-object retain cycle.
public final class Session {
    public var name = "session"
    public var handler: Handler?
}

public final class Handler {
    public var session: Session?
}

/// A linked list.
public final class ListNode {
    public let index: Int
    public var next: ListNode?
    public init(index: Int, next: ListNode?) {
        self.index = index
        self.next = next
    }
}

private final class Secret {
    var code = 42
}

/// A holder of a private type's object.
public final class SecretKeeper {
    fileprivate var secret = Secret()
    public var secretTypeName: String { String(reflecting: type(of: secret)) }
    public var secretAddress: UInt { UInt(bitPattern: Unmanaged.passUnretained(secret).toOpaque()) }
}

/// An existential metatype beside a protocol metatype: `any Schema.Type` is not `(any Schema).Type`.
public final class Metatypes {
    public var existential: any Schema.Type = UserSchema.self
    public var protocolMetatype: (any Schema).Type = (any Schema).self
}

/// A generic struct whose field is a parameterized existential of its own parameter, beside a
/// `let` (the shape of Hummingbird's `EndpointResponders`).
public struct EndpointResponders<Context> {
    public let path: String
    public var methods: [String: any Responder<Context>]
}

public final class Endpoints {
    public var responders = EndpointResponders<BasicContext>(path: "/", methods: ["GET": EchoResponder()])
}

/// Elements of arrays of classes: every `[C]` of a class `C` is stored as
/// `_ContiguousArrayStorage<AnyObject>`.
public class Animal {
    public let name: String
    public init(name: String) { self.name = name }
}
public final class Dog: Animal {}
public final class Cat: Animal {}
public final class Item {
    public let id: Int
    public init(id: Int) { self.id = id }
}

/// Arrays of class elements, each of a kind a reader must attribute (or not) by its elements.
public final class Shelf {
    /// Every element an `Item`.
    public var items: [Item] = (0..<3).map(Item.init)
    /// Elements of two subclasses of `Animal`: their common superclass.
    public var animals: [Animal] = [Dog(name: "rex"), Cat(name: "tom")]
    /// Declared `[Animal]`, every element a `Dog`.
    public var dogs: [Animal] = [Dog(name: "a"), Dog(name: "b")]
    /// Elements of unrelated classes: no common class.
    public var mixed: [AnyObject] = [Item(id: 7), Order(number: 8)]
    /// Empty, with storage of its own: nothing says its element type.
    public var reserved: [Item] = {
        var items: [Item] = []
        items.reserveCapacity(4)
        return items
    }()
}

/// A private actor: named by its private discriminator, as the runtime names it.
private actor Vault {
    var opened = 0
}

public final class VaultKeeper {
    fileprivate let vault = Vault()
    public var vaultTypeName: String { String(reflecting: type(of: vault)) }
}
