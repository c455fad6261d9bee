import Testing
@testable import TypeInfo

/// The inlinable fast paths of issue 10: an inherited property on an instance typed as the
/// subclass, and a typed read in place (`&model`). Run in debug and in `-c release`.
@Suite struct FastPathTests {
    @Test func inheritedPropertyOnASubclassTypedInstance() throws {
        let name = try #require(ClassInfo.of(Dog.self).propertyInfo(named: "name"))
        #expect(isSame(name.declaringType, Animal.self))
        var dog = Dog()
        try name.set("rex", on: &dog)
        #expect(dog.name == "rex")
        #expect(try name.get(String.self, from: dog) == dog.name)
        #expect(try name.get(String.self, from: &dog) == dog.name)
        let warm = try #require(ClassInfo.of(Dog.self).propertyInfo(named: "warm"))
        try warm.set(false, on: &dog)
        #expect(dog.warm == false)
        // A class that is not a subclass is refused, with the owner named.
        var other = FinalThing()
        #expect(
            throws: PropertyAccessError.notAnInstance(
                property: "name", owner: String(reflecting: Animal.self), found: String(reflecting: FinalThing.self))
        ) {
            try name.set("x", on: &other)
        }
        // An existential holding a subclass instance takes the general path and still works.
        var boxed: AnyObject = dog
        try name.set("max", on: &boxed)
        #expect(dog.name == "max")
    }

    @Test func readInPlaceMatchesTheField() throws {
        let number = try #require(ClassInfo.of(NumberHolder.self).propertyInfo(named: "number"))
        var holder = NumberHolder()
        #expect(try number.get(Int.self, from: &holder) == holder.number)
        #expect(throws: PropertyAccessError.typeMismatch(property: "number", expected: "Swift.Int", found: "Swift.String")) {
            _ = try number.get(String.self, from: &holder)
        }
        var optionals = Optionals()
        let object = try #require(ClassInfo.of(Optionals.self).propertyInfo(named: "object"))
        #expect(try object.get(Referent?.self, from: &optionals) === optionals.object)
    }
}
