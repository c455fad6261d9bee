import Foundation
import Testing

@testable import ModelMapper

enum Figure: Codable, Equatable, Sendable {
    case rect(w: Double, h: Double)
    case pair(Int, Int)
    case value(Int)
    case labelled(name: String, tags: [String], size: Int?)
    case many(a: Int, b: String, c: Double, d: Bool, e: Int?)
    case none
}

indirect enum Expression: Codable, Equatable, Sendable {
    case number(Int)
    case sum(Expression, Expression)
    case list([Expression])
}

enum Circle: Codable, Equatable {
    case circle(radius: Double)
}

struct Drawing: Mappable, Codable, Equatable, Sendable {
    var figure = Figure.none
    var figures: [Figure] = []
    var optional: Figure?
    var expression = Expression.number(0)
}

struct RoundDrawing: Mappable {
    var shape = Circle.circle(radius: 1)
}

@Suite("issue 11: enums with associated values, in Codable's JSON shape")
struct EnumPayloadTests {
    static let drawings: [Drawing] = [
        Drawing(figure: .rect(w: 2, h: 3.5), figures: [.pair(1, 2), .value(7), .none], optional: .value(1), expression: .number(4)),
        Drawing(
            figure: .many(a: 1, b: "two", c: 3.5, d: true, e: nil), figures: [.many(a: -1, b: "", c: 0, d: false, e: 5)], optional: nil,
            expression: .number(0)),
        Drawing(
            figure: .labelled(name: "a", tags: ["x", "y"], size: nil), figures: [], optional: nil,
            expression: .sum(.number(1), .list([.number(2), .sum(.number(3), .number(4))]))),
    ]

    /// The oracle: Swift's own Codable synthesis (JSONEncoder/JSONDecoder) for the same types.
    @Test(arguments: drawings)
    func matchesCodableSynthesisBothWays(_ drawing: Drawing) throws {
        // Codable leaves nil optionals out.
        let ours = try ModelMapper(options: MappingOptions(writesNilAsNull: false)).encode(drawing)
        let theirs = try JSONEncoder().encode(drawing)
        #expect(try jsonObject(ours) == jsonObject(theirs))
        #expect(try ModelMapper(options: MappingOptions(mode: .strict)).decode(Drawing.self, from: theirs) == drawing)
        #expect(try JSONDecoder().decode(Drawing.self, from: ours) == drawing)
    }

    @Test func unknownCasesAndMissingValuesAreErrors() throws {
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        #expect {
            try strict.decode(Drawing.self, from: #"{"figure": {"hexagon": {}}}"#)
        } throws: { error in
            (error as? MappingError)?.description == #"$.figure: "hexagon" is not a case of Figure"#
        }
        #expect {
            try strict.decode(Drawing.self, from: #"{"figure": {"rect": {"w": 1}}}"#)
        } throws: { error in
            (error as? MappingError)?.description == #"$.figure.rect: required key "h" is absent"#
        }
        #expect {
            try strict.decode(Drawing.self, from: #"{"figure": {"pair": {"_0": 1, "_1": "two"}}}"#)
        } throws: { error in
            (error as? MappingError)?.description == "$.figure.pair._1: expected Int, found a string"
        }
        let (lenient, issues) = try ModelMapper().decodeReportingIssues(Drawing.self, from: Data(#"{"figure": {"a": {}, "b": {}}}"#.utf8))
        #expect(lenient.figure == .none)
        #expect(
            issues.map(\.description) == [
                "$.figure: expected an object with one member naming a case of Figure, found an object with 2 members"
            ])
    }

    @Test func oneLabelledValueBothWays() throws {
        // `circle(radius:)` carries a one-element labelled tuple, which has no literal form:
        // TypeInfo builds it. Checked against Codable's synthesis both ways.
        struct CodableDrawing: Codable, Equatable { var shape: Circle }
        let drawing = RoundDrawing(shape: .circle(radius: 2.5))
        let data = try ModelMapper().encode(drawing)
        #expect(try jsonObject(data) == jsonObject(try JSONEncoder().encode(CodableDrawing(shape: drawing.shape))))
        let decoded = try ModelMapper(options: MappingOptions(mode: .strict)).decode(
            RoundDrawing.self, from: #"{"shape": {"circle": {"radius": 2}}}"#)
        #expect(
            decoded.shape
                == (try JSONDecoder().decode(CodableDrawing.self, from: Data(#"{"shape": {"circle": {"radius": 2}}}"#.utf8))).shape)
        #expect(decoded.shape == .circle(radius: 2))
    }
}
