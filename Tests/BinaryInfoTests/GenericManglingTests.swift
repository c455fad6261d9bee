import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// A generic type's printed mangling is its declaration bound to its own generic parameters
/// (`SayxG` beside `Swift.Array<A>`), never the unbound nominal (`Sa`, which names `Swift.Array`):
/// issue 8, the pair (name, mangledName) holds for generic types too.
///
/// The oracle is the fixture program itself: Fixtures/GenericNesting prints `_mangledTypeName` of
/// one instantiation of each of its generic types. The dump's mangling, with each parameter
/// replaced by the argument that instantiation gives it, must name the same type.
@Suite("Generic types print manglings bound to their own parameters")
struct GenericManglingTests {
    /// The argument Fixtures/GenericNesting instantiates each parameter position with, by the
    /// parameter's mangling (docs/ABI/Mangling.rst: `x` depth 0 index 0, `q_` index 1, `qd__`
    /// depth 1 index 0, `qd_0_` depth 1 index 1, `qd0__` depth 2 index 0). Longest first, so no
    /// replacement cuts another parameter.
    static let arguments: [(parameter: String, argument: String)] = [
        ("qd_0_", "Sb"), ("qd0__", "Sf"), ("qd__", "Sd"), ("q_", "SS"), ("x", "Si"),
    ]

    /// The fixture built with `optimization`, and what it prints: (in-process mangling, name) per type.
    static func fixture(_ optimization: String) throws -> (path: String, printed: [(mangling: String, name: String)]) {
        let path = FixtureToolchain.buildDirectory + "/generic-nesting\(optimization)"
        try FixtureToolchain.run(
            FixtureToolchain.swiftc,
            [optimization, "-module-name", "Nesting", FixtureToolchain.fixturesDirectory + "/GenericNesting/main.swift", "-o", path],
            in: FixtureToolchain.buildDirectory
        )
        let lines = try FixtureToolchain.run(path, [], in: FixtureToolchain.buildDirectory).split(separator: "\n")
        let printed = lines.compactMap { line -> (String, String)? in
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }
        return (path, printed)
    }

    @Test(
        "nested generic types, types in generic extensions and depth-1-only parameters",
        arguments: ["-Onone", "-O"])
    func nestedGenericTypes(optimization: String) throws {
        let (path, printed) = try Self.fixture(optimization)
        try #require(printed.count == 10, "the fixture printed \(printed.count) types, expected 10")
        let types = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore).types
        var boundManglings: [(bound: String, inProcess: String)] = []
        for (inProcess, runtimeName) in printed {
            let shape = OracleType.withoutGenericArguments(runtimeName)
            let found = types.first { OracleType.withoutGenericArguments($0.name) == shape }
            let type = try #require(found, "\(optimization): \(runtimeName) is not in the dump")
            let mangling = try #require(type.mangledName, "\(optimization): \(type.name) has no mangling")
            #expect(SwiftDemangler.demangle(symbol: "$s" + mangling + "D") == type.name, "\(type.name): \(mangling)")
            #expect(mangling != type.nominalMangledName, "\(type.name): the unbound nominal is printed")
            var bound = mangling
            for (parameter, argument) in Self.arguments { bound = bound.replacingOccurrences(of: parameter, with: argument) }
            boundManglings.append((bound, inProcess))
            // A type in a constrained extension is named with the extension's requirements (the
            // descriptor symbol's generic signature), which the runtime's own spelling leaves out.
            if !type.name.contains(" where ") {
                #expect(
                    bound == inProcess
                        || SwiftDemangler.demangle(symbol: "$s" + bound + "D") == SwiftDemangler.demangle(symbol: "$s" + inProcess + "D"),
                    "\(type.name): \(mangling) bound is \(bound), in-process \(runtimeName) is \(inProcess)")
            }
        }
        #expect(types.contains { $0.name == "(extension in Nesting):Nesting.Outer<A><A where A: Swift.Equatable>.Constrained<A1>" })
        // The runtime, in the fixture's own process, resolves every bound mangling to the very
        // type the fixture instantiated (`_typeByName`, then its `_mangledTypeName`).
        let resolved = try FixtureToolchain.run(path, boundManglings.map(\.bound), in: FixtureToolchain.buildDirectory)
            .split(separator: "\n").map(String.init)
        #expect(resolved == boundManglings.map(\.inProcess), "\(boundManglings.map(\.bound))")
    }

    /// Snapshots and diffs match types by name and keep no mangling, so a layout document the
    /// previous version wrote (a generic type's `mangledName` the unbound `7Fixture3BoxV`) still
    /// compares with a new reading without a change (the JSON schema stays version 1).
    @Test("a document recorded with unbound manglings compares without a change")
    func oldDocumentsCompare() throws {
        let document = try BinaryImage.layouts(atPath: try FixtureToolchain.product(.plain), runtimeLibrary: ToolchainRuntime.libswiftCore)
        var old = document
        var rewritten = 0
        for index in old.types.indices where old.types[index].mangledName != old.types[index].nominalMangledName {
            old.types[index].mangledName = old.types[index].nominalMangledName
            rewritten += 1
        }
        #expect(rewritten >= 5, "only \(rewritten) generic types in the layout fixture")
        let json = String(decoding: try old.jsonData(), as: UTF8.self)
        #expect(json.contains("\"mangledName\" : \"7Fixture3BoxV\""), "the old form is not in the recorded document")
        let recorded = try LayoutSnapshot(jsonData: Data(json.utf8))
        let diff = LayoutDiff(old: recorded, new: LayoutSnapshot(document: document))
        #expect(diff.changes.isEmpty, "\(diff.changes)")
        #expect(diff.typesCompared == document.types.count)
    }
}
