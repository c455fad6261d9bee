import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import TypeLowering

/// Fields whose type is a builtin (`Builtin.Executor`, `Builtin.Vec2xInt8`), read from the
/// toolchain's libraries and from a `-parse-stdlib` fixture, against the runtime's own metadata
/// for each builtin in this test process (`_typeByName` of the field's mangled type).
@Suite("Fields of builtin types agree with the running runtime")
struct BuiltinFieldTypeTests {
    /// The runtime's size and alignment of the type `mangling` names, from its metadata.
    static func runtimeLayout(of mangling: String) -> (size: Int, alignment: Int)? {
        guard let type = _typeByName(mangling) else { return nil }
        func measure<T>(_: T.Type) -> (size: Int, alignment: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
        return _openExistential(type, do: measure)
    }

    /// Whether `mangling` is one whole non-vector builtin (`Be`, `Bi64_`): what the runtime can
    /// be asked about without generic arguments (`Builtin.FixedArray<A, B>` is `xq_BV`).
    static func isScalarBuiltin(_ mangling: String) -> Bool {
        mangling.wholeMatch(of: /B[A-Za-z]|B[if][0-9]+_/) != nil
    }

    static func libraryPath(_ name: String) throws -> String {
        let directory = try #require(
            LoweringConfiguration.toolchainLibraryDirectory, "libswiftCore.so is not loaded from a toolchain directory")
        return directory + "/" + name
    }

    /// The library read from static metadata alone, and merged with computed layouts when this
    /// machine can lower types: both readings must hold.
    static func readings(of path: String) throws -> [(String, LayoutDocument)] {
        var result = [("static metadata", try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore))]
        if canLower { result.append(("merged", try mergedLayouts(of: path))) }
        return result
    }

    @Test(
        "a field of a non-vector builtin type has the runtime's size and alignment for it",
        arguments: ["libswift_Concurrency.so", "libswiftCore.so", "libTesting.so"])
    func scalarBuiltinFields(library: String) throws {
        for (reading, document) in try Self.readings(of: try Self.libraryPath(library)) {
            var compared: [String: Int] = [:]
            for type in document.types {
                for field in type.fields where field.ownership == .strong && field.type.hasPrefix("Builtin.") && !field.hasBuiltinVectorType
                {
                    guard let mangled = field.mangledType, Self.isScalarBuiltin(mangled), let truth = Self.runtimeLayout(of: mangled) else {
                        continue
                    }
                    #expect(field.size == truth.size, "\(library) (\(reading)): \(type.name).\(field.name): \(field.type) size")
                    #expect(
                        field.alignment == truth.alignment, "\(library) (\(reading)): \(type.name).\(field.name): \(field.type) alignment")
                    compared[field.type, default: 0] += 1
                }
            }
            #expect(!compared.isEmpty, "\(library) (\(reading)): no builtin fields compared")
            if library == "libswift_Concurrency.so" {
                // The builtins no swift5_builtin section describes: the runtime library's exported
                // value witness tables are their only source.
                for name in ["Builtin.Executor", "Builtin.Job", "Builtin.RawUnsafeContinuation"] {
                    #expect(compared[name] != nil, "\(library) (\(reading)): no \(name) field compared")
                }
            }
            if library == "libTesting.so" {
                #expect(compared["Builtin.DefaultActorStorage"] != nil, "\(library) (\(reading)): no default actor storage compared")
            }
            print("\(library) (\(reading)): builtin fields compared with the runtime: \(compared.sorted { $0.key < $1.key })")
        }
    }

    @Test("the standard library's SIMD storage: sizes and offsets are the runtime's; the vector field's alignment is unknown")
    func simdStorageFields() throws {
        for (reading, document) in try Self.readings(of: try Self.libraryPath("libswiftCore.so")) {
            var checked = 0
            for type in document.types where type.genericParameters.isEmpty && !type.name.contains("<") {
                guard type.fields.contains(where: \.hasBuiltinVectorType), let mangling = type.mangledName,
                    let container = Self.runtimeLayout(of: mangling)
                else { continue }
                #expect(type.size == container.size, "\(type.name) (\(reading)) size")
                #expect(type.alignment == container.alignment, "\(type.name) (\(reading)) alignment")
                for field in type.fields where field.hasBuiltinVectorType {
                    #expect(field.offset == 0, "\(type.name).\(field.name) (\(reading)) offset")
                    #expect(field.size == container.size, "\(type.name).\(field.name) (\(reading)) size")
                    // The runtime has no metadata for vectors of Float16 (`Bf16_Bv2_`).
                    guard let vector = field.mangledType.flatMap(Self.runtimeLayout(of:)) else { continue }
                    #expect(field.size == vector.size, "\(type.name).\(field.name) (\(reading)) size")
                    // The runtime's metadata states the vector's alignment, the compiler lays it out
                    // at the element's (vectorAlignmentsDisagree): a stated value would be one of two.
                    #expect(
                        field.alignment == nil,
                        "\(type.name).\(field.name) (\(reading)): alignment \(field.alignment ?? -1), runtime metadata \(vector.alignment)")
                    checked += 1
                }
            }
            // Every scalar type's SIMD2...SIMD64 storage (SIMD3 uses SIMD4's) but Float16's.
            #expect(checked >= 72, "libswiftCore (\(reading)): \(checked) SIMD storage fields")
        }
    }

    @Test(
        "a Builtin.Vec field's two alignments: the compiler places it at the element's, the runtime's metadata states the vector's",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func vectorAlignmentsDisagree() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/BuiltinVector/main.swift").path
        let product = LoweringFixture.directory + "/builtin-vector"
        _ = try LoweringFixture.run(
            LoweringFixture.swiftc, ["-parse-stdlib", "-module-name", "BuiltinVectorFixture", source, "-o", product])
        let lines = try LoweringFixture.run(product, []).split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        try #require(lines.count == 2 && lines[0].count == 1 && lines[1].count == 2, "fixture printed \(lines)")
        let (compilerSize, runtimeAlignment, runtimeSize) = (lines[0][0], lines[1][0], lines[1][1])
        // One byte, then the vector: packed by the compiler, aligned by the runtime.
        #expect(
            compilerSize == 3 && runtimeAlignment == 2 && runtimeSize == 4,
            "compiler \(compilerSize), runtime \(runtimeAlignment)/\(runtimeSize)")

        for (reading, document) in try Self.readings(of: product) {
            let packed = try #require(document.types.first { $0.name == "BuiltinVectorFixture.Packed" }, "Packed not read (\(reading))")
            #expect(packed.size == compilerSize, "Packed (\(reading)) size")
            let vector = try #require(packed.fields.first { $0.name == "vector" })
            #expect(vector.hasBuiltinVectorType)
            #expect(vector.offset == 1, "Packed.vector (\(reading)) offset")
            #expect(vector.alignment == nil, "Packed.vector (\(reading)): alignment \(vector.alignment ?? -1)")
        }
    }
}
