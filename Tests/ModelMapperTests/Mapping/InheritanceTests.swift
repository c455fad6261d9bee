import Foundation
import Testing

@testable import ModelMapper

class Animal: Mappable {
    var name = ""
    var legs = 0
    let kind: String = "animal"
    required init() {}

    class func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.map("legs", to: "leg_count")
        mapping.subclassSelector = { json in
            switch json.string("type") {
            case "dog": return Dog.self
            case "bird": return Bird.self
            case "puppy": return Puppy.self
            default: return nil
            }
        }
    }
}

class Dog: Animal {
    var breed = ""
    var goodBoy = true

    override class func configureMapping(_ mapping: inout MappingConfiguration) {
        super.configureMapping(&mapping)
        mapping.map("breed", to: "dog_breed")
        mapping.map("legs", to: "paws")  // overrides the superclass's key
    }
}

final class Puppy: Dog {
    var ageInWeeks = 0
}

final class Bird: Animal {
    var canFly = true
}

struct Zoo: Mappable {
    var animals: [Animal] = []
    var star: Animal?
}

@Suite struct InheritanceTests {
    @Test(arguments: fieldAccessStrategies)
    func superclassPropertiesAreMappedAndSubclassesOverrideKeys(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let dog = try mapper.decode(Dog.self, from: #"{"name": "Rex", "paws": 4, "leg_count": 9, "dog_breed": "lab", "kind": "x"}"#)
        #expect(dog.name == "Rex")
        #expect(dog.legs == 4)
        #expect(dog.breed == "lab")
        #expect(dog.kind == "x")  // a let in the superclass, written all the same
        let animal = try mapper.decode(Animal.self, from: #"{"name": "Generic", "leg_count": 6}"#)
        #expect(type(of: animal) == Animal.self)
        #expect(animal.legs == 6)
        let encoded = try mapper.encodeToJSONValue(dog)
        #expect(encoded["paws"] == 4 && encoded["dog_breed"] == "lab" && encoded["name"] == "Rex")
        #expect(encoded["leg_count"] == nil)
    }

    @Test(arguments: fieldAccessStrategies)
    func subclassChosenFromTheJSON(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let json = """
            {"animals": [{"type": "dog", "name": "Rex", "paws": 4, "dog_breed": "lab"},
                         {"type": "bird", "name": "Tweety", "leg_count": 2, "canFly": false},
                         {"type": "puppy", "name": "Bit", "ageInWeeks": 8},
                         {"type": "fish", "name": "Nemo"}],
             "star": {"type": "bird", "name": "Zazu"}}
            """
        let zoo = try mapper.decode(Zoo.self, from: json)
        #expect(zoo.animals.count == 4)
        let dog = try #require(zoo.animals[0] as? Dog)
        #expect(dog.breed == "lab" && dog.legs == 4)
        let bird = try #require(zoo.animals[1] as? Bird)
        #expect(bird.canFly == false && bird.legs == 2)
        let puppy = try #require(zoo.animals[2] as? Puppy)
        #expect(puppy.ageInWeeks == 8 && puppy.name == "Bit")
        #expect(type(of: zoo.animals[3]) == Animal.self)
        #expect(zoo.star is Bird)
        // Encoding writes each instance with its dynamic type's plan.
        let encoded = try mapper.encodeToJSONValue(zoo)
        #expect(encoded["animals"]?[0]?["dog_breed"] == "lab")
        #expect(encoded["animals"]?[1]?["canFly"] == false)
        #expect(encoded["animals"]?[2]?["ageInWeeks"] == 8)
        #expect(encoded["star"]?["canFly"] == true)
    }

    @Test func aSelectorCannotChooseANonSubclass() throws {
        // Dog's selector (inherited) would pick Bird for "bird": not a Dog, so ignored.
        let dog = try ModelMapper.shared.decode(Dog.self, from: #"{"type": "bird", "name": "Odd"}"#)
        #expect(type(of: dog) == Dog.self)
        #expect(dog.name == "Odd")
    }
}
