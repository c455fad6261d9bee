import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import TypeLowering

/// Whether this machine can lower types at all: the toolchain's reflection library and the worker
/// built beside the test bundle. Tests that need them say so when they cannot run.
let lowering = LoweringConfiguration.resolved()
let canLower: Bool = {
    guard let library = lowering.remoteMirrorPath, let worker = lowering.workerPath else { return false }
    return FileManager.default.fileExists(atPath: library) && FileManager.default.isExecutableFile(atPath: worker)
}()

/// Reads `path` the way a reading does: static metadata, dependencies, computed layouts, merge.
func mergedLayouts(of path: String) throws -> LayoutDocument {
    let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
    let dependencies = LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
    let computed = ComputedLayouts.compute(
        forFileAt: path, types: document.types, dependencies: dependencies.paths, configuration: lowering)
    return computed.merged(into: document)
}

@Suite("Computed layouts agree with the fixture's own runtime")
struct ComputedLayoutTests {
    /// Types whose layout rests on `@_rawLayout` storage: the library lowers it as 0 bytes, so the
    /// reading must say unknown (never 0 or a shifted offset).
    static let rawLayoutTypes: Set<String> = ["15LoweringFixture12AtomicHolderC"]
    /// Classes whose superclass is a bound generic class (the runtime lays their instances out
    /// from the instantiated superclass), by the name the fixture prints them under and the end
    /// of the name the reading gives them. Their instance size may be unknown, never another
    /// number; the private one's superclass mangling cannot be spelled (a word substitution
    /// reaches across the spelled-out symbolic reference), as `docc`'s NIO `PooledBuffer` storage.
    static let boundGenericSuperclassClasses: [String: String] = [
        "15LoweringFixture17PublicHeadStorageC": ".PublicHeadStorage",
        "PooledStorageBacking": "(PooledStorageBacking in _",
        "15LoweringFixture13BoundSubclassC": ".BoundSubclass",
    ]

