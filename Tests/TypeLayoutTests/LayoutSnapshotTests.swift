import Foundation
import Testing
import TypeLayout

private struct Sample { var flag: Bool; var count: Int; var name: String }
private enum Choice {
    case one
    case two(Int)
}

@Suite struct LayoutSnapshotTests {
    let sample = Measured.structLayout(
        Sample.self, name: "Demo.Sample", [("name", \Sample.name), ("flag", \Sample.flag), ("count", \Sample.count)]
    )
    let choice = Measured.enumLayout(Choice.self, name: "Demo.Choice", cases: [("two", Int.self), ("one", nil)])
    var node: TypeLayout {
        TypeLayout(
            name: "Demo.Node", mangledName: "4Demo4NodeC", kind: .class, module: "Demo",
            size: MemoryLayout<AnyObject>.size, alignment: MemoryLayout<AnyObject>.alignment,
            stride: MemoryLayout<AnyObject>.stride, instanceSize: 24, instanceAlignment: 8, superclass: nil,
            conformances: ["Swift.Sendable"],
            fields: [FieldLayout(name: "parent", type: "Demo.Node?", offset: 16, size: 8, ownership: .weak)],
            source: .metadata
        )
    }

    @Test func typesAreSortedAndFieldsAreInOffsetOrder() {
        let snapshot = LayoutSnapshot(types: [sample, node, choice])
        #expect(snapshot.types.map(\.name) == ["Demo.Choice", "Demo.Node", "Demo.Sample"])
        let fields = snapshot.types[2].fields
        let offsets = fields.compactMap(\.offset)
        #expect(offsets == offsets.sorted())
        #expect(fields.map(\.name) == ["flag", "count", "name"], "declaration order, as the compiler laid them out")
        #expect(snapshot.types[1].mangledName == nil && snapshot.types[1].conformances.isEmpty && snapshot.types[1].source == nil)
    }

    @Test func jsonRoundTripsAndIsStable() throws {
        let snapshot = LayoutSnapshot(types: [sample, node, choice])
        let data = snapshot.jsonData()
        #expect(try LayoutSnapshot(jsonData: data) == snapshot)
        #expect(LayoutSnapshot(types: [choice, sample, node]).jsonData() == data, "input order does not matter")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"format\": \"typeinfo-layout-snapshot\",\n  \"version\": 1,\n"))
        // One field per line, so a changed field is a one-line diff.
        let countOffset = MemoryLayout<Sample>.offset(of: \.count) ?? -1
        #expect(
            text.contains(
                "\n        {\"name\": \"count\", \"offset\": \(countOffset), \"size\": \(MemoryLayout<Int>.size), \"type\": \"Swift.Int\"}")
        )
        #expect(text.contains("\"ownership\": \"weak\""))
        #expect(!text.contains("mangledName") && !text.contains("conformances"))
        // It is plain JSON for other tools.
        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }

    @Test func selectionRoundTrips() throws {
        var snapshot = LayoutSnapshot(types: [sample])
        snapshot.selection = LayoutSnapshot.Selection(typePatterns: ["Demo.", "/^X$/"], kinds: [.struct], modules: ["Demo"])
        let decoded = try LayoutSnapshot(jsonData: snapshot.jsonData())
        #expect(decoded.selection == snapshot.selection)
        #expect(decoded == snapshot)
        #expect(try LayoutSnapshot(jsonData: LayoutSnapshot(types: [sample]).jsonData()).selection == nil)
    }

    @Test func stringsAreEscaped() throws {
        let odd = TypeLayout(name: "Demo.\"Quoted\"\\\n\u{01}é", kind: .struct, size: 0, alignment: 1, stride: 1)
        let snapshot = LayoutSnapshot(types: [odd])
        #expect(try LayoutSnapshot(jsonData: snapshot.jsonData()).types.first?.name == odd.name)
    }

    @Test func aLayoutDocumentIsAcceptedAsASnapshot() throws {
        let document = LayoutDocument(image: ImageSummary(path: "demo"), types: [node, sample])
        let snapshot = try LayoutSnapshot(jsonData: try document.jsonData())
        #expect(snapshot == LayoutSnapshot(document: document))
    }

    @Test func newerVersionsAndMalformedFilesGetClearErrors() throws {
        let newer = Data(#"{"format": "typeinfo-layout-snapshot", "version": 99, "types": []}"#.utf8)
        #expect(throws: LayoutSnapshotError.unsupportedVersion(found: 99, supported: LayoutSnapshot.currentVersion)) {
            try LayoutSnapshot(jsonData: newer)
        }
        let badField = Data(
            #"{"format": "typeinfo-layout-snapshot", "version": 1, "types": [{"name": "A", "kind": "struct", "fields": [{"name": "x", "offset": "eight", "type": "Swift.Int"}]}]}"#
                .utf8)
        do {
            _ = try LayoutSnapshot(jsonData: badField)
            Issue.record("a string offset was accepted")
        } catch let error as LayoutSnapshotError {
            #expect(error.description.contains("$.types[0].fields[0].offset"), "\(error)")
        }
        for text in ["", "[]", #"{"format": "something-else", "version": 1}"#, "{\"format\": \"typeinfo-layout-snapshot\"}"] {
            #expect(throws: LayoutSnapshotError.self) { try LayoutSnapshot(jsonData: Data(text.utf8)) }
        }
    }

    /// Corrupted files either decode or fail with a LayoutSnapshotError; whatever decodes can be
    /// diffed, analysed and drawn without trapping (hostile numbers included).
    @Test func corruptedSnapshotsNeverTrap() throws {
        let valid = Array(LayoutSnapshot(types: [sample, node, choice]).jsonData())
        let replacements: [[UInt8]] = [
            Array("-9223372036854775808".utf8), Array("9223372036854775807".utf8),
            Array("null".utf8), Array("\"".utf8), Array("}".utf8), [0xFF],
        ]
        var decoded = 0
        for position in Swift.stride(from: 0, to: valid.count, by: 7) {
            for replacement in replacements {
                var bytes = valid
                bytes.replaceSubrange(position..<min(position + 1, bytes.count), with: replacement)
                do {
                    let snapshot = try LayoutSnapshot(jsonData: Data(bytes))
                    decoded += 1
                    let reference = LayoutSnapshot(types: [sample, node, choice])
                    _ = LayoutDiff(old: reference, new: snapshot).textReport()
                    for type in snapshot.types {
                        _ = LayoutHoles(type, alignmentOf: { _ in 8 }).svg()
                    }
                } catch is LayoutSnapshotError {
                    continue
                }
            }
        }
        #expect(decoded > 0, "some corruptions (numbers) still decode and were exercised")
    }
}
