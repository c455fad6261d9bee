#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Types compiled into the typeinfo executable so that `typeinfo inspect` has something real
// to read in-process. They cover the shapes people ask about: padding between fields,
// optionals, collections, reference ownership, inheritance, enums with payloads.

/// A struct with mixed alignments: the layout shows where padding goes.
struct DemoSensorReading {
    var isValid: Bool
    var timestamp: Date
    var channel: UInt8
    var value: Double
    var label: String?
    var flags: UInt16
}

/// A model a JSON mapper would fill: optionals, arrays, dictionaries, a nested struct.
struct DemoUser {
    let id: Int
    var login: String
    var email: String?
    var followers: [Int]
    var settings: [String: Bool]
    var location: DemoSensorReading?
}

/// A class hierarchy: superclass fields come first, after the object header.
class DemoShape {
    final var name: String = "shape"
    final var origin: (x: Double, y: Double) = (0, 0)
}

/// A subclass with weak and unowned references.
final class DemoCircle: DemoShape {
    var radius: Float = 1
    weak var parent: DemoShape?
    unowned(unsafe) var canvas: DemoShape

    init(canvas: DemoShape) {
        self.canvas = canvas
    }
}

/// An enum with payload and payload-free cases.
enum DemoEvent {
    case tap(x: Int, y: Int)
    case key(Character)
    case idle
}

/// The demo types, in the order `typeinfo inspect` prints them.
let inspectDemoTypes: [Any.Type] = [
    DemoSensorReading.self, DemoUser.self, DemoShape.self, DemoCircle.self, DemoEvent.self,
]
