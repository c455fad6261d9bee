import Testing
@testable import TypeLayout

/// ``TypeNameSugar/apply(_:)`` rewrites ASCII names as bytes; the rewriting on Characters (the
/// original) is the oracle it must agree with, on real names and on random jumbles of the
/// pieces the rewriting looks at.
@Suite struct TypeNameSugarASCIITests {
    static let pieces = [
        "Swift.Optional<", "Swift.Array<", "Swift.Dictionary<", "<", ">", "->", ", ", ",", "any ", " & ", "(", ")", "[", "]",
        "Swift.Int", "My", "_", ".", "x", " ", "-", "?", "\n", "é", "\r\n",
    ]

    @Test func bytesAndCharactersAgreeOnRandomNames() {
        var state: UInt64 = 0x5EED
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<5_000 {
            let name = (0..<(next() % 24)).map { _ in Self.pieces[next() % Self.pieces.count] }.joined()
            #expect(TypeNameSugar.apply(name) == TypeNameSugar.applyByCharacters(name), "\(name)")
        }
    }

    @Test func bytesAndCharactersAgreeOnRealNames() {
        let names = [
            String(reflecting: [Int?].self), String(reflecting: [String: [Double]].self), String(reflecting: Optional<(Int) -> Int>.self),
            String(reflecting: [[Int: String?]: (any Sendable & Hashable)?].self), String(reflecting: Optional<any Error>.self),
            "MySwift.Optional<Swift.Int>", String(repeating: "Swift.Array<", count: 100) + "Swift.Int" + String(repeating: ">", count: 100),
        ]
        for name in names { #expect(TypeNameSugar.apply(name) == TypeNameSugar.applyByCharacters(name), "\(name)") }
    }
}
