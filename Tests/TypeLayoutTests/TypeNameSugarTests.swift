import Testing
import TypeLayout

@Suite struct TypeNameSugarTests {
    // The inputs are what the runtime prints for these types (String(reflecting:) spells
    // generics out, as swift_demangle does), so the test follows the runtime if it changes.
    @Test func sugarForOptionalArrayDictionary() {
        #expect(TypeNameSugar.apply(String(reflecting: [Int?].self)) == "[Swift.Int?]")
        #expect(TypeNameSugar.apply(String(reflecting: [String: [Double]].self)) == "[Swift.String: [Swift.Double]]")
        #expect(TypeNameSugar.apply(String(reflecting: Optional<(Int) -> Int>.self)) == "((Swift.Int) -> Swift.Int)?")
        #expect(TypeNameSugar.apply(String(reflecting: Set<Int>.self)) == String(reflecting: Set<Int>.self))
    }

    @Test func namesThatOnlyLookAlikeAreLeftAlone() {
        #expect(TypeNameSugar.apply("MySwift.Optional<Swift.Int>") == "MySwift.Optional<Swift.Int>")
    }

    @Test func deepNestingNeitherOverflowsNorLosesText() {
        let depth = 10_000
        let name = String(repeating: "Swift.Optional<", count: depth) + "Swift.Int" + String(repeating: ">", count: depth)
        let sugared = TypeNameSugar.apply(name)
        #expect(sugared.contains("Swift.Int"))
        #expect(sugared.hasSuffix(String(repeating: "?", count: TypeNameSugar.maximumDepth)))
        #expect(sugared.count > TypeNameSugar.maximumDepth)
    }

    @Test func unbalancedBracketsDoNotTrap() {
        for name in ["Swift.Optional<", "Swift.Array<Swift.Int", ">>>", "Swift.Dictionary<,>", "A<B<C"] {
            _ = TypeNameSugar.apply(name)
        }
    }
}
