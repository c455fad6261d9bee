import Testing
@testable import TypeInfo

/// Types with no `init()`: the factory's subjects.
struct FactoryPerson {
    let name: String
    var age: Int
    var ratio: Double
    var flags: (Bool, UInt8)
    var tags: [String]
    var scores: [String: Int]
    var nickname: String?
    var address: FactoryAddress
    var status: Status
    var shipment: Shipment
    var pet: FactoryPet
}

struct FactoryAddress { var street: String; var number: Int32 }

/// Counts deinitialisations only: the factory runs no initializer, so counting inits would not work.
final class DeinitCounter {
    nonisolated(unsafe) static var deinits = 0
    var id: Int
    init(id: Int) { self.id = id }
    deinit { DeinitCounter.deinits += 1 }
}

class FactoryAnimal {
    var legs: Int
    let tag: DeinitCounter
    init(legs: Int) { self.legs = legs; tag = DeinitCounter(id: 0) }
}

final class FactoryPet: FactoryAnimal {
    nonisolated(unsafe) static var deinits = 0
    var name: String
    weak var owner: FactoryAnimal?
    var friend: FactoryPet?
    init(name: String) { self.name = name; super.init(legs: 4) }
    deinit { FactoryPet.deinits += 1 }
}

struct WithDefaults: DefaultInitializable { var retries = 3; var label = "x" }
/// Size 5, stride 8: a payload case and a tag byte.
enum CanarySubject {
    case one
    case two(Unicode.Scalar)
    case three
}

struct HoldsDefaults { var inner: WithDefaults; var count: Int }

struct HoldsAny { var number: Int; var payload: Any }
struct HoldsClosure { var id: Int; var handler: () -> Void }
struct HoldsNever { var id: Int; var never: Uninhabited }
final class SelfReferencing { var next: SelfReferencing; init(next: SelfReferencing) { self.next = next } }
final class HoldsUnowned { unowned var target: Tracked; init(_ target: Tracked) { self.target = target } }
struct HoldsPointer { var address: UnsafeRawPointer }
enum OnlyPayloads {
    case number(Int)
    case text(String)
}
final class ChainLink { var box: ChainBox; init(box: ChainBox) { self.box = box } }
struct ChainBox { var count: Int; var link: ChainLink }

private func message(_ body: () throws -> Any) -> String {
    do { _ = try body(); return "no error" } catch { return String(describing: error) }
}

@Suite(.serialized) struct FactoryTests {
    @Test func buildsStructsWithEveryKindOfField() throws {
        let deinitsBefore = DeinitCounter.deinits
        do {
            let person = try ClassInfo.of(FactoryPerson.self).makeInstance(FactoryPerson.self)
            // Mirror is the oracle for every field's value.
            let expected: [String: String] = [
                "name": "\"\"", "age": "0", "ratio": "0.0", "flags": "(false, 0)", "tags": "[]", "scores": "[:]",
                "nickname": "nil", "status": "idle", "shipment": "lost",
            ]
            for child in Mirror(reflecting: person).children {
                guard let label = child.label, let text = expected[label] else { continue }
                #expect(String(reflecting: child.value) == text || String(describing: child.value) == text, "\(label)")
            }
            #expect(person.address.street.isEmpty && person.address.number == 0)
            #expect(person.pet.legs == 0 && person.pet.name.isEmpty && person.pet.owner == nil && person.pet.friend == nil)
            #expect(person.pet.tag.id == 0, "a nested class field is built too")
            var copy = person
            copy.tags.append("a")
            copy.scores["k"] = 1
            #expect(copy.tags == ["a"] && copy.scores == ["k": 1], "built collections are usable")
        }
        #expect(DeinitCounter.deinits == deinitsBefore + 1, "the nested object was released exactly once")
    }

    @Test func buildsClassesThroughTheRuntime() throws {
        let deinitsBefore = FactoryPet.deinits
        let countersBefore = DeinitCounter.deinits
        do {
            let pet = try ClassInfo.of(FactoryPet.self).makeInstance(FactoryPet.self)
            #expect(type(of: pet) == FactoryPet.self)
            #expect(pet.legs == 0 && pet.name == "")
            let untyped = try ClassInfo.of(FactoryPet.self).makeInstance()
            #expect(untyped is FactoryPet)
            pet.owner = pet  // the weak reference built as nil is a working weak reference
            #expect(pet.owner === pet)
            #expect(FactoryPet.deinits == deinitsBefore, "alive while referenced")
        }
        #expect(FactoryPet.deinits == deinitsBefore + 2, "each built instance deinitialised exactly once")
        #expect(DeinitCounter.deinits == countersBefore + 2, "superclass fields released with each instance")
    }

