import Foundation
import Testing

@testable import ModelMapper

struct TreeNode: Mappable, Equatable {
    var name = ""
    var children: [TreeNode] = []
    var parentName: String?
}

final class LinkedItem: Mappable {
    var value = 0
    var next: LinkedItem?
    required init() {}
}

enum Color: String, Sendable { case red, green, blue }
enum Priority: Int, Sendable {
    case low = 1
    case high = 2
}

struct Containers: Mappable, Equatable {
    var tags: [String] = []
    var scores: [Double] = []
    var unique: Set<Int> = []
    var byName: [String: Int] = [:]
    var byID: [Int: String] = [:]
    var models: [TreeNode] = []
    var modelsByKey: [String: TreeNode] = [:]
    var modelSet: Set<Tag> = []
    var matrix: [[Int]] = []
    var color = Color.red
    var colors: [Color] = []
    var priority: Priority?
    var anything: [String: Any] = [:]
    var json: JSONValue = .null

    static func == (lhs: Containers, rhs: Containers) -> Bool {
        lhs.tags == rhs.tags && lhs.scores == rhs.scores && lhs.unique == rhs.unique && lhs.byName == rhs.byName
            && lhs.byID == rhs.byID && lhs.models == rhs.models && lhs.modelsByKey == rhs.modelsByKey
            && lhs.modelSet == rhs.modelSet && lhs.matrix == rhs.matrix && lhs.color == rhs.color
            && lhs.colors == rhs.colors && lhs.priority == rhs.priority && lhs.json == rhs.json
            && sortedJSON(lhs.anything) == sortedJSON(rhs.anything)
    }
}

