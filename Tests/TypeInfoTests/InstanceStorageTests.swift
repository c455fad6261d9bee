import Testing
@testable import TypeInfo

/// Counts live instances for this suite alone (suites run in parallel).
final class StorageTracked {
    nonisolated(unsafe) static var live = 0
    init() { StorageTracked.live += 1 }
    deinit { StorageTracked.live -= 1 }
}

final class StorageOwner {
    var object: StorageTracked
    weak var weakObject: StorageTracked?
    unowned var unownedObject: StorageTracked
    init(_ object: StorageTracked) {
        self.object = object
        unownedObject = object
    }
}

@Suite(.serialized) struct InstanceStorageTests {
    @Test func writesAndReadsEveryPropertyOfAStruct() throws {
        let info = ClassInfo.of(MixedScalars.self)
        let source = MixedScalars(flag: false, wide: 77, small: 1, real: -0.5, half: -2, single: 9, character: "z")
        var target = MixedScalars()
        try info.withStorage(of: &target) { storage in
            for property in info.propertyInfos {
                try storage.set(try property.get(from: source), for: property)
            }
        }
        #expect(String(describing: target) == String(describing: source))
        let wide = try info.withStorage(reading: target) { try $0.get(Int64.self, for: try #require(info.propertyInfo(named: "wide"))) }
        #expect(wide == 77)
    }

    @Test func classesIncludingInheritedAndReferenceStorage() throws {
        let info = ClassInfo.of(StorageOwner.self)
        do {
            let first = StorageTracked()
            let second = StorageTracked()
            var owner = StorageOwner(first)
            try info.withStorage(of: &owner) { storage in
                try storage.set(second, for: try #require(info.propertyInfo(named: "object")))
                try storage.set(second, for: try #require(info.propertyInfo(named: "weakObject")))  // cast Tracked -> Tracked?
                try storage.set(second, for: try #require(info.propertyInfo(named: "unownedObject")))
            }
            #expect(owner.object === second && owner.weakObject === second && owner.unownedObject === second)
            #expect(StorageTracked.live == 2)
            withExtendedLifetime(first) {}
        }
        #expect(StorageTracked.live == 0)

        let dogInfo = ClassInfo.of(Dog.self)
        var dog = Dog()
        try dogInfo.withStorage(of: &dog) { try $0.set("rex", for: try #require(dogInfo.propertyInfo(named: "name"))) }
        #expect(dog.name == "rex")
    }

    @Test func foreignPropertiesAndWrongInstancesAreRejected() throws {
        let info = ClassInfo.of(MixedScalars.self)
        let foreign = try #require(ClassInfo.of(Inner.self).propertyInfo(named: "a"))
        var value = MixedScalars()
        let before = String(describing: value)
        #expect(throws: PropertyAccessError.self) {
            try info.withStorage(of: &value) { try $0.set(Int32(5), for: foreign) }
        }
        #expect(throws: PropertyAccessError.self) {
            try info.withStorage(of: &value) { try $0.set("not a double", for: try #require(info.propertyInfo(named: "real"))) }
        }
        #expect(String(describing: value) == before, "nothing written")
        var other = Inner()
        #expect(throws: PropertyAccessError.self) { try info.withStorage(of: &other) { _ in } }
        var animal = Animal()
        #expect(throws: PropertyAccessError.self) { try ClassInfo.of(Dog.self).withStorage(of: &animal) { _ in } }
    }
}

struct ZeroSizedFields {
    var empty = EmptyStruct()
    var unit: () = ()
}

@Suite struct ZeroSizedValueTests {
    // A zero-sized value's buffer has no base address; reading and writing its (zero-sized)
    // fields must still work, in debug builds too.
    @Test func zeroSizedStructsCanBeReadAndWritten() throws {
        #expect(MemoryLayout<ZeroSizedFields>.size == 0)
        let info = ClassInfo.of(ZeroSizedFields.self)
        var value = ZeroSizedFields()
        let empty = try #require(info.propertyInfo(named: "empty"))
        try info.withStorage(of: &value) { storage in
            try storage.set(EmptyStruct(), for: empty)
            _ = try storage.get(EmptyStruct.self, for: empty)
        }
        _ = try info.withStorage(reading: value) { try $0.get(EmptyStruct.self, for: empty) }
        try empty.set(EmptyStruct(), on: &value)
        _ = try empty.get(EmptyStruct.self, from: value)
        _ = try empty.get(from: value)
        try empty.set(EmptyStruct() as Any, on: &value)
        var nothing = EmptyStruct()
        try ClassInfo.of(EmptyStruct.self).withStorage(of: &nothing) { _ in }
    }
}
