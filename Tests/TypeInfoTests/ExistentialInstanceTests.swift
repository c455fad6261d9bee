import Testing
@testable import TypeInfo

/// Values held in `Any` and `any P` (issue 8, section 5): reads open the existential, writes
/// put a modified copy back and leave earlier copies of the existential alone.
struct NumberHolder { var label = "n"; var number = 7 }

@Suite struct ExistentialInstanceTests {
    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return String(describing: error) }
    }

    @Test func readsAStructHeldInAnyAndAnyP() throws {
        let side = try #require(ClassInfo.of(Square.self).propertyInfo(named: "side"))
        let square = Square(side: 3.5)
        let asAny: Any = square
        let asShape: any Shape = square
        let asComposition: any Shape & Named = square
        let oracle = try #require(Mirror(reflecting: square).children.first { $0.label == "side" }?.value as? Double)
        #expect(try side.get(from: asAny) as? Double == oracle)
        #expect(try side.get(from: asShape) as? Double == oracle)
        #expect(try side.get(Double.self, from: asComposition) == oracle)
        #expect(try side.get(Double.self, from: asAny) == oracle)
    }

    @Test func writesIntoAnyKeepValueSemantics() throws {
        let side = try #require(ClassInfo.of(Square.self).propertyInfo(named: "side"))
        var boxed: Any = Square(side: 1)
        let copyBefore = boxed
        try side.set(4.0, on: &boxed)
        #expect((boxed as? Square)?.side == 4)
        #expect((copyBefore as? Square)?.side == 1, "a copy made before the write keeps the old value")

        var shape: any Shape = Square(side: 2)
        let shapeBefore = shape
        try side.set(5.0, on: &shape)
        #expect(shape.area == 25)
        #expect(shapeBefore.area == 4)
        #expect(shape is Square)
    }

    @Test func classInstancesHeldInAnyAreWrittenInPlace() throws {
        let breed = try #require(ClassInfo.of(Dog.self).propertyInfo(named: "breed"))
        let dog = Dog()
        var boxed: Any = dog
        try breed.set("collie", on: &boxed)
        #expect(dog.breed == "collie", "a class instance is shared, so the write is seen through every reference")
        #expect(try breed.get(from: boxed) as? String == "collie")
    }

    @Test func errorsSayWhatThePropertyHoldsAndWhatWasFound() throws {
        let number = try #require(ClassInfo.of(NumberHolder.self).propertyInfo(named: "number"))
        var holder = NumberHolder()
        let expected = "property 'number' holds Swift.Int, not Swift.String"
        #expect(message { _ = try number.get(String.self, from: holder) } == expected)
        #expect(message { try number.set("seven", on: &holder) } == expected)
        var boxed: Any = holder
        #expect(message { _ = try number.get(String.self, from: boxed) } == expected)
        #expect(message { try number.set("seven", on: &boxed) } == expected)
        #expect((boxed as? NumberHolder)?.number == 7, "nothing written")

        let side = try #require(ClassInfo.of(Square.self).propertyInfo(named: "side"))
        var other: Any = MixedScalars()
        #expect(
            message { try side.set(1.0, on: &other) }
                == "property 'side' belongs to \(String(reflecting: Square.self)), not to \(String(reflecting: MixedScalars.self))")
        #expect(
            message { _ = try side.get(from: other) }
                == "property 'side' belongs to \(String(reflecting: Square.self)), not to \(String(reflecting: MixedScalars.self))")
    }
}
