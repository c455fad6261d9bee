import Foundation
import Testing

@testable import ModelMapper

/// docs/modelmapper.md's property-observer example.
struct Thermometer: Mappable, MappingDidDecode {
    var celsius = 0.0 { didSet { fahrenheit = celsius * 9 / 5 + 32 } }  // not run by the mapper
    var fahrenheit = 32.0

    mutating func didDecode() throws {
        fahrenheit = celsius * 9 / 5 + 32  // run after decoding
    }
}

struct ObservedOnly: Mappable {
    var celsius = 0.0 { didSet { fahrenheit = celsius * 9 / 5 + 32 } }
    var fahrenheit = 32.0
}

@Suite("issue 11: property observers do not run; the after-decode hook is the alternative")
struct ObserverTests {
    @Test func observersDoNotRunButTheHookDoes() throws {
        // The oracle: what the observer computes when Swift code assigns the value.
        var assigned = ObservedOnly()
        assigned.celsius = 100
        #expect(assigned.fahrenheit == 212)
        let observed = try ModelMapper().decode(ObservedOnly.self, from: #"{"celsius": 100}"#)
        #expect(observed.celsius == 100 && observed.fahrenheit == 32, "storage is written; didSet does not run")
        let hooked = try ModelMapper().decode(Thermometer.self, from: #"{"celsius": 100}"#)
        #expect(hooked.fahrenheit == assigned.fahrenheit)
    }
}