/// Foundation's canonical text of a `[String: Any]` (sorted keys): order-free equality.
func sortedJSON(_ object: [String: Any]) -> Data? {
    try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

struct Tag: Mappable, Hashable {
    var label = ""
}

@Suite struct NestedAndContainerTests {
    static let json = """
        {"tags": ["a", "b"], "scores": [1.5, 2], "unique": [3, 1, 3], "byName": {"x": 1, "y": 2},
         "byID": {"7": "seven"}, "models": [{"name": "m1"}, {"name": "m2", "children": [{"name": "m3"}]}],
         "modelsByKey": {"k": {"name": "v"}}, "modelSet": [{"label": "t"}, {"label": "t"}],
         "matrix": [[1, 2], [], [3]], "color": "green", "colors": ["blue", "red"], "priority": 2,
         "anything": {"n": 1, "s": "x", "a": [true, null]}, "json": {"free": ["form", 1]}}
        """

    @Test(arguments: fieldAccessStrategies)
    func containersOfScalarsAndModels(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let model = try mapper.decode(Containers.self, from: Self.json)
        #expect(model.tags == ["a", "b"])
        #expect(model.scores == [1.5, 2])
        #expect(model.unique == [1, 3])
        #expect(model.byName == ["x": 1, "y": 2])
        #expect(model.byID == [7: "seven"])
        #expect(model.models.map(\.name) == ["m1", "m2"])
        #expect(model.models[1].children.first?.name == "m3")
        #expect(model.modelsByKey["k"]?.name == "v")
        #expect(model.modelSet == [Tag(label: "t")])
        #expect(model.matrix == [[1, 2], [], [3]])
        #expect(model.color == .green)
        #expect(model.colors == [.blue, .red])
        #expect(model.priority == .high)
        #expect(model.anything["n"] as? Int == 1)
        #expect((model.anything["a"] as? [Any])?.last is NSNull)
        #expect(model.json == ["free": ["form", 1]])
        // And back.
        let back = try mapper.decode(Containers.self, from: try mapper.encode(model))
        #expect(back == model)
    }

    @Test func dictionariesKeyedByRawValueEnums() throws {
        struct Palette: Mappable {
            var weights: [Color: Double] = [:]
            var byPriority: [Priority: String] = [:]
            var optionals: [Int?] = []
        }
        let json = #"{"weights": {"red": 0.5, "blue": 2, "purple": 9}, "byPriority": {"2": "high"}, "optionals": [1, null, 3]}"#
        let palette = try ModelMapper.shared.decode(Palette.self, from: json)
        #expect(palette.weights == [.red: 0.5, .blue: 2])  // "purple" is no Color: left out
        #expect(palette.byPriority == [.high: "high"])
        #expect(palette.optionals == [1, nil, 3])
        let encoded = try ModelMapper.shared.encodeToJSONValue(palette)
        #expect(encoded["weights"]?["red"] == 0.5 && encoded["byPriority"]?["2"] == "high")
        #expect(encoded["optionals"] == [1, nil, 3])
    }

    @Test func recursiveStructsAndClasses() throws {
        let tree = try ModelMapper.shared.decode(
            TreeNode.self, from: #"{"name": "root", "children": [{"name": "a", "children": [{"name": "b"}]}]}"#)
        #expect(tree.children[0].children[0].name == "b")
        let list = try ModelMapper.shared.decode(LinkedItem.self, from: #"{"value": 1, "next": {"value": 2, "next": {"value": 3}}}"#)
        #expect(list.value == 1 && list.next?.value == 2 && list.next?.next?.value == 3 && list.next?.next?.next == nil)
        let encoded = try ModelMapper.shared.encodeToJSONValue(list)
        #expect(encoded["next"]?["next"]?["value"] == .int(3))
    }

    @Test func unknownEnumValuesAreSkippedOrRejected() throws {
        let json = #"{"color": "purple", "colors": ["red", "purple", "blue"], "priority": 9}"#
        let lenient = try ModelMapper.shared.decode(Containers.self, from: json)
        #expect(lenient.color == .red)  // default kept
        #expect(lenient.colors == [.red, .blue])  // the unknown element left out
        #expect(lenient.priority == nil)
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        #expect {
            _ = try strict.decode(Containers.self, from: json)
        } throws: { error in
            guard let error = error as? MappingError else { return false }
            return error.pathString == "$.color" && error.kind == .unknownEnumValue(type: "Color", value: "purple")
        }
        #expect {
            _ = try strict.decode(Containers.self, from: #"{"colors": ["red", "purple"]}"#)
        } throws: { error in
            (error as? MappingError)?.pathString == "$.colors[1]"
        }
    }

    @Test func topLevelArraysOfModels() throws {
        let models = try ModelMapper.shared.decode([Tag].self, from: #"[{"label": "a"}, {"label": "b"}, 3]"#)
        #expect(models == [Tag(label: "a"), Tag(label: "b")])  // lenient: the 3 is left out
        let data = try ModelMapper.shared.encode(models)
        #expect(try JSONValue(parsing: data) == [["label": "a"], ["label": "b"]])
        let fromAny = try ModelMapper.shared.decode([Tag].self, from: [["label": "z"]] as [Any])
        #expect(fromAny == [Tag(label: "z")])
        #expect(throws: MappingError.self) {
            _ = try ModelMapper(options: MappingOptions(mode: .strict)).decode([Tag].self, from: #"[{"label": "a"}, 3]"#)
        }
    }

    @Test func jsonValueInAndOut() throws {
        let value: JSONValue = ["name": "root", "children": [["name": "kid"]]]
        let tree = try ModelMapper.shared.decode(TreeNode.self, from: value)
        #expect(tree.children.first?.name == "kid")
        #expect(try ModelMapper.shared.encodeToJSONValue(tree)["children"]?[0]?["name"] == "kid")
    }

    @Test func foundationDictionaryInAndOut() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.json.utf8)) as? [String: Any] ?? [:]
        let model = try ModelMapper.shared.decode(Containers.self, from: object)
        #expect(model == (try ModelMapper.shared.decode(Containers.self, from: Self.json)))
        let dictionary = try ModelMapper.shared.encodeToDictionary(model)
        #expect(dictionary["tags"] as? [String] == ["a", "b"])
        #expect(dictionary["color"] as? String == "green")
        #expect((dictionary["models"] as? [[String: Any]])?.count == 2)
    }
}
