// One source compiled twice: by TypeInfoClientSwift5Tests in Swift 5 language mode and, through a
// symlink, by TypeInfoClientSwift6Tests in Swift 6 mode, so the cases cannot drift. Swift 6 opens
// an existential argument at the call site; Swift 5 hands the existential itself to the library,
// whose own opening path a Swift 6 client reaches only with an existential it cannot open (an
// `Any` inside an `Any`, a spelled generic argument: see `Unopened`).
// The oracles are ordinary Swift: the property read back after the write, `===` for class
// instances, and a copy of the existential made before the write keeping its old value.
import Testing
import TypeInfo

protocol ClientNamed { var firstname: String { get } }
protocol ClientAged {}
protocol ClientObject: AnyObject {}

struct ClientPerson: ClientNamed, ClientAged { var firstname = "Wes"; var age = 25 }
struct ClientTeam { var lead = ClientPerson(); var size = 3 }
final class ClientAccount: ClientNamed, ClientObject { var firstname = "Ann"; var balance = 10 }
struct ClientOther: ClientNamed { var firstname = "other" }
enum ClientMood: String { case calm, angry }
struct ClientFailure: Error { var code = 1 }
final class ClientObjectFailure: Error { var code = 2 }
enum ClientSignal {
    case level(Int)
    case off
}

/// Calls whose `Instance` is the existential itself in either language mode: the type is
/// spelled, so Swift 6 has nothing to open at the call site and TypeInfo's own opening runs.
enum Unopened<Instance> {
    static func set(_ property: PropertyInfo, _ value: Any, on instance: inout Instance) throws {
        try property.set(value, on: &instance)
    }
    static func get(_ property: PropertyInfo, from instance: Instance) throws -> Any {
        try property.get(from: instance)
    }
    static func withStorage(_ info: ClassInfo, of instance: inout Instance, set value: Any, for property: PropertyInfo) throws {
        try info.withStorage(of: &instance) { try $0.set(value, for: property) }
    }
    static func read(_ info: ClassInfo, _ instance: Instance, _ property: PropertyInfo) throws -> String {
        try info.withStorage(reading: instance) { try $0.get(String.self, for: property) }
    }
}

/// An `Any` whose box holds another `Any`: generic code boxing an `Instance` that is `Any`.
func boxInAny<Instance>(_ instance: Instance) -> Any { instance }

/// Whether generic Swift code handed `&error` (an `any Error` holding a `ClientFailure`) changes
/// copies of the existential made before: true when the language mode opens `inout any Error`
/// at the call site in place (Swift 6 mode, Swift 6.3), false when it passes the existential.
func plainSwiftWritesThroughOpenedErrorBox() -> Bool {
    func replace<T>(_ value: inout T) {
        guard var failure = value as? ClientFailure else { return }
        failure.code += 100
        value = failure as! T
    }
    var error: any Error = ClientFailure()
    let before = error
    replace(&error)
    return (before as? ClientFailure)?.code != 1
}

/// An `Any` holding an `Any` holding `value`, checked to be nested (one opening gives `Any` back).
func nestedAny(_ value: Any) throws -> Any {
    let nested = boxInAny(value as Any)
    func openedType<T>(_: T) -> Any.Type { T.self }
    try #require(_openExistential(nested, do: openedType) == Any.self, "the test's input is an Any inside an Any")
    return nested
}

/// Identity outside `#expect`: Swift 6.3's SIL generation crashes on `===` with an existential inside the macro.
private func isSame(_ left: AnyObject, _ right: AnyObject) -> Bool { left === right }

private func message(_ body: () throws -> Void) -> String {
    do { try body(); return "no error" } catch { return String(describing: error) }
}

private let personInfo = ClassInfo.of(ClientPerson.self)
private let accountInfo = ClassInfo.of(ClientAccount.self)

@Suite struct ExistentialClientTests {
    let first = personInfo.propertyInfo(named: "firstname")!
    let age = personInfo.propertyInfo(named: "age")!
    let accountName = accountInfo.propertyInfo(named: "firstname")!

    // MARK: structs: value semantics

    @Test func setOnAny() throws {
        var value: Any = ClientPerson()
        let before = value
        try first.set("John", on: &value)
        #expect((value as? ClientPerson)?.firstname == "John")
        #expect((before as? ClientPerson)?.firstname == "Wes")
        try Unopened<Any>.set(age, 30, on: &value)
        #expect((value as? ClientPerson)?.age == 30)
        #expect((value as? ClientPerson)?.firstname == "John")
    }

    @Test func getFromAnyP() throws {
        let value: any ClientNamed = ClientPerson(firstname: "Kim")
        #expect(try first.get(from: value) as? String == value.firstname)
        #expect(try first.get(String.self, from: value) == value.firstname)
        var inPlace = value
        #expect(try first.get(String.self, from: &inPlace) == value.firstname)
        #expect(try Unopened<any ClientNamed>.get(first, from: value) as? String == value.firstname)
    }

