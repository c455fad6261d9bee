import Foundation
import Testing

@testable import ModelMapper

struct OptionalTransformed: Mappable {
    var born: Date?
    var label = ""

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.transform(
            "born",
            with: MappingTransformer(
                Date.self,
                decode: { json in json.stringValue.flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) } },
                encode: { date in .string(String(Int(date.timeIntervalSince1970))) }
            ))
    }
}

struct DesignatedResult: Mappable {
    var id = 0
}

struct NestedPathModel: Mappable {
    var name = ""
    var city = ""

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("name", to: "user.name")
        mapping.map("city", to: "user.address.city")
    }
}

struct IndexedPathModel: Mappable, Equatable {
    var firstDistance = 0
    var secondDog = ""

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("firstDistance", to: "distances.0.value")
        mapping.map("secondDog", to: "data.1.dog.name")
    }
}

@Suite("issue 11: transformers on nil, designated paths, key paths through non-objects, array indexes")
struct PathAndTransformerFixTests {
    @Test func transformerOnNilOptionalWritesNullOrNothing() throws {
        let model = OptionalTransformed(born: nil, label: "x")
        let withNull = try DiagnosticsCollector().mapper().encode(model)
        #expect(try jsonObject(withNull) == ["born": NSNull(), "label": "x"] as NSDictionary)
        let omitted = try DiagnosticsCollector().mapper(writesNilAsNull: false).encode(model)
        #expect(try jsonObject(omitted) == ["label": "x"] as NSDictionary)
        // A value still goes through the transformer, and comes back.
        let dated = OptionalTransformed(born: Date(timeIntervalSince1970: 86400), label: "y")
        let data = try ModelMapper().encode(dated)
        #expect(try jsonObject(data) == ["born": "86400", "label": "y"] as NSDictionary)
        #expect(try ModelMapper().decode(OptionalTransformed.self, from: data).born == dated.born)
    }

    @Test(arguments: ["data.result", "data.result.", ".data.result", "..data..result..", "data.1"])
    func designatedPathIgnoresEmptySegments(path: String) throws {
        let json = #"{"data": {"result": {"id": 5}, "1": {"id": 5}}}"#
        #expect(try ModelMapper().decode(DesignatedResult.self, from: json, at: path).id == 5)
    }

    @Test(arguments: ["", "."])
    func emptyDesignatedPathIsTheRoot(path: String) throws {
        #expect(
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(DesignatedResult.self, from: #"{"id": 9}"#, at: path).id == 9)
    }

    @Test func strictKeyPathThroughAStringIsAnError() throws {
        let json = #"{"user": "ann"}"#
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(NestedPathModel.self, from: json)
        } throws: { error in
            (error as? MappingError)?.description == #"$.user: expected an object with key "name", found a string"#
        }
        let deeper = #"{"user": {"name": "ann", "address": 12}}"#
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode(NestedPathModel.self, from: deeper)
        } throws: { error in
            (error as? MappingError)?.description == #"$.user.address: expected an object with key "city", found the number 12"#
        }
        // Lenient: absent, the default stays, and the problem is reported with its path.
        let (model, issues) = try ModelMapper().decodeReportingIssues(NestedPathModel.self, from: Data(deeper.utf8))
        #expect(model == NestedPathModel(name: "ann", city: ""))
        #expect(issues.isEmpty, "lenient mode treats a path through a non-object as absent, as before")
        // A null on the way is absent in both modes.
        #expect(try ModelMapper(options: MappingOptions(mode: .strict)).decode(NestedPathModel.self, from: #"{"user": null}"#).name == "")
    }

    @Test func arrayIndexesInKeyPathsReadAndWrite() throws {
        let json = #"{"distances": [{"value": 12}, {"value": 30}], "data": [{"cat": {}}, {"dog": {"name": "rex"}}]}"#
        let model = try ModelMapper(options: MappingOptions(mode: .strict)).decode(IndexedPathModel.self, from: json)
        #expect(model == IndexedPathModel(firstDistance: 12, secondDog: "rex"))
        let encoded = try ModelMapper().encode(model)
        #expect(
            try jsonObject(encoded) == [
                "distances": [["value": 12]], "data": [NSNull(), ["dog": ["name": "rex"]]],
            ] as NSDictionary)
        #expect(try ModelMapper(options: MappingOptions(mode: .strict)).decode(IndexedPathModel.self, from: encoded) == model)
        // Out of range is absent; an index into an object is a key.
        #expect(
            try ModelMapper().decode(IndexedPathModel.self, from: #"{"distances": [], "data": {"1": {"dog": {"name": "k"}}}}"#)
                == IndexedPathModel(firstDistance: 0, secondDog: "k"))
    }
}

extension NestedPathModel: Equatable {}
