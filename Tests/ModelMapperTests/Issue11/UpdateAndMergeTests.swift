import Foundation
import Testing

@testable import ModelMapper

struct Volume: Mappable, Equatable {
    var level = 5
    var muted = false
}

struct Settings: Mappable, Equatable {
    var name = "default"
    var volume = Volume(level: 7, muted: true)
    var tags: [String] = ["a"]
}

final class UserProfile: Mappable {
    var name = "ann"
    var age = 30
    let id: String = "fixed"
    required init() {}
}

final class AdminProfile: Mappable {
    var level = 1
    var profile = UserProfile()
    required init() {}
}

final class Hound: Mappable {
    var name = ""
    var age = 0
    required init() {}
    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }
}

class Pet: Mappable {
    var name = ""
    required init() {}
}

final class Cat: Pet {
    var lives = 9
}

/// KakaJSON's `testDefaultValue`: a nested struct and a nested class model with defaults.
struct Owner: Mappable {
    var dog = Hound(name: "Larry", age: 5)
    var pet: Pet = Cat()
    var volume = Volume(level: 7, muted: true)
}

final class ClassOwner: Mappable {
    var dog = Hound(name: "Larry", age: 5)
    required init() {}
}

/// A class model with a mapped `let`: a nested default of it is made afresh.
final class Badge: Mappable {
    let label: String = "none"
    var rank = 3
    required init() {}
}

struct BadgeHolder: Mappable {
    var badge: Badge = {
        let badge = Badge()
        badge.rank = 8
        return badge
    }()
}

class BaseAccount: Mappable {
    var owner = ""
    required init() {}
}

final class SavingsAccount: BaseAccount {
    var rate = 0.0
}

struct Member: Mappable, Equatable {
    var id = 0
    var name = ""
}

