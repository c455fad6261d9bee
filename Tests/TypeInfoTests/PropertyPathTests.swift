import Testing
@testable import TypeInfo

private struct PathAddress { var street = "Main"; var number = 7 }
private final class PathOwner { var name = "Ann"; var address = PathAddress(); let since = 2001 }
private struct PathModel {
    var id = 1; var address = PathAddress(); var owner = PathOwner(); var nickname: String? = nil; var computed: Int { id }
}
private class PathBase { var inheritedValue = 3 }
private final class PathSub: PathBase { var own = 4 }

@Suite struct PropertyPathTests {
    private func message(_ body: () throws -> Any) -> String {
        do { _ = try body(); return "no error" } catch { return String(describing: error) }
    }

    @Test func keyPathsResolveToTheirStoredProperties() throws {
        let info = ClassInfo.of(PathModel.self)
        #expect(info.propertyInfo(for: \PathModel.id)?.offset == MemoryLayout<PathModel>.offset(of: \.id))
        #expect(info.propertyInfo(for: \PathModel.owner) === info.propertyInfo(named: "owner"))
        let nested = try info.propertyPath(for: \PathModel.address.number)
        #expect(nested.description == "address.number")
        #expect(nested.properties.reduce(0) { $0 + $1.offset } == MemoryLayout<PathModel>.offset(of: \.address.number))
        let throughObject = try info.propertyPath(for: \PathModel.owner.address.street)
        #expect(throughObject.description == "owner.address.street")
        let owner = PathOwner()
        #expect(throughObject.properties[1].offset == liveOffset(owner, \.address))
        #expect(try ClassInfo.of(PathOwner.self).propertyPath(for: \PathOwner.since).description == "since")
    }

    @Test func keyPathsThatAreNotStoredPropertiesAreRefused() throws {
        let info = ClassInfo.of(PathModel.self)
        #expect(message { try info.propertyPath(for: \PathModel.computed) }.hasPrefix("key path \\PathModel.<computed"))
        #expect(
            message { try info.propertyPath(for: \PathModel.nickname?.count) }.hasSuffix("does not lead through stored properties only"))
        #expect(
            message { try info.propertyPath(for: \PathOwner.name) }
                == "the key path starts at \(String(reflecting: PathOwner.self)), not at \(String(reflecting: PathModel.self))")
        #expect(info.propertyInfo(for: \PathModel.address.number) == nil, "two steps are a path, not one property")
        // An inherited, overridable property is reached through accessors: said, not guessed.
        #expect(
            message { try ClassInfo.of(PathSub.self).propertyPath(for: \PathSub.inheritedValue) }.hasSuffix(
                "does not lead through stored properties only"))
        #expect(
            try ClassInfo.of(PathSub.self).propertyPath("inheritedValue").last?.offset == liveOffset(PathSub(), \.own)
                - MemoryLayout<Int>.size)
    }

    @Test func dottedPathsGetAndSetThroughTheChain() throws {
        let info = ClassInfo.of(PathModel.self)
        var model = PathModel()
        let street = try info.propertyPath("address.street")
        #expect(try street.get(String.self, from: model) == model.address.street)
        let before = model
        try street.set("Elm", on: &model)
        #expect(model.address.street == "Elm")
        #expect(before.address.street == "Main", "the struct along the path was copied, not shared")
        let ownerStreet = try info.propertyPath("owner.address.street")
        try ownerStreet.set("Oak", on: &model)
        #expect(model.owner.address.street == "Oak", "the object along the path is changed in place")
        #expect(try ownerStreet.get(from: model) as? String == "Oak")
        var boxed: Any = model
        try info.propertyPath("address.number").set(9, on: &boxed)
        #expect((boxed as? PathModel)?.address.number == 9)
        #expect(
            message { try info.propertyPath("address.zip") }
                == "\(String(reflecting: PathAddress.self)) has no stored property 'zip' (in 'address')")
        #expect(message { try street.set(5, on: &model) } == "property 'street' holds Swift.String, not Swift.Int")
        #expect(model.address.street == "Elm")
    }
}
