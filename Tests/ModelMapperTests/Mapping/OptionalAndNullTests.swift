import Foundation
import Testing

@testable import ModelMapper

struct WithOptionals: Mappable, Equatable {
    var name: String? = "default"
    var count: Int? = 7
    var flag: Bool?
    var nested: Inner?
    var list: [Int]?
    var required = "kept"

    struct Inner: Mappable, Equatable {
        var value = 0
    }
}

/// Both field access strategies: raw access at PropertyInfo.offset and PropertyInfo.set/get.
let fieldAccessStrategies: [FieldAccessStrategy] = [.instanceStorage, .propertyInfo]

@Suite struct OptionalAndNullTests {
    @Test(arguments: fieldAccessStrategies)
    func nullSetsNilAndAbsentKeepsTheDefault(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let model = try mapper.decode(WithOptionals.self, from: #"{"name": null, "flag": true}"#)
        #expect(model.name == nil)  // null: set to nil
        #expect(model.count == 7)  // absent: default kept
        #expect(model.flag == true)
        #expect(model.nested == nil)
        #expect(model.required == "kept")
    }

    @Test(arguments: fieldAccessStrategies)
    func optionalsOfModelsAndContainers(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let model = try mapper.decode(WithOptionals.self, from: #"{"nested": {"value": 3}, "list": [1, 2]}"#)
        #expect(model.nested == WithOptionals.Inner(value: 3))
        #expect(model.list == [1, 2])
        let null = try mapper.decode(WithOptionals.self, from: #"{"nested": null, "list": null, "count": null}"#)
        #expect(null.nested == nil && null.list == nil && null.count == nil)
    }

    @Test func nullIntoNonOptionalKeepsDefaultLenientlyAndThrowsStrictly() throws {
        let json = #"{"required": null}"#
        #expect(try ModelMapper.shared.decode(WithOptionals.self, from: json).required == "kept")
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        #expect {
            _ = try strict.decode(WithOptionals.self, from: json)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.pathString == "$.required" && error.kind == .typeMismatch(expected: "String", found: "null")
        }
    }

    @Test func nilIsWrittenAsNullOrLeftOut() throws {
        var model = WithOptionals()
        model.name = nil
        let withNull = try ModelMapper.shared.encodeToJSONValue(model)
        #expect(withNull["name"] == .null)
        #expect(withNull["flag"] == .null)
        let omitting = ModelMapper(options: MappingOptions(writesNilAsNull: false))
        let without = try omitting.encodeToJSONValue(model)
        #expect(without["name"] == nil)
        #expect(without["flag"] == nil)
        #expect(without["count"] == .int(7))
        // Round trip with nulls keeps nil even where the default is not nil.
        #expect(try ModelMapper.shared.decode(WithOptionals.self, from: try ModelMapper.shared.encode(model)) == model)
    }
}
