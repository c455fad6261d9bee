import BinaryFixtures
import Foundation
import Testing
import TypeLayout
import TypeLowering

/// The field types `dump --pid`, `object` and `heap` print for instantiations of generic types
/// whose fields are parameterized existentials of the type's own generic parameters
/// (`any Handler<Context>`) are the runtime's own (`String(reflecting:)` of each field's type,
/// as the LiveGenerics fixture prints them), or unknown with the reason.
@Suite(
    "live generics' field names are the runtime's",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct LiveGenericsNamesTests {
    /// The instantiations of one argument whose requirement the reflection library's arguments name.
    static let named = ["LiveGenerics.Responders<LiveGenerics.RequestContext>"]
    /// A generic type nested in a generic type: the library does not give the enclosing type's arguments.
    static let nested = "LiveGenerics.Outer<Swift.UInt8>.Inner<LiveGenerics.RequestContext>"

    /// Checks one field as a reader printed it (`type`, nil for `?`, with `reason`) against the runtime's name.
    static func expectField(
        _ owner: String, _ field: LiveGenericsReport.Field, type: String?, reason: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let runtime = TypeNameSugar.apply(field.type)
        if let type {
            #expect(type == runtime, "\(owner).\(field.name)", sourceLocation: sourceLocation)
            return
        }
        // Unknown: only where the runtime's name holds a parameterized existential, and with why.
        #expect(
            runtime.contains("Self."), "\(owner).\(field.name) is ? but the runtime names it \(runtime)", sourceLocation: sourceLocation)
        #expect(
            reason?.contains("parameterized existential") == true, "\(owner).\(field.name): \(reason ?? "no reason")",
            sourceLocation: sourceLocation)
        #expect(!named.contains(owner), "\(owner).\(field.name) should be named: \(reason ?? "")", sourceLocation: sourceLocation)
        if owner == nested {
            #expect(reason?.contains("nested in a generic type") == true, "\(reason ?? "")", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: FixtureLinking.allCases)
    func dumpObjectAndHeapNameEachFieldAsTheRuntimeDoes(_ linking: FixtureLinking) throws {
        let fixture = try LiveGenericsFixture(linking, listsMetadataAllocations: true)
        defer { fixture.finish() }
        let pid = String(fixture.processID)
        let dump = try DumpCommandTests.run(["dump", "--pid", pid, "--module", "LiveGenerics", "--format", "json", "--no-dwarf"])
        #expect(dump.status == 0, "\(dump.errors)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        let types = try #require(documents.last?["types"] as? [[String: Any]])
        let notes = ((documents.last?["image"] as? [String: Any])?["notes"] as? [String]) ?? []
        for instantiation in fixture.report.types where instantiation.kind != "enum" {
            let type = try #require(types.first { $0["name"] as? String == instantiation.type }, "no \(instantiation.type)")
            let fields = try #require(type["fields"] as? [[String: Any]])
            #expect(fields.count == instantiation.fields.count, "\(instantiation.type)")
            for (expected, found) in zip(instantiation.fields, fields) {
                let printed = found["type"] as? String
                let reason = notes.first { $0.hasPrefix("\(instantiation.type).\(expected.name): its type is unknown") }
                Self.expectField(instantiation.type, expected, type: printed == "?" ? nil : printed, reason: reason)
            }
        }
        // Every one-argument instantiation the fixture makes is named in full.
        for name in Self.named {
            let type = try #require(types.first { $0["name"] as? String == name })
            #expect((type["fields"] as? [[String: Any]])?.allSatisfy { $0["type"] as? String != "?" } == true, "\(name)")
        }
        #expect(notes.contains { $0.hasPrefix("\(Self.nested).handler: its type is unknown") }, "\(notes)")

        // `object`: each object's fields, and a struct's inside it, as the runtime names them.
        for object in fixture.report.objects {
            let json = try ObjectCommandTests.json([pid, object.address, "--depth", "1"])
            #expect(json["type"] as? String == object.type)
            try expectObjectFields(json, in: fixture.report)
        }
        // `heap`: each object's class, as the runtime names it.
        let census = try HeapCommandTests.census([pid])
        for object in fixture.report.objects {
            #expect(census.types.contains { $0.type == object.type }, "\(object.type): \(census.types.map(\.type))")
        }
    }

    /// The fields of `object` (an `object --format json` report or a struct value in it), each
    /// against the runtime's field types of its instantiation in `report`, nested values too.
    func expectObjectFields(_ object: [String: Any], in report: LiveGenericsReport) throws {
        let owner = try #require(object["type"] as? String)
        let fields = (object["fields"] as? [[String: Any]]) ?? []
        let instantiation = report.types.first { $0.type == owner }
        for field in fields {
            let name = try #require(field["name"] as? String)
            if let expected = instantiation?.fields.first(where: { $0.name == name }) {
                Self.expectField(owner, expected, type: field["type"] as? String, reason: field["typeUnknown"] as? String)
            }
            // A struct instantiation held in the field: its own fields.
            if let type = field["type"] as? String, let value = field["value"] as? [String: Any], value["fields"] != nil {
                var nested = value
                nested["type"] = type
                try expectObjectFields(nested, in: report)
            }
        }
    }
}
