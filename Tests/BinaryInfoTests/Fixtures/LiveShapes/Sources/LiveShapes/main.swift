// Keeps one object of each shape in Shapes.swift alive and prints, as one JSON line, each
// object's address and the runtime's own name of its type (`String(reflecting:)`), then waits
// until its standard input closes (the test process that started it is gone).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

func address(_ object: AnyObject) -> String {
    "\"0x" + String(UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), radix: 16) + "\""
}
func quoted(_ text: String) -> String { "\"" + text.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\"" }

let router = Router()
let migrations = Migrations()
let fields = FieldHolder()
let optionals = Optionals()
let box = Box(Order(number: 99))
let book = OrderBook()
let session = Session()
session.handler = Handler()
session.handler!.session = session
let listLength = 20
var head: ListNode? = nil
for index in (0..<listLength).reversed() { head = ListNode(index: index, next: head) }
let keeper = SecretKeeper()
let metatypes = Metatypes()
let endpoints = Endpoints()
let shelves = (0..<3).map { _ in Shelf() }
let vaultKeeper = VaultKeeper()

/// The storage object of `array` (an array is one reference to it) and the element type its
/// elements have in common, as this program made them (nil: none).
func storage<T>(_ array: [T], _ elementType: Any.Type?) -> String {
    let object = "\"0x" + String(unsafeBitCast(array, to: UInt.self), radix: 16) + "\""
    return "{\"storage\":\(object),\"count\":\(array.count),\"elementType\":"
        + (elementType.map { quoted(String(reflecting: $0)) } ?? "null") + "}"
}
var arrays: [String] = [storage(book.orders, Order.self), storage(shelves, Shelf.self)]
for shelf in shelves {
    arrays.append(storage(shelf.items, Item.self))
    arrays.append(storage(shelf.animals, Animal.self))
    arrays.append(storage(shelf.dogs, Dog.self))
    arrays.append(storage(shelf.mixed, nil))
    arrays.append(storage(shelf.reserved, nil))
}

var entries: [String] = []
func entry(_ key: String, _ object: AnyObject) {
    entries.append("\"\(key)\":{\"address\":\(address(object)),\"type\":\(quoted(String(reflecting: type(of: object))))}")
}
entry("router", router)
entry("migrations", migrations)
entry("fields", fields)
entry("optionals", optionals)
entry("box", box)
entry("book", book)
entry("session", session)
entry("handler", session.handler!)
entry("list", head!)
entry("keeper", keeper)
entry("metatypes", metatypes)
entry("endpoints", endpoints)
print(
    "{\"pid\":\(getpid()),\"listLength\":\(listLength),"
        + "\"responderType\":\(quoted(String(reflecting: type(of: router.responder)))),"
        + "\"responderFieldType\":\(quoted(String(reflecting: (any Responder<BasicContext>).self))),"
        + "\"modelsFieldType\":\(quoted(String(reflecting: [any Schema.Type].self))),"
        + "\"existentialMetatypeFieldType\":\(quoted(String(reflecting: (any Schema.Type).self))),"
        + "\"protocolMetatypeFieldType\":\(quoted(String(reflecting: (any Schema).Type.self))),"
        + "\"methodsFieldType\":\(quoted(String(reflecting: [String: any Responder<BasicContext>].self))),"
        + "\"vaultType\":\(quoted(vaultKeeper.vaultTypeName)),"
        + "\"methodsStorageType\":\(quoted(String(reflecting: type(of: unsafeBitCast(endpoints.responders.methods, to: AnyObject.self))))),"
        + "\"classArrays\":[\(arrays.joined(separator: ","))],"
        + "\"secretType\":\(quoted(keeper.secretTypeName)),\"secretAddress\":\"0x\(String(keeper.secretAddress, radix: 16))\","
        + entries.joined(separator: ",") + "}")
fflush(stdout)
while readLine() != nil {}
exit(0)
