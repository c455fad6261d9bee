import Testing
@testable import TypeInfo

// A counterpart for every case of wickwirew/Runtime's test suite (MetadataTests, FactoryTests,
// EnumFactoryTests, TupleFactoryTests, GetSetStructTests, GetSetClassTests, ValuePointerTests,
// ValueWitnessTableTests), written against TypeInfo's API. Where Runtime compares with a
// literal, these compare with the language's own answer: MemoryLayout, offset(of:), addresses
// inside live instances, Mirror, or the value Swift itself builds.

private protocol RTProtocol { var a: Int { get set }; func doSomething(value: Int) -> Bool }
private class RTBase { var baseProperty: Int = 0 }
private class RTGenericSub<T>: RTBase {
    final var property: String = ""
    final var gen: T
    init(g: T) { gen = g }
}
private struct RTSeven<B, C, D, E, F, G, H> { let b: B }
private struct RTLetsAndVar { let a, b, c, d: Int; var e: Int }
private enum RTRawEnum<T>: Int { case a, b, c, d }
private func rtFunction(a: Int, b: Bool, c: String) -> String { "" }
private func rtVoidFunction() {}

private struct RTPerson {
    var firstname = "Wes"; var lastname = "Wickwire"; var age = 25; var pet = RTPet(); var favoriteNumbers = [1, 2, 3, 4, 5]
}
private struct RTPet { var name = "Marley"; var age = 12 }
private final class RTPersonObject {
    var firstname = "Wes"; var lastname = "Wickwire"; var age = 25; var pet = RTPetObject(); var favoriteNumbers = [1, 2, 3, 4, 5]
}
private final class RTPetObject {
    var name = "Marley"; var age = 12
    init() {}
    init(name: String, age: Int) { self.name = name; self.age = age }
}
private protocol RTPersonProtocol { var firstname: String { get } }
extension RTPerson: RTPersonProtocol {}
extension RTPersonObject: RTPersonProtocol {}
private class RTFactoryPerson<T> { var firstname = "Jobie"; var age = 40; var pet = RTPetObject(); var favoriteNumbers = [1, 2, 3] }

private func mirrorValue(_ value: Any, _ label: String) -> Any? {
    Mirror(reflecting: value).children.first { $0.label == label }?.value
}

@Suite struct RuntimeMetadataCounterparts {
    @Test func genericSubclass() throws {
        let info = ClassInfo.of(RTGenericSub<Int>.self)
        #expect(info.kind == .class)
        #expect(isSame(info.type, RTGenericSub<Int>.self))
        #expect(info.superclass.map { isSame($0, RTBase.self) } == true)
        #expect(info.superclassInfo === ClassInfo.of(RTBase.self))
        #expect(info.mangledName == _mangledTypeName(RTGenericSub<Int>.self))
        #expect(info.propertyInfos.map(\.name) == ["baseProperty", "property", "gen"])
        #expect(info.size == MemoryLayout<RTGenericSub<Int>>.size && info.stride == MemoryLayout<RTGenericSub<Int>>.stride)
        #expect(info.alignment == MemoryLayout<RTGenericSub<Int>>.alignment)
        #expect(info.genericArguments.count == 1 && isSame(info.genericArguments[0], Int.self))
        let object = RTGenericSub(g: 5)
        #expect(info.propertyInfo(named: "gen")?.offset == liveOffset(object, \.gen))
        #expect(info.propertyInfo(named: "property")?.offset == liveOffset(object, \.property))
    }