    @Test func tuplesEnumsAndOptionals() throws {
        let tuple = try #require(try ClassInfo.of((Int, String, Double?).self).makeInstance() as? (Int, String, Double?))
        #expect(tuple.0 == 0 && tuple.1 == "" && tuple.2 == nil)
        #expect(try ClassInfo.of(NoPayload.self).makeInstance(NoPayload.self) == .north)
        #expect(String(describing: try ClassInfo.of(WithPayload.self).makeInstance()) == "empty")
        #expect(String(describing: try ClassInfo.of(OnlyPayloads.self).makeInstance()) == "number(0)")
        #expect(try ClassInfo.of(Int?.self).makeInstance(Int?.self) == nil)
    }

    /// A built value writes its size and no further: the bytes between its size and its stride
    /// belong to the next field (found by ASan: templates once copied a whole stride).
    @Test(arguments: [CanarySubject.self, (Int32, Int8).self, Int32?.self, FactoryAddress.self] as [Any.Type])
    func buildingWritesNoByteBeyondTheValue(_ type: Any.Type) throws {
        func check<T>(_: T.Type) throws {
            let size = MemoryLayout<T>.size
            let guardBytes = 16
            let recipe = try ClassInfo.recipe(for: T.self, path: "", enclosing: [])
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + guardBytes, alignment: MemoryLayout<T>.alignment)
            defer { buffer.deallocate() }
            buffer.initializeMemory(as: UInt8.self, repeating: 0xA5, count: size + guardBytes)
            // Twice: the first build may make the template, the second copies it.
            for _ in 0..<2 {
                InstanceFactoryMemory.initialize(recipe, at: buffer)
                let tail = UnsafeRawBufferPointer(start: buffer + size, count: guardBytes)
                #expect(tail.allSatisfy { $0 == 0xA5 }, "bytes after \(T.self)'s \(size) written")
                buffer.withMemoryRebound(to: T.self, capacity: 1) { _ = $0.deinitialize(count: 1) }
            }
        }
        try check(type)
    }

    @Test func defaultInitializableKeepsDeclaredDefaults() throws {
        let value = try ClassInfo.of(HoldsDefaults.self).makeInstance(HoldsDefaults.self)
        #expect(value.inner.retries == WithDefaults().retries && value.inner.label == WithDefaults().label)
        #expect(value.count == 0)
    }

    @Test func typesThatCannotBeBuiltNameTheField() throws {
        #expect(
            message { try ClassInfo.of(HoldsAny.self).makeInstance() }
                == "cannot build field 'payload' of type Any: an existential has no default value")
        #expect(
            message { try ClassInfo.of(HoldsClosure.self).makeInstance() }
                == "cannot build field 'handler' of type () -> (): a function has no default value")
        #expect(
            message { try ClassInfo.of(HoldsNever.self).makeInstance() }
                == "cannot build field 'never': \(String(reflecting: Uninhabited.self)) is an enum without cases")
        #expect(
            message { try ClassInfo.of(Uninhabited.self).makeInstance() }
                == "cannot build the value: \(String(reflecting: Uninhabited.self)) is an enum without cases")
        #expect(
            message { try ClassInfo.of(SelfReferencing.self).makeInstance() }
                == "cannot build field 'next': \(String(reflecting: SelfReferencing.self)) contains itself without an optional")
        #expect(
            message { try ClassInfo.of(ChainLink.self).makeInstance() }
                == "cannot build field 'box.link': \(String(reflecting: ChainLink.self)) contains itself without an optional")
        #expect(
            message { try ClassInfo.of(HoldsUnowned.self).makeInstance() }
                == "cannot build field 'target' of type \(String(reflecting: Tracked.self)): an unowned reference must refer to an existing object"
        )
        #expect(
            message { try ClassInfo.of(HoldsPointer.self).makeInstance() }
                == "cannot build field 'address' of type Swift.UnsafeRawPointer: TypeInfo knows no default value for this standard library type"
        )
        #expect(message { try ClassInfo.of(Int.self).makeInstance(String.self) } == "this ClassInfo builds Swift.Int, not Swift.String")
    }
}
