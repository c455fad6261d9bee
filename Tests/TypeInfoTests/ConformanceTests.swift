import Testing
@testable import TypeInfo

protocol ConformanceMarker {}
protocol ClassOnlyMarker: AnyObject {}
struct Conforming: Equatable, CustomStringConvertible, ConformanceMarker { var description: String { "c" } }
struct NotEquatable {}
class ConformingBase: ClassOnlyMarker {}
final class ConformingSub: ConformingBase, ConformanceMarker {}

@Suite struct ConformanceTests {
    /// The oracle: Swift's own dynamic cast of the metatype to the existential metatype.
    private func swiftSays<T>(_ type: T.Type, conformsTo check: (Any.Type) -> Bool) -> Bool { check(type) }

    @Test func structConformancesMatchSwiftsCasts() throws {
        let conformances = try #require(ClassInfo.of(Conforming.self).conformances(), "the runtime exports the records")
        let names = Set(conformances.map(\.protocolName))
        #expect(names.contains("Swift.Equatable") == ((Conforming.self as Any.Type) is any Equatable.Type))
        #expect(names.contains("Swift.CustomStringConvertible") == ((Conforming.self as Any.Type) is any CustomStringConvertible.Type))
        #expect(names.contains(String(reflecting: (any ConformanceMarker).self)))
        #expect(!names.contains("Swift.Hashable") && !((Conforming.self as Any.Type) is any Hashable.Type))
        #expect(conformances.allSatisfy { isSame($0.declaringType, Conforming.self) })
        let equatable = try #require(conformances.first { $0.protocolName == "Swift.Equatable" })
        #expect(isSame(equatable.protocolType, (any Equatable).self))
    }

    @Test func conditionalConformancesFollowTheArguments() throws {
        let ints = try #require(ClassInfo.of([Int].self).conformances())
        let opaque = try #require(ClassInfo.of([NotEquatable].self).conformances())
        #expect(
            ints.contains { $0.protocolName == "Swift.Equatable" && $0.isConditional } == (([Int].self as Any.Type) is any Equatable.Type))
        #expect(opaque.contains { $0.protocolName == "Swift.Equatable" } == (([NotEquatable].self as Any.Type) is any Equatable.Type))
        #expect(opaque.contains { $0.protocolName == "Swift.Collection" })
    }

    @Test func classesInheritTheirSuperclassConformances() throws {
        let conformances = try #require(ClassInfo.of(ConformingSub.self).conformances())
        let inherited = try #require(conformances.first { $0.protocolName == String(reflecting: (any ClassOnlyMarker).self) })
        #expect(isSame(inherited.declaringType, ConformingBase.self))
        #expect((ConformingSub.self as Any.Type) is any ClassOnlyMarker.Type)
        #expect(
            conformances.contains {
                $0.protocolName == String(reflecting: (any ConformanceMarker).self) && isSame($0.declaringType, ConformingSub.self)
            })
        #expect(ClassInfo.of(Int.self).conformances()?.contains { $0.protocolName == "Swift.BinaryInteger" } == true)
        #expect(ClassInfo.of((Int, Int).self).conformances()?.isEmpty == true, "a tuple has no records of its own")
    }
}