    @Test func genericStructWithSevenParameters() throws {
        typealias Seven = RTSeven<Int, String, Bool, Int, Int, Int, Int>
        let info = ClassInfo.of(Seven.self)
        #expect(
            info.genericArguments.map { ObjectIdentifier($0) }
                == [Int.self, String.self, Bool.self, Int.self, Int.self, Int.self, Int.self].map { ObjectIdentifier($0) })
        #expect(info.propertyInfos.count == 1 && isSame(info.propertyInfos[0].type, Int.self))
        #expect(info.propertyInfos[0].offset == MemoryLayout<Seven>.offset(of: \.b))
    }

    @Test func structLetsAndVars() throws {
        let info = ClassInfo.of(RTLetsAndVar.self)
        #expect(info.kind == .struct && isSame(info.type, RTLetsAndVar.self))
        #expect(info.propertyInfos.map(\.isVar) == [false, false, false, false, true])
        #expect(info.size == MemoryLayout<RTLetsAndVar>.size && info.alignment == MemoryLayout<RTLetsAndVar>.alignment)
        #expect(info.stride == MemoryLayout<RTLetsAndVar>.stride)
        #expect(info.propertyInfo(named: "e")?.offset == MemoryLayout<RTLetsAndVar>.offset(of: \.e))
    }

    @Test func protocolExistential() throws {
        let info = ClassInfo.of((any RTProtocol).self)
        #expect(info.kind == .existential)
        #expect(info.size == MemoryLayout<any RTProtocol>.size && info.stride == MemoryLayout<any RTProtocol>.stride)
        #expect(info.alignment == MemoryLayout<any RTProtocol>.alignment)
        #expect(info.isClassBoundExistential == false)
    }

    @Test func tuplesWithAndWithoutLabels() throws {
        typealias Labelled = (a: Int, b: Bool, c: String)
        let info = ClassInfo.of(Labelled.self)
        #expect(info.kind == .tuple)
        #expect(info.tupleElements.map(\.label) == ["a", "b", "c"])
        #expect(info.size == MemoryLayout<Labelled>.size && info.stride == MemoryLayout<Labelled>.stride)
        #expect(
            info.tupleElements.map(\.offset) == [
                MemoryLayout<Labelled>.offset(of: \.a), MemoryLayout<Labelled>.offset(of: \.b), MemoryLayout<Labelled>.offset(of: \.c),
            ])
        let plain = ClassInfo.of((Int, Bool, String).self)
        #expect(plain.tupleElements.map(\.label) == [nil, nil, nil])
        #expect(plain.tupleElements.count == 3)
    }

    @Test func functionTypes() throws {
        let function = try #require(ClassInfo.of(type(of: rtFunction)).function)
        #expect(function.parameterTypes.map { ObjectIdentifier($0) } == [Int.self, Bool.self, String.self].map { ObjectIdentifier($0) })
        #expect(isSame(function.resultType, String.self) && !function.isThrowing)
        let throwing = try #require(ClassInfo.of(((Int) throws -> String).self).function)
        #expect(throwing.parameterTypes.count == 1 && isSame(throwing.parameterTypes[0], Int.self) && throwing.isThrowing)
        #expect(ClassInfo.of(type(of: rtVoidFunction)).function?.parameterTypes.isEmpty == true)
    }

    @Test func genericRawValueEnumCases() throws {
        let info = ClassInfo.of(RTRawEnum<String>.self)
        #expect(info.cases.map(\.name) == ["a", "b", "c", "d"])
        for value in [RTRawEnum<String>.a, .b, .c, .d] {
            #expect(try info.enumCase(of: value).caseName == String(describing: value))
        }
    }
}

@Suite struct RuntimeValueWitnessCounterparts {
    @Test func sizeAlignmentStride() {
        struct Person { let firstname: String; let lastname: String; let age: Int }
        let info = ClassInfo.of(Person.self)
        #expect(info.size == MemoryLayout<Person>.size)
        #expect(info.alignment == MemoryLayout<Person>.alignment)
        #expect(info.stride == MemoryLayout<Person>.stride)
    }
}

/// GetSetStructTests and GetSetClassTests: every combination of typed / `Any` value and typed /
/// `Any` instance, for a string, a nested struct or object, and an array.
@Suite struct RuntimeGetSetCounterparts {
    @Test func structGetsAllCombinations() throws {
        let info = ClassInfo.of(RTPerson.self)
        let person = RTPerson()
        let boxed: Any = person
        for name in ["firstname", "pet", "favoriteNumbers"] {
            let property = try #require(info.propertyInfo(named: name))
            let oracle = String(describing: mirrorValue(person, name) ?? "missing")
            #expect(String(describing: try property.get(from: person)) == oracle)
            #expect(String(describing: try property.get(from: boxed)) == oracle)
        }
        #expect(try info.propertyInfo(named: "firstname")?.get(String.self, from: person) == person.firstname)
        #expect(try info.propertyInfo(named: "firstname")?.get(String.self, from: boxed) == person.firstname)
        #expect(try info.propertyInfo(named: "pet")?.get(RTPet.self, from: boxed).name == person.pet.name)
        #expect(try info.propertyInfo(named: "favoriteNumbers")?.get([Int].self, from: boxed) == person.favoriteNumbers)
        #expect(info.propertyInfo(named: "pet")?.offset == MemoryLayout<RTPerson>.offset(of: \.pet))
    }