    @Test(
        "every size and field offset equals the runtime's",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"),
        arguments: LoweringFixture.allCases)
    func agreesWithRuntime(build: LoweringFixture) throws {
        let oracle = try build.oracle()
        let document = try mergedLayouts(of: try build.product())
        let byMangling = Dictionary(
            document.types.compactMap { type in type.mangledName.map { ($0, type) } }, uniquingKeysWith: { first, _ in first })
        let disagreements = document.image.notes.filter { if case .metadataDisagreesWithComputed = $0 { true } else { false } }
        #expect(disagreements.isEmpty, "sources disagree: \(disagreements)")
        #expect(oracle.count == 35)
        for expected in oracle where !expected.mangling.hasSuffix("G") && !expected.mangling.hasSuffix("Sg") {
            if let name = Self.boundGenericSuperclassClasses[expected.mangling] {
                let type = try #require(document.types.first { $0.name.contains(name) }, "\(name) not read from \(build)")
                let truth = try #require(expected.instanceSize)
                #expect(
                    type.instanceSize == nil || type.instanceSize == truth,
                    "\(type.name): instance size \(String(describing: type.instanceSize)), runtime \(truth)")
                // The reference itself, which the library lowers from the class's name.
                #expect(type.size == nil || type.size == expected.size, "\(type.name) size")
                #expect(type.alignment == nil || type.alignment == expected.alignment, "\(type.name) alignment")
                let runtimeOffsets = Dictionary(expected.fields.map { ($0.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
                for field in type.fields where field.offset != nil {
                    #expect(field.offset == runtimeOffsets[field.name], "\(type.name).\(field.name) offset")
                }
                continue
            }
            let type = try #require(byMangling[expected.mangling], "\(expected.mangling) not read from \(build)")
            if Self.rawLayoutTypes.contains(expected.mangling) {
                #expect(
                    type.instanceSize == nil || type.instanceSize == expected.instanceSize,
                    "\(type.name): instance size \(String(describing: type.instanceSize)), runtime \(String(describing: expected.instanceSize))"
                )
                for field in type.fields { #expect(field.size != 0, "\(type.name).\(field.name) stated as 0 bytes") }
                continue
            }
            if let instanceSize = expected.instanceSize {
                #expect(type.instanceSize == instanceSize, "\(type.name) instance size")
                #expect(type.instanceAlignment == expected.instanceAlignment, "\(type.name) instance alignment")
            } else {
                #expect(type.size == expected.size, "\(type.name) size")
                #expect(type.alignment == expected.alignment, "\(type.name) alignment")
                #expect(type.stride == expected.stride, "\(type.name) stride")
            }
            #expect(type.extraInhabitants == expected.extraInhabitants, "\(type.name) extra inhabitants")
            if let tagSpareBits = expected.tagSpareBits {
                #expect(type.enumStrategy == .multiPayload, "\(type.name) is a multi-payload enum")
                #expect(type.enumTagBytes == expected.tagBytes, "\(type.name) tag bytes")
                #expect(type.enumTagSpareBits.map(SpareBitMask.hex) == tagSpareBits, "\(type.name) tag spare bits")
                // `typeinfo layout` shows the same facts in place of holes.
                let bits = SpareBitMask.bitCount(SpareBitMask.bytes(hex: tagSpareBits) ?? [])
                let whereTag = bits == 0 ? "no spare bits used" : "tag in \(bits) spare bit\(bits == 1 ? "" : "s") (mask \(tagSpareBits))"
                let text = LayoutHoles(type).textReport()
                #expect(
                    text.contains(
                        "enum layout: multi-payload, tag bytes \(expected.tagBytes ?? -1), \(whereTag), extra inhabitants \(expected.extraInhabitants ?? -1)"
                    ), "\(text)")
            }
            if let counts = expected.caseCounts {
                // The runtime's strategy: how many cases its descriptor says carry a payload.
                let strategy: EnumStrategy = counts.payload == 0 ? .noPayload : counts.payload == 1 ? .singlePayload : .multiPayload
                #expect(type.enumStrategy == strategy, "\(type.name) strategy")
                for (index, size) in expected.payloadSizes.sorted(by: { $0.key < $1.key }) {
                    #expect(
                        type.cases.indices.contains(index) && type.cases[index].payloadSize == size,
                        "\(type.name) case \(index) payload size")
                }
                if counts.payload == 1, counts.empty == 0, let payload = expected.payloadSizes[0] {
                    #expect(type.enumTagBytes == expected.size - payload, "\(type.name) tag bytes")
                }
            }
            #expect(type.fields.map(\.name) == expected.fields.map(\.name), "\(type.name) fields")
            for (field, truth) in zip(type.fields, expected.fields) {
                // A zero-sized field (thin metatype, `()`) has no storage: the runtime reports it at 0.
                if truth.size == 0 || field.size == 0 {
                    #expect(field.size == 0 || field.size == nil, "\(type.name).\(field.name) size")
                    continue
                }
                #expect(field.offset == truth.offset, "\(type.name).\(field.name) offset")
                #expect(field.size == truth.size, "\(type.name).\(field.name) size")
                #expect(field.alignment == truth.alignment, "\(type.name).\(field.name) alignment")
            }
        }
    }

    @Test(
        "bound generic instantiations the file does not define are laid out on request",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"),
        arguments: LoweringFixture.allCases)
    func instantiations(build: LoweringFixture) throws {
        let path = try build.product()
        let dependencies = LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
            .paths
        let oracle = try build.oracle()
        let instantiations = oracle.filter { $0.mangling.hasSuffix("G") || $0.mangling.hasSuffix("Sg") }
        let payload = try #require(oracle.first { $0.mangling == "15LoweringFixture12MultiPayloadO" })
        #expect(instantiations.count == 4)
        for expected in instantiations {
            let (layout, notes) = ComputedLayouts.instantiation(
                mangledName: "$s" + expected.mangling, forFileAt: path, dependencies: dependencies, configuration: lowering)
            let type = try #require(layout, "\(expected.mangling): \(notes)")
            #expect(
                type.size == expected.size && type.alignment == expected.alignment && type.stride == expected.stride,
                "\(type.name): \(type.size ?? -1)/\(type.alignment ?? -1)/\(type.stride ?? -1)")
            #expect(type.extraInhabitants == expected.extraInhabitants, "\(type.name) extra inhabitants")
            #expect(type.fields.map(\.name) == expected.fields.map(\.name), "\(type.name) fields")
            for (field, truth) in zip(type.fields, expected.fields) {
                #expect(field.offset == truth.offset && field.size == truth.size, "\(type.name).\(field.name)")
            }
            if expected.mangling.hasSuffix("Sg") {
                #expect(type.enumStrategy == .singlePayload)
                #expect(type.cases.first?.payloadSize == payload.size, "Optional<MultiPayload>'s payload is MultiPayload")
                #expect(type.enumTagBytes == expected.size - payload.size, "Optional<MultiPayload> tag bytes")
            }
        }
    }
}
