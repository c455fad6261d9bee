import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import LayoutReading

/// A bound generic single-case enum with a payload: the reflection library lowers it as the
/// payload itself (`One<Int>` as Int's `struct { _value }`), so laying it out by name must say it
/// cannot, never print the payload's layout as the enum's. An Optional of it is laid out.
@Suite("Instantiations of single-case enums")
struct SingleCaseEnumInstantiationTests {
    static let source = """
        public enum One<T> { case only(T) }
        public struct Holder { public var a: One<Int>; public var b: One<Bool>? }
        func extraInhabitants(_ type: Any.Type) -> UInt32 {
            let witnesses = unsafeBitCast(type, to: UnsafeRawPointer.self).load(fromByteOffset: -8, as: UnsafeRawPointer.self)
            return witnesses.load(fromByteOffset: 84, as: UInt32.self)
        }
        print(MemoryLayout<One<Bool>?>.size, MemoryLayout<One<Bool>?>.stride, extraInhabitants(One<Bool>?.self))
        """

    /// The fixture executable (built in `build`), with its own printout of `One<Bool>?`.
    static func fixture(_ build: String) throws -> (path: String, printed: [Int]) {
        let directory = FixtureToolchain.buildDirectory + "/single-case-\(build)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try source.write(toFile: directory + "/main.swift", atomically: true, encoding: .utf8)
        let output = directory + "/GenFix"
        let flags = build == "optimized" ? ["-O"] : []
        try FixtureToolchain.run(
            FixtureToolchain.swiftc, ["-module-name", "GenFix"] + flags + [directory + "/main.swift", "-o", output], in: directory)
        let printed = try FixtureToolchain.run(output, [], in: directory).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return (output, printed)
    }

    @Test("One<Int> is refused with the reason; One<Bool>? agrees with the runtime", arguments: ["plain", "optimized"])
    func singleCaseEnum(build: String) throws {
        let (path, printed) = try Self.fixture(build)
        #expect(printed.count == 3)
        do {
            let result = try BinaryLayoutReader.read(path: path, typeNames: ["GenFix.One<Swift.Int>"])
            let laidOut = result.document.types.map { (type: TypeLayout) in "\(type.kind) \(type.name)" }
            Issue.record("laid out as \(laidOut)")
        } catch {
            #expect(
                "\(error)"
                    == "\(path): cannot lay out 'GenFix.One<Swift.Int>': GenFix.One<A> is a single-case enum with a payload, which the reflection library lowers as the payload itself: its layout as an enum is not known"
            )
        }
        let read = try BinaryLayoutReader.read(path: path, typeNames: ["GenFix.One<Swift.Bool>?"])
        let optional: TypeLayout = try #require(read.document.types.first)
        #expect(optional.kind == .enum)
        #expect([optional.size, optional.stride, optional.extraInhabitants] == printed.map { Optional($0) }, "\(optional)")
        #expect(optional.cases.map { (enumCase: EnumCaseLayout) in enumCase.name } == ["some", "none"])
    }
}
