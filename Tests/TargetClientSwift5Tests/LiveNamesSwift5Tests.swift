import BinaryFixtures
import Foundation
import Testing
import TypeLayout
import TypeLowering

/// The name corrections and field mutability as a Swift 5 language mode client calls them,
/// against what the LiveShapes fixture prints of itself.
@Suite(
    "live names from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct LiveNamesSwift5Tests {
    @Test func correctedNamesAndLetFields() throws {
        #expect(LibraryManglings.corrected("Say10LiveShapes6Schema_pmG") == "Say10LiveShapes6Schema_pXpG")
        #expect(!LibraryManglings.isGarbledConstraint("any M.P<Self.M.P.A == M.X>"))
        let fixture = try LiveShapesFixture(.dynamic)
        defer { fixture.finish() }
        let inspector = try TargetInspector(.process(fixture.processID), imageSearchPaths: [], configuration: .resolved())
        #expect(inspector.typeName(libraryMangling: "Say10LiveShapes6Schema_pmG") == "[LiveShapes.Schema.Type]")
        let box = UInt64(fixture.report.box.address.dropFirst(2), radix: 16) ?? 0
        let metadata = try #require(inspector.classMetadata(at: try inspector.memory.read(UInt64.self, at: box, what: "isa")))
        #expect(inspector.fieldMutability(ofDescriptor: metadata.descriptor) == ["value": false, "count": true])
        let fields = try #require(try inspector.storedFields(ofClassAt: metadata.address))
        #expect(fields.map(\.isVar) == [false, true])
        // A requirement put on Self, and why one left on a generic parameter has no name.
        #expect(
            LibraryManglings.correctedRequirements("10LiveShapes9Responder_pAA12BasicContextV0E0AaBPQxAGRS_XP")
                == "10LiveShapes9Responder_pAA12BasicContextV0E0AaBPRts_XP")
        #expect(!LibraryManglings.whyUnnamed("10LiveShapes9Responder_px7ContextAaBPRtz_XP").isEmpty)
        // One left on the generic type's parameter, bound to the instantiation's one argument.
        let arguments = try LibraryManglings.GenericArguments.confirmed(
            instantiation: "10LiveShapes18EndpointRespondersVyAA12BasicContextVG", arguments: ["10LiveShapes12BasicContextV"]
        ).get()
        let bound = LibraryManglings.correctedRequirements("10LiveShapes9Responder_px7ContextAaBPRtz_XP", arguments: arguments)
        #expect(bound.flatMap { inspector.typeName(libraryMangling: $0) } == fixture.report.responderFieldType)
        #expect(fields.allSatisfy { $0.whyUnnamed == nil && $0.requirementUnbound == nil })
        // A generic struct's instantiation's field records, by its descriptor symbol.
        let descriptor = try #require(
            inspector.genericTypeDescriptor(
                ofInstantiation: "10LiveShapes18EndpointRespondersVyAA12BasicContextVG", symbols: inspector.swiftImageSymbols()))
        #expect(inspector.fieldMutability(ofDescriptor: descriptor) == ["path": false, "methods": true])
        #expect(inspector.valueTypeDescriptor(ofMetadata: metadata.address) == nil)
        // The same descriptor among the types the images list, where no symbol is asked.
        let listed = try #require(inspector.listedGenericTypeDescriptors())
        #expect(listed.descriptor(demangledSymbol: "nominal type descriptor for LiveShapes.EndpointResponders") == descriptor)
        #expect(
            inspector.genericTypeDescriptor(
                ofInstantiation: "10LiveShapes18EndpointRespondersVyAA12BasicContextVG", symbols: [], listed: listed) == descriptor)
        // A field whose `let` or `var` is unknown, and the note that says why.
        let unknown = FieldLayout(name: "f", type: "Swift.Int", isVar: nil)
        #expect(unknown.isVar == nil)
        #expect(LayoutNote.fieldMutabilityUnknown(type: "T", reason: "why").text.contains("let or var is unknown"))
        // The census and object models' new facts.
        let entry = HeapCensus.Entry(type: "S", count: 1, bytes: 8, instanceSize: 8, elementType: "E")
        #expect(entry.key == "S (of E)" && entry.elementType == "E")
        let field = ObjectField(name: "f", type: nil, offset: 0, value: .unknown("?"), typeUnknown: "why")
        #expect(field.typeUnknown == "why" && !ObjectValue.unknownReferenceReason.isEmpty)
    }
}
