import Testing
@testable import TypeInfo

/// Enums whose payloads hold references, spare bits and several payload shapes, so that the
/// witnesses' multi-payload and spare-bit paths are exercised.
enum Shipment: Equatable {
    case parcel(weight: Double, label: String)
    case letter(String)
    case tracked(PayloadObject)
    case lost
    case returned

    static func == (lhs: Shipment, rhs: Shipment) -> Bool {
        switch (lhs, rhs) {
        case let (.parcel(a, b), .parcel(c, d)): return a == c && b == d
        case let (.letter(a), .letter(b)): return a == b
        case let (.tracked(a), .tracked(b)): return a === b
        case (.lost, .lost), (.returned, .returned): return true
        default: return false
        }
    }
}

/// Counts live instances; used only by this suite, so other suites running in parallel do not disturb the count.
final class PayloadObject {
    nonisolated(unsafe) static var live = 0
    let id: Int
    init(_ id: Int) { self.id = id; PayloadObject.live += 1 }
    deinit { PayloadObject.live -= 1 }
}

enum Status: Int {
    case idle = 0
    case running = 7
    case done = 42
}
enum Uninhabited {}

/// The oracle for a case: Mirror names an enum value's case (as its only child's label, or
/// as the value's description for cases without payload) and holds the payload.
private func mirrorCase(_ value: Any) -> (name: String, payload: Any?) {
    let mirror = Mirror(reflecting: value)
    if let child = mirror.children.first { return (child.label ?? "", child.value) }
    return (String(describing: value), nil)
}

@Suite(.serialized) struct EnumValueTests {
    @Test func casesAndPayloadsMatchMirror() throws {
        let info = ClassInfo.of(Shipment.self)
        let values: [Shipment] = [.parcel(weight: 2.5, label: "books"), .letter("hi"), .tracked(PayloadObject(1)), .lost, .returned]
        for value in values {
            let read = try info.enumCase(of: value)
            let oracle = mirrorCase(value)
            #expect(read.caseName == oracle.name)
            #expect(info.cases[read.caseIndex].name == oracle.name)
            #expect(String(describing: read.payload) == String(describing: oracle.payload))
            // Held in Any, the same answer.
            let boxed: Any = value
            #expect(try info.enumCase(of: boxed).caseIndex == read.caseIndex)
        }
        let parcel = try info.enumCase(of: Shipment.parcel(weight: 2.5, label: "books")).payload
        let tuple = try #require(parcel as? (weight: Double, label: String))
        #expect(tuple.weight == 2.5 && tuple.label == "books")
    }

    @Test func buildsEveryCaseAndRoundTrips() throws {
        let info = ClassInfo.of(Shipment.self)
        let tracked = PayloadObject(9)
        let expected: [(String, Any?, Shipment)] = [
            ("parcel", (weight: 1.0, label: "x"), .parcel(weight: 1.0, label: "x")),
            ("letter", "dear", .letter("dear")),
            ("tracked", tracked, .tracked(tracked)),
            ("lost", nil, .lost),
            ("returned", nil, .returned),
        ]
        for (name, payload, oracle) in expected {
            let built = try info.makeEnumValue(Shipment.self, caseNamed: name, payload: payload)
            #expect(built == oracle, "case \(name)")
            let untyped = try info.makeEnumValue(caseNamed: name, payload: payload)
            #expect(untyped as? Shipment == oracle)
        }
    }

    @Test func referenceCountsStayRight() throws {
        let info = ClassInfo.of(Shipment.self)
        let before = PayloadObject.live
        do {
            let object = PayloadObject(3)
            let value = try info.makeEnumValue(Shipment.self, caseNamed: "tracked", payload: object)
            let read = try info.enumCase(of: value)
            #expect((read.payload as? PayloadObject) === object)
            #expect(PayloadObject.live == before + 1)
        }
        #expect(PayloadObject.live == before, "the payload was released with the enum")
    }

    @Test func indirectCases() throws {
        let info = ClassInfo.of(Tree.self)
        let tree = Tree.node(.leaf(1), .node(.leaf(2), .leaf(3)))
        let read = try info.enumCase(of: tree)
        #expect(read.caseName == mirrorCase(tree).name)
        #expect(String(describing: read.payload) == String(describing: mirrorCase(tree).payload))
        let built = try info.makeEnumValue(Tree.self, caseNamed: "node", payload: (Tree.leaf(4), Tree.leaf(5)))
        #expect(String(describing: built) == String(describing: Tree.node(.leaf(4), .leaf(5))))
        let partly = try ClassInfo.of(PartlyIndirect.self).makeEnumValue(
            PartlyIndirect.self, caseNamed: "list", payload: PartlyIndirect.value(8))
        #expect(String(describing: partly) == String(describing: PartlyIndirect.list(.value(8))))
    }

    @Test func optionalsAreEnums() throws {
        let info = ClassInfo.of(Int?.self)
        #expect(try info.enumCase(of: Int?.some(5)).caseName == "some")
        #expect(try info.enumCase(of: Int?.some(5)).payload as? Int == 5)
        #expect(try info.enumCase(of: Int?.none).caseName == "none")
        #expect(try info.makeEnumValue(Int?.self, caseNamed: "some", payload: 3) == 3)
        #expect(try info.makeEnumValue(Int?.self, caseNamed: "none") == nil)
    }

    @Test func rawValues() throws {
        let info = ClassInfo.of(Status.self)
        #expect(info.rawValueType == Int.self)
        #expect(try info.rawValue(of: Status.running) as? Int == Status.running.rawValue)
        #expect(try info.makeEnumValue(rawValue: 42) as? Status == Status(rawValue: 42))
        #expect(try ClassInfo.of(RawValued.self).rawValue(of: RawValued.beta as Any) as? String == "b")
        #expect(ClassInfo.of(Shipment.self).rawValueType == nil)
        // Case order for a raw-value enum follows the declaration, as the witnesses' tags do.
        #expect(try info.enumCase(of: Status.done).caseIndex == 2)
    }

    @Test func errorsNameWhatAndWhere() throws {
        let info = ClassInfo.of(Shipment.self)
        let name = String(reflecting: Shipment.self)
        func message(_ body: () throws -> Any) -> String {
            do { _ = try body(); return "no error" } catch { return String(describing: error) }
        }
        #expect(
            message { try info.makeEnumValue(caseNamed: "gone") }
                == "\(name) has no case 'gone' (cases: parcel, letter, tracked, lost, returned)")
        #expect(
            message { try info.makeEnumValue(caseNamed: "letter") }
                == "case 'letter' of \(name) needs a payload of Swift.String")
        #expect(
            message { try info.makeEnumValue(caseNamed: "lost", payload: 1) }
                == "case 'lost' of \(name) has no payload, but one was given")
        #expect(
            message { try info.makeEnumValue(caseNamed: "letter", payload: 1) }
                == "case 'letter' of \(name) carries Swift.String, not Swift.Int")
        #expect(message { try info.enumCase(of: 5) } == "expected a value of \(name), found Swift.Int")
        #expect(message { try ClassInfo.of(Int.self).enumCase(of: 5) } == "Swift.Int is not an enum")
        #expect(message { try info.rawValue(of: Shipment.lost) } == "\(name) has no raw values (it is not RawRepresentable)")
        let status = ClassInfo.of(Status.self)
        #expect(
            message { try status.makeEnumValue(rawValue: "7") }
                == "raw values of \(String(reflecting: Status.self)) are Swift.Int, not Swift.String")
        #expect(
            message { try status.makeEnumValue(rawValue: 8) }
                == "\(String(reflecting: Status.self)) has no case with raw value 8")
    }
}