    @Test func structSetsAllCombinations() throws {
        let info = ClassInfo.of(RTPerson.self)
        let firstname = try #require(info.propertyInfo(named: "firstname"))
        let pet = try #require(info.propertyInfo(named: "pet"))
        let numbers = try #require(info.propertyInfo(named: "favoriteNumbers"))
        var person = RTPerson()
        try firstname.set("John", on: &person)
        try firstname.set("John2" as Any, on: &person)
        #expect(person.firstname == "John2")
        try pet.set(RTPet(name: "Rex", age: 9), on: &person)
        #expect(person.pet.name == "Rex")
        try numbers.set([5, 4, 3, 2, 1] as Any, on: &person)
        #expect(person.favoriteNumbers == [5, 4, 3, 2, 1])
        var boxed: Any = RTPerson()
        try firstname.set("John", on: &boxed)
        try pet.set(RTPet(name: "Rex", age: 9) as Any, on: &boxed)
        try numbers.set([5, 4], on: &boxed)
        let updated = try #require(boxed as? RTPerson)
        #expect(updated.firstname == "John" && updated.pet.name == "Rex" && updated.favoriteNumbers == [5, 4])
        // Runtime's testSetCastingFailure ignores a wrong-typed value; TypeInfo says so and writes nothing.
        #expect(throws: PropertyAccessError.typeMismatch(property: "age", expected: "Swift.Int", found: "Swift.String")) {
            try info.propertyInfo(named: "age")?.set("this will not work", on: &person)
        }
        #expect(person.age == RTPerson().age)
        // testSetCasting: a value castable to the property's type is accepted.
        try info.propertyInfo(named: "age")?.set(Optional(40) as Any, on: &person)
        #expect(person.age == 40)
    }

    @Test func classGetsAndSetsAllCombinations() throws {
        let info = ClassInfo.of(RTPersonObject.self)
        let person = RTPersonObject()
        let boxed: Any = person
        for name in ["firstname", "pet", "favoriteNumbers"] {
            let property = try #require(info.propertyInfo(named: name))
            let oracle = mirrorValue(person, name)
            #expect(String(describing: try property.get(from: person)) == String(describing: oracle ?? "missing"))
            #expect(String(describing: try property.get(from: boxed)) == String(describing: oracle ?? "missing"))
        }
        #expect(try info.propertyInfo(named: "pet")?.get(RTPetObject.self, from: boxed) === person.pet)
        #expect(info.propertyInfo(named: "pet")?.offset == liveOffset(person, \.pet))
        var typed = person
        try info.propertyInfo(named: "firstname")?.set("John", on: &typed)
        var anyInstance: Any = person
        try info.propertyInfo(named: "lastname")?.set("Doe" as Any, on: &anyInstance)
        let newPet = RTPetObject(name: "Rex", age: 9)
        try info.propertyInfo(named: "pet")?.set(newPet, on: person)
        try info.propertyInfo(named: "favoriteNumbers")?.set([5, 4, 3, 2, 1] as Any, on: &anyInstance)
        #expect(
            person.firstname == "John" && person.lastname == "Doe" && person.pet === newPet && person.favoriteNumbers == [5, 4, 3, 2, 1])
    }
}

/// ValuePointerTests: Runtime hands out the address of a value (struct, class, behind `any P`
/// or `Any`); TypeInfo's counterpart is `withStorage`, which reads through the same address.
@Suite struct RuntimeValuePointerCounterparts {
    @Test func storageOfStructsAndObjectsBehindExistentials() throws {
        let structInfo = ClassInfo.of(RTPerson.self)
        let objectInfo = ClassInfo.of(RTPersonObject.self)
        let structName = try #require(structInfo.propertyInfo(named: "firstname"))
        let objectName = try #require(objectInfo.propertyInfo(named: "firstname"))
        let values: [(ClassInfo, PropertyInfo, Any)] = [
            (structInfo, structName, RTPerson()), (objectInfo, objectName, RTPersonObject()),
        ]
        for (info, property, value) in values {
            #expect(try info.withStorage(reading: value) { try $0.get(String.self, for: property) } == "Wes")
            let existential = try #require(value as? any RTPersonProtocol)
            #expect(try info.withStorage(reading: existential) { try $0.get(String.self, for: property) } == existential.firstname)
        }
        var boxed: Any = RTPerson()
        let before = boxed
        try structInfo.withStorage(of: &boxed) { try $0.set("Ann", for: structName) }
        #expect((boxed as? RTPerson)?.firstname == "Ann")
        #expect((before as? RTPerson)?.firstname == "Wes", "value semantics through an existential")
        let object = RTPersonObject()
        var protocolTyped: any RTPersonProtocol = object
        try objectInfo.withStorage(of: &protocolTyped) { try $0.set("Bo", for: objectName) }
        #expect(object.firstname == "Bo")
    }
}

