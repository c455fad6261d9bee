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
print(
    "{\"pid\":\(getpid()),\"listLength\":\(listLength),"
        + "\"responderType\":\(quoted(String(reflecting: type(of: router.responder)))),"
        + "\"responderFieldType\":\(quoted(String(reflecting: (any Responder<BasicContext>).self))),"
        + "\"modelsFieldType\":\(quoted(String(reflecting: [any Schema.Type].self))),"
        + "\"existentialMetatypeFieldType\":\(quoted(String(reflecting: (any Schema.Type).self))),"
        + "\"protocolMetatypeFieldType\":\(quoted(String(reflecting: (any Schema).Type.self))),"
        + "\"secretType\":\(quoted(keeper.secretTypeName)),\"secretAddress\":\"0x\(String(keeper.secretAddress, radix: 16))\","
        + entries.joined(separator: ",") + "}")
fflush(stdout)
while readLine() != nil {}
exit(0)
