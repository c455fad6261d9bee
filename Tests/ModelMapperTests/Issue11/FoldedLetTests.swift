import Foundation
import Testing

@testable import ModelMapper

// A class `let` of a trivial type may have its reads folded to the initial value by an
// optimized build (the release fixture shows it happening); the mapper refuses to write it.

final class FoldedLetModel: Mappable {
    let extra: Double = 0
    let id = 0
    let name: String = ""
    var count = 0
    required init() {}
}

struct StructWithLets: Mappable {
    let id: Int = 0
    let ratio: Double = 0
    init() {}
}

struct NoJSONForm { var x = 0 }

struct UnmappableProperty: Mappable {
    var name = ""
    var opaque = NoJSONForm()
}

@Suite("issue 11: class lets an optimized build may fold, properties with no JSON form")
struct FoldedLetTests {
    let json = #"{"extra": 0.5, "id": 1000, "name": "ann", "count": 3}"#

    @Test func lenientLeavesFoldableLetsAndReportsThemOnce() throws {
        let collector = DiagnosticsCollector()
        let mapper = collector.mapper()
        let (model, issues) = try mapper.decodeReportingIssues(FoldedLetModel.self, from: Data(json.utf8))
        // The defaults stay: exactly what an optimized build's folded reads would show.
        #expect(model.extra == 0 && model.id == 0)
        // Non-trivial lets and vars are written.
        #expect(model.name == "ann" && model.count == 3)
        #expect(
            issues.map(\.description) == [
                "$.extra: FoldedLetModel.extra is not decoded: it is a 'let' of a class with a trivial type, and an optimized (-O) build may replace its reads with its initial value, so a decoded value would be lost; declare it 'var' (or 'private(set) var'), or leave it out (mapping.excludedProperties)",
                "$.id: FoldedLetModel.id is not decoded: it is a 'let' of a class with a trivial type, and an optimized (-O) build may replace its reads with its initial value, so a decoded value would be lost; declare it 'var' (or 'private(set) var'), or leave it out (mapping.excludedProperties)",
            ])
        _ = try mapper.decode(FoldedLetModel.self, from: json)
        let reported = collector.reported
        #expect(reported.count == 2, "each property once per mapper, however often it decodes")
        #expect(reported.allSatisfy { $0.hasPrefix("ModelMapper: FoldedLetModel.") && $0.contains("declare it 'var'") })
    }

    @Test func strictRefusesFoldableLetPresentInJSON() throws {
        let collector = DiagnosticsCollector()
        let mapper = collector.mapper(.strict)
        #expect {
            try mapper.decode(FoldedLetModel.self, from: json)
        } throws: { error in
            let error = try #require(error as? MappingError)
            return error.pathString == "$.extra"
                && error.kind
                    == .unsettableProperty(
                        type: "FoldedLetModel", property: "extra",
                        reason:
                            "it is a 'let' of a class with a trivial type, and an optimized (-O) build may replace its reads with its initial value, so a decoded value would be lost; declare it 'var' (or 'private(set) var'), or leave it out (mapping.excludedProperties)"
                    )
        }
        // Absent keys lose nothing: no error, no diagnostic (strict mode throws instead of reporting).
        let model = try mapper.decode(FoldedLetModel.self, from: #"{"name": "bo", "count": 1}"#)
        #expect(model.name == "bo" && model.count == 1)
        #expect(collector.reported.isEmpty)
    }

    @Test func foldableLetsAreStillEncoded() throws {
        let data = try DiagnosticsCollector().mapper().encode(FoldedLetModel())
        #expect(try jsonObject(data) == ["extra": 0, "id": 0, "name": "", "count": 0] as NSDictionary)
    }

    @Test func structLetsAreWritten() throws {
        // The let-property optimization handles only classes: a struct's fields can be written
        // through any address of the value. The release fixture checks this under -O.
        let model = try DiagnosticsCollector().mapper(.strict).decode(StructWithLets.self, from: #"{"id": 7, "ratio": 0.25}"#)
        #expect(model.id == 7 && model.ratio == 0.25)
    }

    @Test func propertyWithNoJSONFormIsReportedNotSkippedSilently() throws {
        let collector = DiagnosticsCollector()
        let lenient = collector.mapper()
        let model = try lenient.decode(UnmappableProperty.self, from: #"{"name": "a", "opaque": {"x": 1}}"#)
        #expect(model.name == "a" && model.opaque.x == 0)
        #expect(
            collector.reported == [
                "ModelMapper: UnmappableProperty.opaque is not decoded: its type ModelMapperTests.NoJSONForm has no JSON mapping; give it a transformer (mapping.transform), make the type MappableModel, or leave it out (mapping.excludedProperties)"
            ])
        #expect(try lenient.unmappedProperties(of: UnmappableProperty.self) == ["opaque"])
        #expect {
            try collector.mapper(.strict).decode(UnmappableProperty.self, from: #"{"name": "a", "opaque": {"x": 1}}"#)
        } throws: { error in
            (error as? MappingError)?.description.hasPrefix(
                "$.opaque: UnmappableProperty.opaque is not decoded: its type ModelMapperTests.NoJSONForm has no JSON mapping") == true
        }
        // Encoding leaves it out rather than writing something false.
        #expect(try jsonObject(lenient.encode(model)) == ["name": "a"] as NSDictionary)
    }
}
