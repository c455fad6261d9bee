import BinaryFixtures
import Testing
import TypeLayout
@testable import BinaryInfo

/// Every type the fixture program describes about itself must come out of the dump of the
/// same program (or library, or object file) with the same facts.
@Suite("Dump of compiled fixtures agrees with the fixture's own runtime")
struct FixtureDumpTests {
    @Test("every oracle type is found with the same layout", arguments: FixtureBuild.allCases)
    func dumpMatchesOracle(build: FixtureBuild) throws {
        let oracle = try FixtureToolchain.oracle(build)
        let document = try BinaryImage.layouts(atPath: FixtureToolchain.product(build), runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(oracle.count >= 30)
        // Extra inhabitants come from the static value witness table: stated for most types.
        let stated = oracle.filter { expected in expected.find(in: document.types)?.extraInhabitants != nil }
        #expect(stated.count >= 20, "extra inhabitants stated for \(stated.count) types")
        for expected in oracle {
            guard let actual = expected.find(in: document.types) else {
                Issue.record("\(build): \(expected.name) (\(expected.mangledName)) not in the dump")
                continue
            }
            Self.compare(expected, actual, build: build)
        }
    }

    @Test("the dump names protocols and the image", arguments: [FixtureBuild.plain, .sharedLibrary, .object])
    func protocolsAndSummary(build: FixtureBuild) throws {
        let document = try BinaryImage.layouts(atPath: FixtureToolchain.product(build), runtimeLibrary: ToolchainRuntime.libswiftCore)
        let protocols = Set(document.types.filter { $0.kind == .protocol }.map(\.name))
        #expect(protocols.isSuperset(of: ["Fixture.Shape", "Fixture.Named", "Fixture.Tagged"]))
        let expectedType: ImageFileType = build == .object ? .relocatable : build == .sharedLibrary ? .sharedLibrary : .executable
        #expect(document.image.fileType == expectedType)
        #expect(document.image.hasSymbols == true)
        #expect(document.types.allSatisfy { ["Fixture", "Swift", "__C"].contains($0.module ?? "") })
    }

    static func compare(_ expected: OracleType, _ actual: TypeLayout, build: FixtureBuild) {
        let context = "\(build): \(expected.name)"
        #expect(actual.kind.rawValue == expected.kind, "\(context): kind")
        if !expected.isPrivate && !expected.generic {
            #expect(actual.name == expected.name, "\(context): name")
        }
        #expect(actual.superclass == expected.superclass, "\(context): superclass")
        #expect(actual.cases.map(\.name) == expected.cases, "\(context): cases")
        #expect(actual.fields.map(\.name) == expected.fields.map(\.name), "\(context): field names")
        for protocolName in [
            "Fixture.Shape", "Fixture.Tagged", "Swift.Equatable", "Swift.Hashable", "Swift.RawRepresentable",
            "Swift.CustomStringConvertible",
        ] {
            #expect(
                actual.conformances.contains(protocolName) == expected.conformances.contains(protocolName),
                "\(context): conformance to \(protocolName)")
        }
        if expected.generic {
            // A generic type's layout depends on its arguments: the file cannot know it.
            #expect(actual.size == nil && actual.stride == nil, "\(context): generic size must be unknown")
            #expect(actual.fields.allSatisfy { $0.offset == nil }, "\(context): generic offsets must be unknown")
            #expect(actual.name.contains("<"), "\(context): generic parameters in the name")
            // Every level that has arguments at run time has parameters in the declaration's name.
            #expect(actual.name.filter { $0 == "<" }.count == expected.name.filter { $0 == "<" }.count, "\(context): \(actual.name)")
            return
        }
        #expect(actual.size == expected.size, "\(context): size")
        #expect(actual.alignment == expected.alignment, "\(context): alignment")
        #expect(actual.stride == expected.stride, "\(context): stride")
        if let extraInhabitants = actual.extraInhabitants {
            #expect(extraInhabitants == expected.extraInhabitants, "\(context): extra inhabitants")
        }
        #expect(actual.fields.map(\.offset) == expected.fields.map { Optional($0.offset) }, "\(context): field offsets")
        #expect(actual.fields.map(\.type) == expected.fields.map { TypeNameSugar.apply($0.type) }, "\(context): field types")
        // Field sizes and alignments are optional facts, but where given they must be right.
        for (field, oracle) in zip(actual.fields, expected.fields) {
            if let size = field.size { #expect(size == oracle.size, "\(context): size of \(field.name)") }
            if let alignment = field.alignment { #expect(alignment == oracle.alignment, "\(context): alignment of \(field.name)") }
        }
        if actual.kind == .class, let last = expected.fields.last, let instanceSize = actual.instanceSize {
            #expect(instanceSize > last.offset, "\(context): instance size covers the last field")
        }
    }
}
