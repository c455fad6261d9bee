import Testing
@testable import TypeInfo
import TypeLayout

/// Counts live instances, so tests can see leaks and over-releases.
final class Tracked {
    nonisolated(unsafe) static var live = 0
    let id: Int
    init(_ id: Int) { self.id = id; Tracked.live += 1 }
    deinit { Tracked.live -= 1 }
}

struct TrackedHolder {
    var object: Tracked
    let constant: Tracked
    var optional: Tracked?
    var any: Any = 0
    var number: Int = 0
}

final class TrackedOwner {
    var object: Tracked
    weak var weakObject: Tracked?
    unowned var unownedObject: Tracked
    unowned(unsafe) var unsafeObject: Tracked
    let constant: String = "fixed"
    init(_ object: Tracked) {
        self.object = object
        unownedObject = object
        unsafeObject = object
    }
}

protocol Pinger: AnyObject { var id: Int { get } }
final class TrackedPinger: Pinger {
    nonisolated(unsafe) static var live = 0
    let id: Int
    init(_ id: Int) { self.id = id; TrackedPinger.live += 1 }
    deinit { TrackedPinger.live -= 1 }
}
final class PingerOwner {
    weak var weakPinger: (any Pinger)?
    unowned var unownedPinger: any Pinger
    init(_ pinger: any Pinger) { unownedPinger = pinger }
}

// Tests that count instances must not run in parallel with each other.
@Suite(.serialized) struct PropertyAccessTests {
    @Test func structRoundTripIncludingLet() throws {
        let info = ClassInfo.of(TrackedHolder.self)
        do {
            var holder = TrackedHolder(object: Tracked(1), constant: Tracked(2), optional: nil)
            #expect(Tracked.live == 2)
            try info.propertyInfo(named: "object")?.set(Tracked(3), on: &holder)
            #expect(holder.object.id == 3)
            #expect(Tracked.live == 2, "the replaced object was released")
            try info.propertyInfo(named: "constant")?.set(Tracked(4), on: &holder)
            #expect(holder.constant.id == 4)
            try info.propertyInfo(named: "optional")?.set(Tracked(5), on: &holder)
            #expect(holder.optional?.id == 5)
            try info.propertyInfo(named: "optional")?.set(Tracked?.none, on: &holder)
            #expect(holder.optional == nil)
            try info.propertyInfo(named: "any")?.set("text", on: &holder)
            #expect(holder.any as? String == "text")
            let read = try info.propertyInfo(named: "object")?.get(Tracked.self, from: holder)
            #expect(read?.id == 3)
            #expect(Tracked.live == 2)
        }
        #expect(Tracked.live == 0, "no leaks")
    }

