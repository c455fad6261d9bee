// Built with -O in Swift 5 language mode by ExistentialReleaseTests and run: issue 23's
// instances held in existentials, passed to TypeInfo unopened as a Swift 5 client passes them,
// in an optimized client (TypeInfo's inlinable entry points are specialised here with the
// existential as `Instance`). Each line prints what TypeInfo did next to the oracle: the value
// read back through ordinary Swift, a copy made before the write, `===` for classes.
// One `name<TAB>value` line per check, read by the test.
import TypeInfo

func emit(_ name: String, _ value: Any) { print("\(name)\t\(value)") }

func attempt(_ name: String, _ body: () throws -> Any) {
    do { emit(name, try body()) } catch { emit(name, "error: \(error)") }
}

protocol Named { var firstname: String { get } }
protocol Aged {}
protocol Owned: AnyObject {}

struct Public: Named, Aged { var firstname = "Wes"; var age = 25 }
struct Team { var lead = Public(); var size = 3 }
final class Account: Named, Owned { var firstname = "Ann" }
struct Other: Named { var firstname = "other" }
enum Signal {
    case level(Int)
    case off
}
struct Failure: Error { var code = 1 }
final class ObjectFailure: Error { var code = 2 }

/// Generic code passing its `Instance` on.
@inline(never) func forwardSet<Instance>(_ property: PropertyInfo, _ value: Any, on instance: inout Instance) throws {
    try property.set(value, on: &instance)
}

/// An `Any` holding an `Any` (generic code boxing an `Instance` that is `Any`).
@inline(never) func box<Instance>(_ instance: Instance) -> Any { instance }

let info = ClassInfo.of(Public.self)
let first = info.propertyInfo(named: "firstname")!
let age = info.propertyInfo(named: "age")!

attempt("set.any") {
    var value: Any = Public()
    let before = value
    try first.set("John", on: &value)
    return "\((value as! Public).firstname) \((before as! Public).firstname)"
}
attempt("get.anyP") {
    let value: any Named = Public(firstname: "Kim")
    return "\(try first.get(from: value)) \(try first.get(String.self, from: value)) \(value.firstname)"
}
attempt("set.anyP") {
    var value: any Named = Public()
    let before = value
    try first.set("Jo", on: &value)
    return "\(value.firstname) \(before.firstname)"
}
attempt("set.composition") {
    var value: any Named & Aged = Public()
    try forwardSet(age, 40, on: &value)
    try first.set("Max", on: &value)
    return "\(value.firstname) \((value as! Public).age)"
}
attempt("storage.of.any") {
    var value: Any = Public()
    let before = value
    try info.withStorage(of: &value) { try $0.set("Jim", for: first) }
    return "\((value as! Public).firstname) \((before as! Public).firstname)"
}
attempt("storage.reading.any") {
    let value: Any = Public(firstname: "Lu")
    return try info.withStorage(reading: value) { try $0.get(String.self, for: first) }
}
attempt("nested") {
    var value = box(Public() as Any)
    func openedType<T>(_: T) -> Any.Type { T.self }
    let isNested = _openExistential(value, do: openedType) == Any.self
    let before = value
    try info.withStorage(of: &value) { try $0.set("Deep", for: first) }
    try forwardSet(age, 1, on: &value)
    return "\(isNested) \((value as! Public).firstname) \((value as! Public).age) \((before as! Public).firstname)"
}
attempt("class") {
    let account = Account()
    let name = ClassInfo.of(Account.self).propertyInfo(named: "firstname")!
    var object: AnyObject = account
    try name.set("Bo", on: &object)
    let afterSet = account.firstname
    var bound: any Owned = account
    try ClassInfo.of(Account.self).withStorage(of: &bound) { try $0.set("Cy", for: name) }
    return "\(afterSet) \(account.firstname) \(object === account) \(bound === account)"
}
attempt("paths") {
    let teamInfo = ClassInfo.of(Team.self)
    var value: Any = Team()
    let before = value
    try teamInfo.propertyPath("lead.firstname").set("Path", on: &value)
    var nested = box(Team() as Any)
    try teamInfo.propertyPath(for: \Team.lead.firstname).set("Key", on: &nested)
    return "\((value as! Team).lead.firstname) \((before as! Team).lead.firstname) \((nested as! Team).lead.firstname)"
}
attempt("factory") {
    let made = try info.makeInstance(Any.self)
    let named = try info.makeInstance((any Named).self)
    return "\(made is Public) \(named is Public)"
}
attempt("enum") {
    let signalInfo = ClassInfo.of(Signal.self)
    let signal: Any = Signal.level(9)
    let read = try signalInfo.enumCase(of: signal)
    let built = try signalInfo.makeEnumValue(Any.self, caseNamed: "off")
    return "\(read.caseName) \(read.payload ?? "nil") \(try signalInfo.enumCase(of: box(Signal.off as Any)).caseName) \(built is Signal)"
}
attempt("error.box") {
    let object = ObjectFailure()
    var objectFailure: any Error = object
    try ClassInfo.of(ObjectFailure.self).propertyInfo(named: "code")!.set(7, on: &objectFailure)
    var failure: any Error = Failure()
    let before = failure
    try ClassInfo.of(Failure.self).propertyInfo(named: "code")!.set(5, on: &failure)
    return "\(object.code) \((failure as! Failure).code) \((before as! Failure).code)"
}
attempt("error") {
    var value = box(Other() as Any)
    try first.set("x", on: &value)
    return "no error"
}
