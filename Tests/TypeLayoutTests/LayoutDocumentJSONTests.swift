import Foundation
import Testing
import TypeLayout

@Suite struct LayoutDocumentJSONTests {
    let document = LayoutDocument(
        image: ImageSummary(path: "demo", fileType: .executable, architecture: "x86_64"),
        types: [
            TypeLayout(
                name: "Demo.Point", mangledName: "4Demo5PointV", kind: .struct, module: "Demo",
                size: 16, alignment: 8, stride: 16,
                fields: [
                    FieldLayout(name: "x", type: "Swift.Double", offset: 0, size: 8, isVar: true),
                    FieldLayout(name: "y", type: "Swift.Double", offset: nil, isVar: false, ownership: .unownedUnsafe),
                ],
                source: .metadata
            ),
            TypeLayout(
                name: "Demo.Shape", kind: .enum, cases: [EnumCaseLayout(name: "circle", payloadType: "Swift.Double", indirect: true)]),
        ]
    )

    @Test func roundTripsThroughJSON() throws {
        let data = try document.jsonData()
        let decoded = try LayoutDocument(jsonData: data)
        #expect(decoded == document)
    }

    @Test func unknownValuesAreWrittenAsNull() throws {
        let text = String(decoding: try document.jsonData(pretty: false), as: UTF8.self)
        #expect(text.contains(#""offset":null"#))
        #expect(text.contains(#""stride":null"#))
        #expect(text.contains(#""ownership":"unowned(unsafe)""#))
        #expect(!text.contains("bitOffset"))
    }

    @Test func anUnknownLetOrVarIsNullAndQuestionMarkNeverVar() throws {
        var type = TypeLayout(name: "Demo.Pair<Swift.Int>", kind: .struct, source: .computed)
        type.fields = [FieldLayout(name: "first", type: "Swift.Int", offset: 0, size: 8, isVar: nil)]
        let unknown = LayoutDocument(image: ImageSummary(path: "demo", fileType: .process), types: [type])
        let text = String(decoding: try unknown.jsonData(pretty: false), as: UTF8.self)
        #expect(text.contains(#""isVar":null"#), "\(text)")
        #expect(try LayoutDocument(jsonData: Data(text.utf8)).types[0].fields[0].isVar == nil)
        // A document written before a field could be unknown has no key: `var`, as it was read.
        let older = text.replacingOccurrences(of: #""isVar":null,"#, with: "")
        #expect(try LayoutDocument(jsonData: Data(older.utf8)).types[0].fields[0].isVar == true)
        let rendered = LayoutTextRenderer().render(type)
        #expect(rendered.contains("? first: Swift.Int") && !rendered.contains("var first"), "\(rendered)")
    }

    @Test func encodingIsStable() throws {
        #expect(try document.jsonData() == document.jsonData())
    }

    @Test func newerSchemaIsRejectedWithAClearMessage() throws {
        let json = #"{"schemaVersion": 99, "image": {"path": "x"}, "types": []}"#
        #expect(throws: LayoutDocumentError.unsupportedSchemaVersion(found: 99, supported: LayoutDocument.currentSchemaVersion)) {
            try LayoutDocument(jsonData: Data(json.utf8))
        }
    }

    @Test func malformedDocumentNamesThePath() throws {
        let json = #"{"schemaVersion": 1, "image": {"path": "x"}, "types": [{"name": "A", "kind": "struct", "fields": [{"name": 3}]}]}"#
        do {
            _ = try LayoutDocument(jsonData: Data(json.utf8))
            Issue.record("expected an error")
        } catch let error as LayoutDocumentError {
            #expect(error.description.contains("$.types[0].fields[0].name"), "\(error)")
        }
    }
}