    @Test func setOnAnyP() throws {
        var value: any ClientNamed = ClientPerson()
        let before = value
        try first.set("Jo", on: &value)
        #expect(value.firstname == "Jo")
        #expect(before.firstname == "Wes")
        try Unopened<any ClientNamed>.set(first, "Al", on: &value)
        #expect(value.firstname == "Al")
        #expect(value is ClientPerson)
    }

    @Test func setOnComposition() throws {
        var value: any ClientNamed & ClientAged = ClientPerson()
        let before = value
        try first.set("Max", on: &value)
        try Unopened<any ClientNamed & ClientAged>.set(age, 40, on: &value)
        #expect(value.firstname == "Max")
        #expect((value as? ClientPerson)?.age == 40)
        #expect(before.firstname == "Wes")
        #expect(try first.get(String.self, from: value) == "Max")
    }

    @Test func anyHoldingAny() throws {
        var value = try nestedAny(ClientPerson())
        let before = value
        #expect(try first.get(from: value) as? String == "Wes")
        try first.set("Nested", on: &value)
        #expect((value as? ClientPerson)?.firstname == "Nested")
        #expect((before as? ClientPerson)?.firstname == "Wes")
        try Unopened<Any>.set(age, 1, on: &value)
        #expect((value as? ClientPerson)?.age == 1)
    }

    // MARK: withStorage

    @Test func withStorageOfAny() throws {
        var value: Any = ClientPerson()
        let before = value
        try personInfo.withStorage(of: &value) { try $0.set("Jim", for: first) }
        #expect((value as? ClientPerson)?.firstname == "Jim")
        #expect((before as? ClientPerson)?.firstname == "Wes")
        try Unopened<Any>.withStorage(personInfo, of: &value, set: 50, for: age)
        #expect((value as? ClientPerson)?.age == 50)
        #expect(try personInfo.withStorage(reading: value) { try $0.get(String.self, for: first) } == "Jim")
        #expect(try Unopened<Any>.read(personInfo, value, first) == "Jim")
    }

    @Test func withStorageOfAnyPAndNested() throws {
        var value: any ClientNamed & ClientAged = ClientPerson()
        try personInfo.withStorage(of: &value) { try $0.set("Lu", for: first) }
        #expect(value.firstname == "Lu")
        #expect(try personInfo.withStorage(reading: value) { try $0.get(Int.self, for: age) } == 25)
        var nested = try nestedAny(ClientPerson())
        let before = nested
        try Unopened<Any>.withStorage(personInfo, of: &nested, set: "Deep", for: first)
        #expect((nested as? ClientPerson)?.firstname == "Deep")
        #expect((before as? ClientPerson)?.firstname == "Wes")
        #expect(try Unopened<Any>.read(personInfo, nested, first) == "Deep")
    }

    // MARK: classes: written in place

    @Test func classInAnyObjectAndClassBoundExistential() throws {
        let account = ClientAccount()
        var object: AnyObject = account
        try accountName.set("Bo", on: &object)
        #expect(account.firstname == "Bo")
        #expect(isSame(object, account))
        var bound: any ClientObject = account
        try Unopened<any ClientObject>.set(accountName, "Cy", on: &bound)
        #expect(account.firstname == "Cy")
        #expect(isSame(bound, account))
        try accountInfo.withStorage(of: &object) { try $0.set("Di", for: accountName) }
        #expect(account.firstname == "Di")
        #expect(isSame(object, account))
        #expect(try accountInfo.withStorage(reading: bound) { try $0.get(String.self, for: accountName) } == "Di")
        var nested = try nestedAny(account)
        try Unopened<Any>.withStorage(accountInfo, of: &nested, set: "Ed", for: accountName)
        #expect(account.firstname == "Ed")
        #expect(isSame(nested as AnyObject, account))
        #expect(try accountName.get(from: nested) as? String == "Ed")
    }

    @Test func errorExistentials() throws {
        let code = try #require(ClassInfo.of(ClientFailure.self).propertyInfo(named: "code"))
        var failure: any Error = ClientFailure()
        let before = failure
        try Unopened<any Error>.set(code, 5, on: &failure)
        #expect((failure as? ClientFailure)?.code == 5)
        #expect((before as? ClientFailure)?.code == 1)
        #expect(try code.get(from: failure) as? Int == 5)
        // Called directly, Swift 6 mode opens `inout any Error` at the call site and hands TypeInfo
        // the address inside the error box, which copies of it share: plain generic Swift code
        // writes through to the copies the same way, so that is the oracle here.
        var direct: any Error = ClientFailure()
        let directBefore = direct
        try code.set(6, on: &direct)
        #expect((direct as? ClientFailure)?.code == 6)
        #expect((directBefore as? ClientFailure)?.code == (plainSwiftWritesThroughOpenedErrorBox() ? 6 : 1))
        let object = ClientObjectFailure()
        var objectFailure: any Error = object
        let objectCode = try #require(ClassInfo.of(ClientObjectFailure.self).propertyInfo(named: "code"))
        try objectCode.set(7, on: &objectFailure)
        #expect(object.code == 7)
        try ClassInfo.of(ClientObjectFailure.self).withStorage(of: &objectFailure) { try $0.set(8, for: objectCode) }
        #expect(object.code == 8)
        #expect(isSame(objectFailure as AnyObject, object))
    }

