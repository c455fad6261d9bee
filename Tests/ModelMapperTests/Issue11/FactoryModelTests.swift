import Foundation
import Testing

@testable import ModelMapper

struct PlainUser: MappableModel, Equatable {
    let id: Int
    let name: String
    let email: String?
}

struct PlainOrder: MappableModel {
    let number: Int
    let buyer: PlainUser
    let lines: [PlainLine]
}

struct PlainLine: MappableModel, Equatable {
    let sku: String
    let quantity: Int
}

final class PlainNode: MappableModel {
    var title: String
    var children: [PlainNode]
    init(title: String) { self.title = title; self.children = [] }
}

struct WithClosure: MappableModel {
    let id: Int
    let callback: () -> Void
}

@Suite("issue 11: models without init(), through TypeInfo's factory")
struct FactoryModelTests {
    @Test func plainStructWithLetsDecodesAndEncodes() throws {
        let json = #"{"id": 7, "name": "ann", "email": null}"#
        let user = try ModelMapper(options: MappingOptions(mode: .strict)).decode(PlainUser.self, from: json)
        #expect(user == PlainUser(id: 7, name: "ann", email: nil))
        #expect(try jsonObject(ModelMapper().encode(user)) == ["id": 7, "name": "ann", "email": NSNull()] as NSDictionary)
        // Absent keys: the factory's values (zero, empty, nil), which are what the model then says.
        #expect(try ModelMapper().decode(PlainUser.self, from: "{}") == PlainUser(id: 0, name: "", email: nil))
    }

    @Test func nestedPlainModelsAndArrays() throws {
        let json = #"{"number": 3, "buyer": {"id": 1, "name": "bo"}, "lines": [{"sku": "a", "quantity": 2}, {"sku": "b", "quantity": 1}]}"#
        let order = try ModelMapper(options: MappingOptions(mode: .strict)).decode(PlainOrder.self, from: json)
        #expect(order.number == 3 && order.buyer == PlainUser(id: 1, name: "bo", email: nil))
        #expect(order.lines == [PlainLine(sku: "a", quantity: 2), PlainLine(sku: "b", quantity: 1)])
        let lines = try ModelMapper().decode([PlainLine].self, from: #"[{"sku": "c", "quantity": 5}]"#)
        #expect(lines == [PlainLine(sku: "c", quantity: 5)])
    }

    @Test func classWithoutDefaultInitializer() throws {
        let node = try ModelMapper().decode(PlainNode.self, from: #"{"title": "root", "children": [{"title": "leaf"}]}"#)
        #expect(node.title == "root" && node.children.map(\.title) == ["leaf"] && node.children[0].children.isEmpty)
    }

    @Test func typeTheFactoryCannotBuildIsAClearError() throws {
        #expect {
            try ModelMapper().decode(WithClosure.self, from: #"{"id": 1}"#)
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix("$: invalid mapping configuration: cannot make a WithClosure to decode into: ")
                && description.contains("callback")
        }
    }
}
