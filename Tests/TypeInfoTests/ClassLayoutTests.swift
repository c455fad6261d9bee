import Testing
import TypeInfoFixtures
@testable import TypeInfo
import TypeLayout

@Suite struct ClassLayoutTests {
    @Test func threeLevelInheritanceListsSuperclassFieldsFirst() throws {
        let dog = Dog()
        let info = ClassInfo.of(Dog.self)
        #expect(info.kind == .class)
        #expect(info.propertyInfos.map(\.name) == ["name", "legs", "furColor", "warm", "breed", "good", "tail"])
        #expect(info.propertyInfo(named: "name")?.offset == liveOffset(dog, \.name))
        #expect(info.propertyInfo(named: "furColor")?.offset == liveOffset(dog, \.furColor))
        #expect(info.propertyInfo(named: "warm")?.offset == liveOffset(dog, \.warm))
        #expect(info.propertyInfo(named: "breed")?.offset == liveOffset(dog, \.breed))
        #expect(isSame(info.propertyInfo(named: "name")?.declaringType, Animal.self))
        #expect(isSame(info.propertyInfo(named: "warm")?.declaringType, Mammal.self))
        #expect(isSame(info.propertyInfo(named: "breed")?.declaringType, Dog.self))

        let mammal = try #require(info.superclassInfo)
        #expect(mammal === ClassInfo.of(Mammal.self))
        #expect(mammal.superclassInfo === ClassInfo.of(Animal.self))
        #expect(ClassInfo.of(Animal.self).superclassInfo == nil)
        #expect(isSame(info.superclass, Mammal.self))
        // A subclass shares its superclass's PropertyInfo objects, as YYClassInfo does.
        #expect(info.propertyInfos[0] === mammal.propertyInfos[0])
    }

    @Test func classSizesComeFromTheClassMetadata() {
        let info = ClassInfo.of(Dog.self)
        #expect(info.size == MemoryLayout<Dog>.size)
        #expect(info.alignment == MemoryLayout<Dog>.alignment)
        let dog = Dog()
        #expect(info.instanceSize == instanceEnd(dog, last: \.tail))
        #expect(info.instanceAlignment == 16 || info.instanceAlignment == 8)
    }

    @Test func finalClass() {
        let thing = FinalThing()
        let info = ClassInfo.of(FinalThing.self)
        #expect(info.propertyInfo(named: "x")?.offset == liveOffset(thing, \.x))
        #expect(info.propertyInfo(named: "y")?.offset == liveOffset(thing, \.y))
        #expect(info.instanceSize == instanceEnd(thing, last: \.y))
    }

    @Test func genericClasses() throws {
        let node = GenericNode("a")
        let info = ClassInfo.of(GenericNode<String>.self)
        #expect(info.genericArguments.map(ObjectIdentifier.init) == [ObjectIdentifier(String.self)])
        #expect(info.propertyInfo(named: "element")?.offset == liveOffset(node, \.element))
        #expect(info.propertyInfo(named: "next")?.offset == liveOffset(node, \.next))
        #expect(isSame(info.propertyInfo(named: "element")?.type, String.self))

        let intNode = GenericNode(UInt8(1))
        let intInfo = ClassInfo.of(GenericNode<UInt8>.self)
        #expect(intInfo.genericArguments.map(ObjectIdentifier.init) == [ObjectIdentifier(UInt8.self)])
        #expect(intInfo.propertyInfo(named: "next")?.offset == liveOffset(intNode, \.next))
        #expect(isSame(intInfo.propertyInfo(named: "next")?.type, GenericNode<UInt8>?.self))
    }

    @Test func ownershipOfReferenceFields() throws {
        let anchor = Referent(1)
        let delegate = DelegateObject()
        let object = Ownerships(anchor: anchor, delegate: delegate)
        let info = ClassInfo.of(Ownerships.self)
        let expected: [String: Ownership] = [
            "strong": .strong, "weakRef": .weak, "unownedRef": .unowned,
            "unsafeRef": .unownedUnsafe, "weakDelegate": .weak, "unownedDelegate": .unowned,
        ]
        for (name, ownership) in expected {
            #expect(info.propertyInfo(named: name)?.ownership == ownership, "\(name)")
        }
        // Reference storage cannot be addressed with `&`: watch which bytes an assignment changes.
        let other = Referent(2)
        let otherDelegate = DelegateObject()
        #expect(covers(info.propertyInfo(named: "weakRef"), changedBytes(in: object) { object.weakRef = other }))
        #expect(covers(info.propertyInfo(named: "unownedRef"), changedBytes(in: object) { object.unownedRef = other }))
        #expect(covers(info.propertyInfo(named: "unsafeRef"), changedBytes(in: object) { object.unsafeRef = other }))
        #expect(covers(info.propertyInfo(named: "weakDelegate"), changedBytes(in: object) { object.weakDelegate = otherDelegate }))
        #expect(covers(info.propertyInfo(named: "unownedDelegate"), changedBytes(in: object) { object.unownedDelegate = otherDelegate }))
        #expect(covers(info.propertyInfo(named: "strong"), changedBytes(in: object) { object.strong = other }))
        withExtendedLifetime((other, otherDelegate)) {}
        #expect(isSame(info.propertyInfo(named: "weakDelegate")?.type, Optional<any Delegate>.self))
        #expect(isSame(info.propertyInfo(named: "unownedDelegate")?.type, (any Delegate).self))
        withExtendedLifetime((anchor, delegate)) {}
    }

    @Test func subclassOfAClassFromAnotherModule() {
        let object = SubclassOfOtherModule()
        let info = ClassInfo.of(SubclassOfOtherModule.self)
        #expect(info.propertyInfos.map(\.name) == ["identifier", "tags", "extra"])
        #expect(info.propertyInfo(named: "extra")?.offset == liveOffset(object, \.extra))
        #expect(info.propertyInfo(named: "tags")?.offset == liveOffset(object, \.tags))
        #expect(info.superclassInfo?.qualifiedName == "TypeInfoFixtures.CrossModuleBase")
    }
}

/// The instance size oracle: the end of the last stored property, measured in a live instance.
func instanceEnd<Object: AnyObject, Value>(_ object: Object, last keyPath: ReferenceWritableKeyPath<Object, Value>) -> Int {
    liveOffset(object, keyPath) + MemoryLayout<Value>.size
}