/// FactoryTests, EnumFactoryTests, TupleFactoryTests.
@Suite struct RuntimeFactoryCounterparts {
    @Test func structsAndGenericClasses() throws {
        let person = try ClassInfo.of(RTPerson.self).makeInstance(RTPerson.self)
        #expect(person.firstname == "" && person.lastname == "" && person.age == 0)
        #expect(person.pet.name == "" && person.pet.age == 0 && person.favoriteNumbers.isEmpty)
        #expect(try ClassInfo.of(RTPerson.self).makeInstance() is RTPerson)
        let object = try ClassInfo.of(RTFactoryPerson<Int>.self).makeInstance(RTFactoryPerson<Int>.self)
        #expect(object.firstname == "" && object.age == 0 && object.pet.name == "" && object.favoriteNumbers.isEmpty)
        #expect(isSame(type(of: object), RTFactoryPerson<Int>.self))
    }

    @Test func enums() throws {
        enum Empty {}
        #expect(throws: InstanceFactoryError.uninhabited(path: "", type: String(reflecting: Empty.self))) {
            try ClassInfo.of(Empty.self).makeInstance()
        }
        enum Single: Equatable { case test }
        #expect(try ClassInfo.of(Single.self).makeInstance(Single.self) == .test)
        enum SinglePayload: Equatable { case test(Int, Double) }
        #expect(try ClassInfo.of(SinglePayload.self).makeInstance(SinglePayload.self) == .test(0, 0))
        enum Raw: Int {
            case one = 42
            case two = 0
        }
        #expect(try ClassInfo.of(Raw.self).makeInstance(Raw.self) == .one)
        enum Scalar: Equatable {
            case one
            case two(Unicode.Scalar)
            case three
        }
        // TypeInfo takes the first case without payload (Runtime takes tag 0, the first payload case).
        #expect(try ClassInfo.of(Scalar.self).makeInstance(Scalar.self) == .one)
        enum Extended: Equatable {
            case oneToThree(Scalar)
            case four, five
        }
        #expect(try ClassInfo.of(Extended.self).makeInstance(Extended.self) == .four)
        enum CommonTag: Equatable {
            case one(Int)
            case two(Double)
            case three(UInt64)
        }
        #expect(try ClassInfo.of(CommonTag.self).makeInstance(CommonTag.self) == .one(0))
        struct Person: Equatable { let name: String; let age: UInt64 }
        enum Nested: Equatable {
            case one(person: Person, array: [Person], dictionary: [Int: Person])
            case three(Int)
        }
        #expect(
            try ClassInfo.of(Nested.self).makeInstance(Nested.self) == .one(person: Person(name: "", age: 0), array: [], dictionary: [:]))
    }

    /// Runtime's `allCases(of:)`: every case, payloads built by the factory, compared with the
    /// values Swift builds.
    @Test func everyCaseWithBuiltPayloads() throws {
        enum Unaligned: Equatable {
            case one(Unicode.Scalar)
            case two(Unicode.Scalar)
            case five, six
        }
        let info = ClassInfo.of(Unaligned.self)
        let built = try info.cases.map { enumCase in
            try info.makeEnumValue(
                Unaligned.self, caseNamed: enumCase.name,
                payload: try enumCase.payloadType.map { try ClassInfo.of($0).makeInstance() })
        }
        #expect(Set(built.map { "\($0)" }) == Set([Unaligned.one("\u{0}"), .two("\u{0}"), .five, .six].map { "\($0)" }))
        #expect(built.count == 4)
    }

    @Test func tuples() throws {
        #expect(try ClassInfo.of(Void.self).makeInstance() is Void)
        #expect(try ClassInfo.of(String.self).makeInstance(String.self) == "")
        let pair = try #require(try ClassInfo.of((name: String, age: Int).self).makeInstance() as? (name: String, age: Int))
        #expect(pair.name == "" && pair.age == 0)
        typealias Ten = (String, Int, Bool, Double, Float, [UInt8], [UInt16: UInt32], Set<UInt64>, Character, Int32)
        let ten = try #require(try ClassInfo.of(Ten.self).makeInstance() as? Ten)
        #expect(ten.0 == "" && ten.1 == 0 && !ten.2 && ten.3 == 0 && ten.4 == 0 && ten.5.isEmpty && ten.6.isEmpty && ten.7.isEmpty)
        #expect(ten.8 == "\u{0}" && ten.9 == 0)
        struct Person: Equatable { let name: String; let age: UInt16 }
        let people = try #require(try ClassInfo.of((Person, Person).self).makeInstance() as? (Person, Person))
        #expect(people.0 == Person(name: "", age: 0) && people.1 == Person(name: "", age: 0))
    }
}
