import Foundation
import Testing

@testable import ModelMapper

struct Temperature: Mappable, Equatable {
    var celsius = 0.0
    var label = ""
    var tags: [String] = []

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("celsius", to: "fahrenheit")
        mapping.transform(
            "celsius",
            with: MappingTransformer(
                Double.self,
                decode: { json in json.numberValue?.doubleValue.map { ($0 - 32) * 5 / 9 } },
                encode: { celsius in .double(celsius * 9 / 5 + 32) }
            ))
        mapping.transform(
            "tags",
            with: MappingTransformer(
                [String].self,
                decode: { json in json.stringValue?.split(separator: ",").map(String.init) },
                encode: { tags in .string(tags.joined(separator: ",")) }
            ))
    }
}

struct FailingTransform: Mappable {
    var value = 0
    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.transform(
            "value",
            with: MappingTransformer(
                Int.self,
                decode: { _ in throw CocoaLikeError.nope },
                encode: { _ in .null }
            ))
    }
}

enum CocoaLikeError: Error { case nope }

struct Hooked: Mappable, MappingWillDecode, MappingDidDecode, MappingWillEncode, MappingDidEncode, Equatable {
    var name = ""
    var normalized = ""
    var version = 0

    static func willDecode(_ json: JSONValue) throws -> JSONValue {
        // Old payloads used "title".
        guard case .object(var object) = json else { return json }
        if object["name"] == nil, let title = object["title"] { object["name"] = title }
        return .object(object)
    }

    mutating func didDecode() throws {
        guard !name.isEmpty else { throw HookError.emptyName }
        normalized = name.lowercased()
    }

    func willEncode() throws {
        if version < 0 { throw HookError.negativeVersion }
    }

    func didEncode(into json: inout JSONObject) throws {
        json["normalized"] = nil
        json["schema"] = 2
    }

    enum HookError: Error { case emptyName, negativeVersion }
}

struct HookedHolder: Mappable {
    var item = Hooked()
    var items: [Hooked] = []
}

@Suite struct TransformerAndHookTests {
    @Test(arguments: fieldAccessStrategies)
    func transformersConvertBothWays(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let model = try mapper.decode(Temperature.self, from: #"{"fahrenheit": 212, "label": "boil", "tags": "a,b"}"#)
        #expect(model.celsius == 100)
        #expect(model.tags == ["a", "b"])
        let json = try mapper.encodeToJSONValue(model)
        #expect(json["fahrenheit"]?.numberValue?.doubleValue == 212)
        #expect(json["tags"] == "a,b")
        #expect(try mapper.decode(Temperature.self, from: try mapper.encode(model)) == model)
    }

    @Test func aThrowingTransformerIsATypedError() throws {
        #expect(try ModelMapper.shared.decode(FailingTransform.self, from: #"{"value": 1}"#).value == 0)
        #expect {
            _ = try ModelMapper(options: MappingOptions(mode: .strict)).decode(FailingTransform.self, from: #"{"value": 1}"#)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.pathString == "$.value" && error.kind == .transformFailed("nope")
        }
    }

    @Test(arguments: fieldAccessStrategies)
    func hooksRunBeforeAndAfterInBothDirections(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let model = try mapper.decode(Hooked.self, from: #"{"title": "Legacy", "version": 1}"#)
        #expect(model.name == "Legacy")  // willDecode rewrote the input
        #expect(model.normalized == "legacy")  // didDecode derived a value
        let json = try mapper.encodeToJSONValue(model)
        #expect(json["normalized"] == nil)  // didEncode removed it
        #expect(json["schema"] == 2)  // and added this
        #expect(json["name"] == "Legacy")
    }

    @Test func hookErrorsRejectTheModel() throws {
        #expect {
            _ = try ModelMapper.shared.decode(Hooked.self, from: #"{"version": 1}"#)
        } throws: { error in
            (error as? MappingError)?.kind == .hookFailed("emptyName")
        }
        // Nested, in lenient mode: the property keeps its default, the array drops the element.
        let holder = try ModelMapper.shared.decode(
            HookedHolder.self, from: #"{"item": {"version": 3}, "items": [{"name": "A"}, {"version": 2}]}"#)
        #expect(holder.item == Hooked())
        #expect(holder.items.map(\.name) == ["A"])
        var bad = Hooked()
        bad.version = -1
        #expect {
            _ = try ModelMapper.shared.encode(bad)
        } throws: { error in
            (error as? MappingError)?.kind == .hookFailed("negativeVersion")
        }
    }
}
