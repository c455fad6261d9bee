import BinaryFixtures
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// A field's printed type is the runtime demangler's reading of its printed mangling, and that
/// mangling resolves, in the fixture's own process, to the metadata of that very field
/// (`swift_getTypeByMangledNameInContext` against `_forEachField`), or is null (issue 23).
@Suite("Field manglings resolve in the runtime to the field's own type")
struct FieldManglingRuntimeTests {
    static func fixture(_ optimization: String) throws -> String {
        let path = FixtureToolchain.buildDirectory + "/field-manglings\(optimization)"
        try FixtureToolchain.run(
            FixtureToolchain.swiftc,
            [optimization, "-module-name", "Manglings", FixtureToolchain.fixturesDirectory + "/FieldManglings/main.swift", "-o", path],
            in: FixtureToolchain.buildDirectory
        )
        return path
    }

    @Test(
        "types of constrained extensions bound to arguments, functions over a ~Copyable type, a conditionally copyable type",
        arguments: ["-Onone", "-O"])
    func fieldManglings(optimization: String) throws {
        let path = try Self.fixture(optimization)
        let types = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore).types
        let holder = try #require(types.first { $0.name == "Manglings.Holder" }, "\(optimization): Holder is not in the dump")
        try #require(holder.fields.map(\.name) == ["inner", "package", "packages", "consume", "copied"], "\(holder.fields.map(\.name))")
        // The demangler prints a constrained extension's type with its arguments before the
        // extension's signature; `<A where …><Manglings.Marker>` is no demangler's text.
        #expect(holder.fields[0].type == "(extension in Manglings):Manglings.Box<Manglings.Marker><A where A: Manglings.Marked>.Inner")
        #expect(holder.fields[2].type == "[(extension in Manglings):[Manglings.Marker]<A where A == Manglings.Marker>.Package]")
        var asked: [String] = []
        for (index, field) in holder.fields.enumerated() {
            guard let mangling = field.mangledType else { continue }
            #expect(
                SwiftDemangler.typeName(mangling: mangling) == field.type,
                "\(field.name): \(mangling) is not the demangler's \(field.type)")
            asked += [String(index), mangling]
        }
        let shown = [0, 1, 2, 4].map { holder.fields[$0].mangledType != nil }
        #expect(shown == [true, true, true, true], "\(holder.fields.map(\.mangledType))")
        // The runtime looks a noncopyable type up by symbolic reference only: its textual
        // mangling does not resolve, so the field states none. A conditionally copyable type
        // bound to a copyable argument resolves (`copied`, above).
        #expect(holder.fields[3].type == "(inout Manglings.NoCopy) -> ()")
        #expect(holder.fields[3].mangledType == nil)
        asked += ["3", "y9Manglings6NoCopyVzc"]
        let answers = try FixtureToolchain.run(path, asked, in: FixtureToolchain.buildDirectory).split(separator: "\n").map(String.init)
        #expect(answers == ["same", "same", "same", "same", "unresolved"], "\(optimization): \(asked)")
    }
}
