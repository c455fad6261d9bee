import Testing
@testable import TypeInfo

/// `makeTuple(elements:)`: tuples of every shape built from their elements, compared with the
/// same tuples written in Swift (equality, and `Mirror`'s labels for the literal-less ones).
@Suite struct TupleValueTests {
    enum Shape: Equatable {
        case circle(radius: Double)
        case rect(w: Double, h: Double)
    }

    @Test func buildsTuplesAsSwiftWritesThem() throws {
        let three = try #require(
            try ClassInfo.of((Int, String, Double?).self).makeTuple(elements: [7, "x", Double?.none as Any]) as? (Int, String, Double?))
        #expect(three.0 == 7 && three.1 == "x" && three.2 == nil)
        let labelled = try #require(
            try ClassInfo.of((w: Double, h: Double).self).makeTuple(elements: [1.5, 2.0]) as? (w: Double, h: Double))
        #expect(labelled.w == 1.5 && labelled.h == 2.0)
        // A class element: the tuple holds the same object.
        let object = Tracked(1)
        let holder = try ClassInfo.of((Tracked, Int).self).makeTuple(elements: [object, 1])
        #expect((holder as? (Tracked, Int))?.0 === object)
    }

    @Test func oneElementLabelledTupleBecomesAnEnumPayload() throws {
        // The payload type of `circle(radius:)` is `(radius: Double)`: no Swift literal has it.
        let info = ClassInfo.of(Shape.self)
        let payloadType = try #require(info.cases.first { $0.name == "circle" }?.payloadType)
        let payload = try ClassInfo.of(payloadType).makeTuple(elements: [2.5])
        #expect(Mirror(reflecting: payload).children.map(\.label) == ["radius"])
        #expect(try info.makeEnumValue(Shape.self, caseNamed: "circle", payload: payload) == .circle(radius: 2.5))
        #expect(try info.enumCase(of: Shape.circle(radius: 4)).payload.map { Mirror(reflecting: $0).children.first?.value as? Double } == 4)
    }

    @Test func errorsSayWhichElement() throws {
        func message(_ body: () throws -> Any) -> String? {
            do { _ = try body(); return nil } catch { return "\(error)" }
        }
        #expect(
            message { try ClassInfo.of((Int, String).self).makeTuple(elements: [1]) }
                == "(Swift.Int, Swift.String) has 2 elements, 1 value was given")
        #expect(
            message { try ClassInfo.of((Int, String).self).makeTuple(elements: [1, 2]) }
                == "element 1 of (Swift.Int, Swift.String) is Swift.String, the value given is Swift.Int")
        #expect(message { try ClassInfo.of(Int.self).makeTuple(elements: [1]) } == "Swift.Int is not a tuple")
    }
}