    // MARK: property paths and key paths

    @Test func propertyPathsAndKeyPaths() throws {
        let teamInfo = ClassInfo.of(ClientTeam.self)
        let dotted = try teamInfo.propertyPath("lead.firstname")
        let keyed = try teamInfo.propertyPath(for: \ClientTeam.lead.firstname)
        var value: Any = ClientTeam()
        let before = value
        try dotted.set("Path", on: &value)
        #expect((value as? ClientTeam)?.lead.firstname == "Path")
        #expect((before as? ClientTeam)?.lead.firstname == "Wes")
        #expect(try keyed.get(String.self, from: value) == "Path")
        var nested = try nestedAny(ClientTeam())
        try keyed.set("Key", on: &nested)
        #expect((nested as? ClientTeam)?.lead.firstname == "Key")
        #expect(try dotted.get(from: nested) as? String == "Key")
    }

    // MARK: the factory and enum values

    @Test func factoryValuesInExistentials() throws {
        var made: Any = try personInfo.makeInstance()
        try first.set("Made", on: &made)
        #expect((made as? ClientPerson)?.firstname == "Made")
        var typed: any ClientNamed = try personInfo.makeInstance(ClientPerson.self)
        try Unopened<any ClientNamed>.set(first, "Typed", on: &typed)
        #expect(typed.firstname == "Typed")
        let asAny = try personInfo.makeInstance(Any.self)
        #expect(asAny is ClientPerson)
        let asNamed = try personInfo.makeInstance((any ClientNamed).self)
        #expect(asNamed is ClientPerson)
        #expect(
            message { _ = try personInfo.makeInstance((any ClientObject).self) }
                == "this ClassInfo builds \(String(reflecting: ClientPerson.self)), not \(String(reflecting: (any ClientObject).self))")
        let signalInfo = ClassInfo.of(ClientSignal.self)
        let signal: Any = try signalInfo.makeEnumValue(Any.self, caseNamed: "level", payload: 4)
        guard case .level(4)? = signal as? ClientSignal else {
            Issue.record("expected .level(4), found \(signal)")
            return
        }
    }

    @Test func enumValuesInExistentials() throws {
        let signalInfo = ClassInfo.of(ClientSignal.self)
        let signal: Any = ClientSignal.level(9)
        let read = try signalInfo.enumCase(of: signal)
        #expect(read.caseName == "level")
        #expect(read.payload as? Int == 9)
        let nested = try nestedAny(ClientSignal.off)
        #expect(try signalInfo.enumCase(of: nested).caseName == "off")
        let moodInfo = ClassInfo.of(ClientMood.self)
        #expect(try moodInfo.rawValue(of: try nestedAny(ClientMood.angry)) as? String == ClientMood.angry.rawValue)
        let moodAsAny: Any = ClientMood.calm
        #expect(try moodInfo.enumCase(of: moodAsAny).caseName == "calm")
    }

    @Test func tupleElementsFromExistentials() throws {
        let tupleInfo = ClassInfo.of((Int, String).self)
        let built = try tupleInfo.makeTuple(elements: [try nestedAny(3), "x" as Any])
        #expect((built as? (Int, String))?.0 == 3)
        #expect((built as? (Int, String))?.1 == "x")
    }

    // MARK: errors name the dynamic type

    @Test func wrongDynamicTypeNamesIt() throws {
        let expected =
            "property 'firstname' belongs to \(String(reflecting: ClientPerson.self)), not to \(String(reflecting: ClientOther.self))"
        var other: Any = ClientOther()
        #expect(message { try first.set("x", on: &other) } == expected)
        #expect(message { _ = try first.get(from: other) } == expected)
        var otherNamed: any ClientNamed = ClientOther()
        #expect(message { try Unopened<any ClientNamed>.set(first, "x", on: &otherNamed) } == expected)
        #expect(otherNamed.firstname == "other", "nothing written")
        var nested = try nestedAny(ClientOther())
        #expect(message { try first.set("x", on: &nested) } == expected)
        let storageExpected =
            "property '*' belongs to \(String(reflecting: ClientPerson.self)), not to \(String(reflecting: ClientOther.self))"
        #expect(message { try personInfo.withStorage(of: &nested) { try $0.set("x", for: first) } } == storageExpected)
        #expect(message { _ = try personInfo.withStorage(reading: nested) { try $0.get(String.self, for: first) } } == storageExpected)
        let account: Any = ClientAccount()
        #expect(
            message { _ = try first.get(from: account) }
                == "property 'firstname' belongs to \(String(reflecting: ClientPerson.self)), not to \(String(reflecting: ClientAccount.self))"
        )
        #expect(
            message { _ = try ClassInfo.of(ClientSignal.self).enumCase(of: nested) }
                == "expected a value of \(String(reflecting: ClientSignal.self)), found \(String(reflecting: ClientOther.self))")
    }
}
