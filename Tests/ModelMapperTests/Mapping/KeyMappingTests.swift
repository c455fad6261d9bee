import Foundation
import Testing

@testable import ModelMapper

struct Profile: Mappable, Equatable {
    var id = 0
    var displayName = ""
    var city = ""
    var version = ""
    var avatar = ""
    var secret = "unset"
    var internalCounter = 0

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("id", to: "user_id")
        mapping.map("displayName", to: "user.profile.name")
        mapping.map("city", toPath: ["user", "address.city"])
        mapping.map("version", to: "meta.version\\.major")
        mapping.map("avatar", to: "avatar_url", "avatarURL", "picture.url")
        mapping.excludedProperties = ["secret"]
    }
}

struct OnlySome: Mappable, Equatable {
    var a = 0
    var b = 0
    var c = 0
    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.includedProperties = ["a", "c"]
    }
}

struct Wrapped: Mappable, Equatable {
    var name = ""
    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.designatedPath = "data.item"
    }
}

struct SnakeModel: Mappable, Equatable {
    var userID = 0
    var avatarURL = ""
    var firstName = ""
    var isHTMLEnabled = false
}

struct KebabModel: Mappable, Equatable {
    var firstName = ""
    var zipCode = ""
    static func configureMapping(_ mapping: inout MappingConfiguration) { mapping.keyNaming = .kebabCase }
}

struct CaseModel: Mappable, Equatable {
    var firstName = ""
    var age = 0
    var été = ""
    static func configureMapping(_ mapping: inout MappingConfiguration) { mapping.keyNaming = .caseInsensitive }
}

struct BadConfig: Mappable {
    var real = 0
    static func configureMapping(_ mapping: inout MappingConfiguration) { mapping.map("imaginary", to: "x") }
}

@Suite struct KeyMappingTests {
    @Test func customKeysKeyPathsEscapedDotsAndExclusion() throws {
        let json = """
            {"user_id": 42, "user": {"profile": {"name": "Ada"}, "address.city": "London"},
             "meta": {"version.major": "3"}, "avatarURL": "second", "picture": {"url": "third"},
             "secret": "leaked", "internalCounter": 5}
            """
        let model = try ModelMapper.shared.decode(Profile.self, from: json)
        #expect(model.id == 42)
        #expect(model.displayName == "Ada")
        #expect(model.city == "London")
        #expect(model.version == "3")
        #expect(model.avatar == "second")  // first candidate absent, second present
        #expect(model.secret == "unset")  // excluded
        #expect(model.internalCounter == 5)
        let encoded = try ModelMapper.shared.encodeToJSONValue(model)
        #expect(encoded["user_id"] == 42)
        #expect(encoded["user"]?["profile"]?["name"] == "Ada")
        #expect(encoded["user"]?["address.city"] == "London")
        #expect(encoded["meta"]?["version.major"] == "3")
        #expect(encoded["avatar_url"] == "second")  // written under the first candidate
        #expect(encoded["secret"] == nil)
        #expect(try ModelMapper.shared.decode(Profile.self, from: try ModelMapper.shared.encode(model)) == model)
    }