@Suite("issue 11: decoding into an existing model, nested defaults, top-level dictionaries")
struct UpdateAndMergeTests {
    @Test func structUpdateChangesOnlyPresentKeys() throws {
        var settings = Settings(name: "mine", volume: Volume(level: 2, muted: false), tags: ["x"])
        try ModelMapper().update(&settings, from: #"{"volume": {"muted": true}}"#)
        #expect(settings == Settings(name: "mine", volume: Volume(level: 2, muted: true), tags: ["x"]))
        try ModelMapper().update(&settings, from: Data(#"{"tags": [], "name": "new"}"#.utf8))
        #expect(settings == Settings(name: "new", volume: Volume(level: 2, muted: true), tags: []))
    }

    @Test func failedStrictUpdateLeavesAStructAsItWas() throws {
        var settings = Settings()
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).update(&settings, from: #"{"name": "x", "volume": {"level": "loud"}}"#)
        } throws: { error in
            (error as? MappingError)?.description == "$.volume.level: expected Int, found a string"
        }
        #expect(settings == Settings())
    }

    @Test func classUpdateIsInPlaceAndLeavesLets() throws {
        let collector = DiagnosticsCollector()
        let profile = UserProfile()
        let alias = profile
        try collector.mapper().update(profile, from: #"{"age": 31, "id": "other"}"#)
        #expect(alias.age == 31 && alias.name == "ann" && alias.id == "fixed")
        #expect(
            collector.reported == [
                "ModelMapper: UserProfile.id is not decoded: it is a 'let', and the instance being updated may already have had it read; an optimized build may keep using that value, so it is never changed in place; declare it 'var', or decode a new instance"
            ])
        #expect {
            try collector.mapper(.strict).update(profile, from: #"{"id": "other"}"#)
        } throws: { error in
            (error as? MappingError)?.description.hasPrefix("$.id: UserProfile.id is not decoded: it is a 'let'") == true
        }
        // A fresh decode writes a non-trivial let (nothing has read it yet).
        #expect(try ModelMapper().decode(UserProfile.self, from: #"{"id": "other"}"#).id == "other")
    }

    @Test func subclassInstanceIsUpdatedWithItsOwnMapping() throws {
        let account = SavingsAccount()
        let base: BaseAccount = account
        try ModelMapper().update(base, from: #"{"owner": "bo", "rate": 0.5}"#)
        #expect(account.owner == "bo" && account.rate == 0.5)
    }

    @Test func nestedStructDefaultsSurviveDecoding() throws {
        let settings = try ModelMapper().decode(Settings.self, from: #"{"volume": {"level": 9}}"#)
        // `muted` keeps the outer model's default (true), not Volume()'s (false).
        #expect(settings.volume == Volume(level: 9, muted: true))
        let viaPropertyInfo = try ModelMapper(options: MappingOptions(fieldAccess: .propertyInfo))
            .decode(Settings.self, from: #"{"volume": {"level": 9}}"#)
        #expect(viaPropertyInfo == settings)
    }

    @Test(arguments: [FieldAccessStrategy.instanceStorage, .propertyInfo])
    func nestedClassDefaultsSurviveDecoding(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let owner = try mapper.decode(Owner.self, from: #"{"dog": {"name": "Wangwang"}, "pet": {"lives": 3}, "volume": {"level": 1}}"#)
        #expect(owner.dog.name == "Wangwang" && owner.dog.age == 5)
        // The object the property held, a subclass instance, is decoded with its own mapping.
        let cat = try #require(owner.pet as? Cat)
        #expect(cat.lives == 3 && cat.name == "")
        #expect(owner.volume == Volume(level: 1, muted: true))
        let classOwner = try mapper.decode(ClassOwner.self, from: #"{"dog": {"age": 7}}"#)
        #expect(classOwner.dog.name == "Larry" && classOwner.dog.age == 7)
    }

    @Test func nestedClassObjectIsUpdatedInPlace() throws {
        var owner = Owner()
        let dog = owner.dog
        try ModelMapper().update(&owner, from: #"{"dog": {"age": 6}}"#)
        // The same object, changed in place: every holder of it sees the new age.
        #expect(owner.dog === dog && dog.age == 6 && dog.name == "Larry")
        let classOwner = ClassOwner()
        let classDog = classOwner.dog
        try ModelMapper().update(classOwner, from: #"{"dog": {"name": "Rex"}}"#)
        #expect(classOwner.dog === classDog && classDog.name == "Rex" && classDog.age == 5)
    }

    @Test func nestedClassWithALetIsMadeAfresh() throws {
        let holder = try ModelMapper().decode(BadgeHolder.self, from: #"{"badge": {"label": "gold"}}"#)
        // A fresh Badge: its let is written, and its rank is Badge()'s, not the default object's.
        #expect(holder.badge.label == "gold" && holder.badge.rank == 3)
        var kept = BadgeHolder()
        let before = kept.badge
        try ModelMapper().update(&kept, from: #"{"badge": {"rank": 1}}"#)
        #expect(kept.badge !== before && before.rank == 8 && kept.badge.rank == 1)
    }

    @Test func topLevelDictionariesOfModels() throws {
        let json = #"{"ann": {"id": 1, "name": "Ann"}, "bo": {"id": 2, "name": "Bo"}, "bad": 3}"#
        let members = try ModelMapper().decode([String: Member].self, from: json)
        #expect(members == ["ann": Member(id: 1, name: "Ann"), "bo": Member(id: 2, name: "Bo")])
        #expect {
            try ModelMapper(options: MappingOptions(mode: .strict)).decode([String: Member].self, from: Data(json.utf8))
        } throws: { error in
            (error as? MappingError)?.description == "$.bad: expected an object for Member, found the number 3"
        }
        let encoded = try ModelMapper(options: MappingOptions(outputFormatting: .sortedKeys)).encode(members)
        #expect(try ModelMapper().decode([String: Member].self, from: encoded) == members)
        #expect(try jsonObject(encoded) == ["ann": ["id": 1, "name": "Ann"], "bo": ["id": 2, "name": "Bo"]] as NSDictionary)
    }
}