    @Test func wrongTypeThrowsAndWritesNothing() throws {
        let info = ClassInfo.of(TrackedHolder.self)
        var holder = TrackedHolder(object: Tracked(1), constant: Tracked(2), optional: nil, number: 7)
        #expect(throws: PropertyAccessError.typeMismatch(property: "number", expected: "Swift.Int", found: "Swift.String")) {
            try info.propertyInfo(named: "number")?.set("seven", on: &holder)
        }
        #expect(throws: PropertyAccessError.self) {
            try info.propertyInfo(named: "object")?.set(42 as Any, on: &holder)
        }
        #expect(holder.number == 7)
        #expect(holder.object.id == 1)
        #expect(throws: PropertyAccessError.self) {
            _ = try info.propertyInfo(named: "number")?.get(String.self, from: holder)
        }
    }

    @Test func instanceThatDoesNotOwnThePropertyIsRejected() throws {
        let holderInfo = ClassInfo.of(TrackedHolder.self)
        var other = MixedScalars()
        #expect(throws: PropertyAccessError.self) {
            try holderInfo.propertyInfo(named: "number")?.set(1, on: &other)
        }
        #expect(throws: PropertyAccessError.self) {
            _ = try holderInfo.propertyInfo(named: "number")?.get(from: other)
        }
        let dogName = try #require(ClassInfo.of(Dog.self).propertyInfo(named: "breed"))
        #expect(throws: PropertyAccessError.self) { try dogName.set("x", on: Animal()) }
        // An inherited property accepts subclass instances.
        let animalName = try #require(ClassInfo.of(Animal.self).propertyInfo(named: "name"))
        let dog = Dog()
        try animalName.set("rex", on: dog)
        #expect(dog.name == "rex")
    }

    @Test func valuesBehindAnyAreOpened() throws {
        let info = ClassInfo.of(MixedScalars.self)
        var boxed: Any = MixedScalars()
        try info.propertyInfo(named: "real")?.set(9.25, on: &boxed)
        #expect((boxed as? MixedScalars)?.real == 9.25)
        #expect(try info.propertyInfo(named: "real")?.get(from: boxed) as? Double == 9.25)
    }

    @Test func classReferenceStorageRoundTrips() throws {
        let info = ClassInfo.of(TrackedOwner.self)
        do {
            let first = Tracked(1)
            let owner = TrackedOwner(first)
            let second = Tracked(2)
            try info.propertyInfo(named: "weakObject")?.set(second, on: owner)
            #expect(owner.weakObject === second)
            #expect(try info.propertyInfo(named: "weakObject")?.get(Tracked?.self, from: owner) === second)
            try info.propertyInfo(named: "unownedObject")?.set(second, on: owner)
            #expect(owner.unownedObject === second)
            #expect(try info.propertyInfo(named: "unownedObject")?.get(Tracked.self, from: owner) === second)
            try info.propertyInfo(named: "unsafeObject")?.set(second, on: owner)
            #expect(owner.unsafeObject === second)
            #expect(try info.propertyInfo(named: "unsafeObject")?.get(from: owner) as? Tracked === second)
            try info.propertyInfo(named: "constant")?.set("changed", on: owner)
            #expect(owner.constant == "changed")
            #expect(Tracked.live == 2)
            // unowned(unsafe) holds no count; only `object` keeps `first` alive.
            try info.propertyInfo(named: "unownedObject")?.set(first, on: owner)
            try info.propertyInfo(named: "unsafeObject")?.set(first, on: owner)
            withExtendedLifetime(second) {}
        }
        #expect(Tracked.live == 0, "no leaks, no over-release")
    }

    @Test func weakReferenceReadsNilOnceTheObjectIsGone() throws {
        let info = ClassInfo.of(TrackedOwner.self)
        let anchor = Tracked(1)
        let owner = TrackedOwner(anchor)
        do {
            let shortLived = Tracked(9)
            try info.propertyInfo(named: "weakObject")?.set(shortLived, on: owner)
            #expect(owner.weakObject?.id == 9)
        }
        #expect(owner.weakObject == nil)
        #expect(try info.propertyInfo(named: "weakObject")?.get(Tracked?.self, from: owner) == nil)
        withExtendedLifetime(anchor) {}
    }

    @Test func classBoundExistentialReferenceStorage() throws {
        let info = ClassInfo.of(PingerOwner.self)
        do {
            let first = TrackedPinger(1)
            let owner = PingerOwner(first)
            let second = TrackedPinger(2)
            try info.propertyInfo(named: "weakPinger")?.set(second as any Pinger, on: owner)
            #expect(owner.weakPinger?.id == 2)
            let read = try info.propertyInfo(named: "weakPinger")?.get((any Pinger)?.self, from: owner)
            #expect(read.flatMap { $0 }?.id == 2)
            try info.propertyInfo(named: "unownedPinger")?.set(second as any Pinger, on: owner)
            #expect(owner.unownedPinger.id == 2)
            #expect(try info.propertyInfo(named: "unownedPinger")?.get((any Pinger).self, from: owner).id == 2 as Int?)
            #expect(TrackedPinger.live == 2)
            try info.propertyInfo(named: "unownedPinger")?.set(first as any Pinger, on: owner)
            withExtendedLifetime(second) {}
        }
        #expect(TrackedPinger.live == 0)
    }
}