    @Test func firstPresentCandidateWins() throws {
        let both = try ModelMapper.shared.decode(Profile.self, from: #"{"avatar_url": "first", "avatarURL": "second"}"#)
        #expect(both.avatar == "first")
        let deep = try ModelMapper.shared.decode(Profile.self, from: #"{"picture": {"url": "third"}}"#)
        #expect(deep.avatar == "third")
    }

    @Test func keyPathEscapes() {
        #expect(MappingConfiguration.components(of: "a.b") == ["a", "b"])
        #expect(MappingConfiguration.components(of: "a\\.b") == ["a.b"])
        #expect(MappingConfiguration.components(of: "a\\\\.b") == ["a\\", "b"])
        #expect(MappingConfiguration.components(of: "") == [""])
    }

    @Test func includeList() throws {
        let model = try ModelMapper.shared.decode(OnlySome.self, from: #"{"a": 1, "b": 2, "c": 3}"#)
        #expect(model == OnlySome(a: 1, b: 0, c: 3))
        #expect(try ModelMapper.shared.encodeToJSONValue(model) == ["a": 1, "c": 3])
    }

    @Test func designatedPathFromTheTypeOrTheCall() throws {
        let json = #"{"data": {"item": {"name": "inside"}}, "other": {"name": "elsewhere"}}"#
        #expect(try ModelMapper.shared.decode(Wrapped.self, from: json).name == "inside")
        #expect(try ModelMapper.shared.decode(Wrapped.self, from: json, at: "other").name == "elsewhere")
        #expect {
            _ = try ModelMapper.shared.decode(Wrapped.self, from: #"{"data": {}}"#)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.kind == .keyNotFound("item") && error.pathString == "$.data"
        }
    }

    @Test func snakeCaseGlobally() throws {
        let mapper = ModelMapper(options: MappingOptions(keyNaming: .snakeCase))
        let json = #"{"user_id": 1, "avatar_url": "u", "first_name": "F", "is_html_enabled": true}"#
        let model = try mapper.decode(SnakeModel.self, from: json)
        #expect(model == SnakeModel(userID: 1, avatarURL: "u", firstName: "F", isHTMLEnabled: true))
        #expect(try mapper.encodeToJSONValue(model) == ["user_id": 1, "avatar_url": "u", "first_name": "F", "is_html_enabled": true])
        // The default mapper uses the names as they are.
        #expect(try ModelMapper.shared.decode(SnakeModel.self, from: json) == SnakeModel())
    }

    @Test func kebabCasePerTypeAndCaseInsensitive() throws {
        let kebab = try ModelMapper.shared.decode(KebabModel.self, from: #"{"first-name": "K", "zip-code": "123"}"#)
        #expect(kebab == KebabModel(firstName: "K", zipCode: "123"))
        let folded = try ModelMapper.shared.decode(CaseModel.self, from: #"{"FIRSTNAME": "C", "Age": 3, "\u00c9T\u00c9": "s"}"#)
        #expect(folded == CaseModel(firstName: "C", age: 3, été: "s"))
        let unescaped = try ModelMapper.shared.decode(CaseModel.self, from: #"{"ÉTÉ": "u", "fIrStNaMe": "D"}"#)
        #expect(unescaped == CaseModel(firstName: "D", age: 0, été: "u"))
    }

    @Test(arguments: [
        ("userID", "user_id"), ("avatarURL", "avatar_url"), ("isHTMLEnabled", "is_html_enabled"), ("id", "id"),
        ("URL", "url"), ("version2Name", "version2_name"), ("already_snake", "already_snake"),
    ])
    func snakeCaseConversion(_ name: String, _ expected: String) {
        #expect(KeyNamingStrategy.snakeCase.key(for: name) == expected)
    }

    @Test func configurationNamingAMissingPropertyIsAnError() {
        #expect {
            _ = try ModelMapper.shared.decode(BadConfig.self, from: "{}")
        } throws: { error in
            (error as? MappingError)?.kind == .invalidConfiguration("BadConfig has no stored property \"imaginary\"")
        }
    }

    @Test func runtimeConfigurationTakesEffectAtOnce() throws {
        let mapper = ModelMapper()
        let json = #"{"a": 1, "b": 2, "c": 3, "bee": 20}"#
        #expect(try mapper.decode(OnlySome.self, from: json) == OnlySome(a: 1, b: 0, c: 3))
        mapper.configure(OnlySome.self) { mapping in
            mapping.includedProperties = nil
            mapping.map("b", to: "bee")
        }
        #expect(try mapper.decode(OnlySome.self, from: json) == OnlySome(a: 1, b: 20, c: 3))
        // Other mappers are not affected.
        #expect(try ModelMapper.shared.decode(OnlySome.self, from: json) == OnlySome(a: 1, b: 0, c: 3))
    }
}
