import Testing
@testable import TypeInfo

/// Counts live instances for this suite alone (suites run in parallel).
final class BorrowTracked {
    nonisolated(unsafe) static var live = 0
    let tag: Int
    init(_ tag: Int) {
        self.tag = tag
        BorrowTracked.live += 1
    }
    deinit { BorrowTracked.live -= 1 }
}

struct BorrowedFields {
    // Longer than a small string, so the value lives in a reference-counted buffer.
    var text = "a string well past fifteen bytes, on the heap"
    var count = 7
    var numbers = [1, 2, 3]
    var object = BorrowTracked(1)
    var maybe: String? = "present"
}

final class BorrowOwner {
    var object: BorrowTracked
    weak var weakObject: BorrowTracked?
    unowned var unownedObject: BorrowTracked
    init(_ object: BorrowTracked) {
        self.object = object
        weakObject = object
        unownedObject = object
    }
}

/// `InstanceStorage.withValue(_:for:_:)`: the value lent to the closure is the one the language
/// reads directly, for every kind of storage, and the checks of `get` still apply.
@Suite(.serialized) struct InstanceStorageBorrowTests {
    @Test func lendsTheValuesTheLanguageReads() throws {
        do {
            let value = BorrowedFields()
            let info = ClassInfo.of(BorrowedFields.self)
            func property(_ name: String) throws -> PropertyInfo { try #require(info.propertyInfo(named: name)) }
            try info.withStorage(reading: value) { storage in
                let text = try storage.withValue(String.self, for: property("text")) { copy $0 }
                #expect(text == value.text)
                let count = try storage.withValue(Int.self, for: property("count")) { copy $0 }
                #expect(count == value.count)
                let numbers = try storage.withValue([Int].self, for: property("numbers")) { copy $0 }
                #expect(numbers == value.numbers)
                let sameObject = try storage.withValue(BorrowTracked.self, for: property("object")) { $0 === value.object }
                #expect(sameObject)
                let maybe = try storage.withValue(String?.self, for: property("maybe")) { copy $0 }
                #expect(maybe == value.maybe)
                // Read as another type than the property's: a cast by the general path.
                let castCount = try storage.withValue(Any.self, for: property("count")) { ($0 as? Int) }
                #expect(castCount == value.count)
            }
            #expect(BorrowTracked.live == 1)
        }
        #expect(BorrowTracked.live == 0, "a borrow neither leaks nor over-releases")
    }

    @Test func weakAndUnownedGoThroughTheRuntime() throws {
        do {
            let object = BorrowTracked(2)
            let owner = BorrowOwner(object)
            let info = ClassInfo.of(BorrowOwner.self)
            let weak = try #require(info.propertyInfo(named: "weakObject"))
            let unowned = try #require(info.propertyInfo(named: "unownedObject"))
            try info.withStorage(reading: owner) { storage in
                let sameWeak = try storage.withValue(BorrowTracked?.self, for: weak) { $0 === owner.weakObject }
                #expect(sameWeak)
                let sameUnowned = try storage.withValue(BorrowTracked.self, for: unowned) { $0 === owner.unownedObject }
                #expect(sameUnowned)
                let unownedTag = try storage.withValue(BorrowTracked.self, for: unowned) { $0.tag }
                #expect(unownedTag == 2)
            }
            withExtendedLifetime(object) {}
        }
        #expect(BorrowTracked.live == 0)
        let owner = BorrowOwner(BorrowTracked(4))
        let info = ClassInfo.of(BorrowOwner.self)
        do {
            let transient = BorrowTracked(5)
            owner.weakObject = transient
        }  // released here: the weak reference reads nil
        let isNil = try info.withStorage(reading: owner) { storage in
            try storage.withValue(BorrowTracked?.self, for: try #require(info.propertyInfo(named: "weakObject"))) { $0 == nil }
        }
        #expect(isNil == (owner.weakObject == nil))
        #expect(isNil)
    }

    @Test func inheritedPropertiesOfAClassInstance() throws {
        let dog = Dog()
        dog.name = "a dog whose name is longer than fifteen bytes"
        let info = ClassInfo.of(Dog.self)
        try info.withStorage(reading: dog) { storage in
            let name = try storage.withValue(String.self, for: try #require(info.propertyInfo(named: "name"))) { copy $0 }
            #expect(name == dog.name)
            let breed = try storage.withValue(String.self, for: try #require(info.propertyInfo(named: "breed"))) { copy $0 }
            #expect(breed == dog.breed)
        }
    }

    @Test func wrongTypesAndForeignPropertiesAreRefusedBeforeTheClosure() throws {
        let value = BorrowedFields()
        let info = ClassInfo.of(BorrowedFields.self)
        let text = try #require(info.propertyInfo(named: "text"))
        var called = false
        let mismatch = #expect(throws: PropertyAccessError.self) {
            try info.withStorage(reading: value) { storage in try storage.withValue(Int.self, for: text) { _ in called = true } }
        }
        #expect(mismatch?.description == "property 'text' holds Swift.String, not Swift.Int")
        let foreign = try #require(ClassInfo.of(Inner.self).propertyInfo(named: "a"))
        let notOurs = #expect(throws: PropertyAccessError.self) {
            try info.withStorage(reading: value) { storage in try storage.withValue(Int32.self, for: foreign) { _ in called = true } }
        }
        #expect(notOurs?.description == "property 'a' belongs to TypeInfoTests.Inner, not to an instance of another type")
        #expect(!called, "the closure never sees a value of the wrong type")
    }

    @Test func theClosuresErrorComesBackUnchanged() throws {
        struct Stop: Error, Equatable { let code: Int }
        let value = BorrowedFields()
        let info = ClassInfo.of(BorrowedFields.self)
        let count = try #require(info.propertyInfo(named: "count"))
        #expect(throws: Stop(code: 7)) {
            try info.withStorage(reading: value) { storage in try storage.withValue(Int.self, for: count) { throw Stop(code: $0) } }
        }
    }
}
