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
