import BinaryFixtures
import Foundation
import Testing

/// `typeinfo object`: the live-heap fixture's sample objects, whose field values the process
/// prints itself, read by PID and from a gcore core.
@Suite("typeinfo object", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ObjectCommandTests {
    /// The value column of each field row of the text output, by field name (the first block only).
    static func values(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        // Rows follow the heading and the column names; a followed object's block starts after an empty line.
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) {
            guard !line.isEmpty else { break }
            let columns = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard columns.count == 4 else { continue }
            // offset, name, type (no spaces in these fixture types), value
            values[String(columns[1])] = String(columns[3]).trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try DumpCommandTests.run(["object"] + arguments + ["--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    static func checkSamples(_ target: String, _ report: LiveHeapReport) throws {
        let root = try #require(report.sample("root"))
        let child = try #require(report.sample("child"))
        let spot = try #require(report.sample("spot"))
        for sample in [root, child] {
            let text = try DumpCommandTests.run(["object", target, sample.address])
            #expect(text.status == 0, "\(text.errors)")
            #expect(text.output.hasPrefix("\(sample.address)  \(sample.type)  size "))
            let values = Self.values(text.output)
            #expect(values["id"] == sample.id.map(String.init))
            #expect(values["name"] == sample.orderName.map { "\"\($0)\"" })
            #expect(values["price"] == sample.price.map { "\($0)" })
            #expect(values["paid"] == sample.paid.map { "\($0)" })
            #expect(values["status"] == sample.status.map { "." + $0 })
            if let tags = sample.tags {
                // The elements, then the storage object's address.
                let elements = "[" + tags.map { "\"\($0)\"" }.joined(separator: ", ") + "] (storage 0x"
                #expect(values["tags"]?.hasPrefix(elements) == true && values["tags"]?.hasSuffix(")") == true, "\(values["tags"] ?? "")")
            }
            #expect(values["parent"] == (sample.parent.map { "\($0) \(root.type)" } ?? "nil"))
        }
        // The fields, their offsets and the object's size are the runtime's (_forEachField in the fixture).
        let json = try Self.json([target, root.address])
        let order = try #require(report.types.first { $0.type == root.type })
        let fields = try #require(json["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String } == (order.fields ?? []).map(\.name))
        #expect(fields.map { $0["offset"] as? Int } == (order.fields ?? []).map(\.offset))
        #expect(json["size"] as? Int == order.instanceSize)
        #expect(json["address"] as? String == root.address)
        let tags = try #require(fields.first { $0["name"] as? String == "tags" }?["value"] as? [String: Any])
        #expect(tags["count"] as? Int == root.tags?.count)
        #expect(tags["elements"] as? [String] == root.tags)
        let status = try #require(fields.first { $0["name"] as? String == "status" }?["value"] as? [String: Any])
        #expect(status["case"] as? String == "cancelled")
        #expect(status["payload"] as? String == "late")
        // A subclass: its superclass's field first.
        let dog = Self.values(try DumpCommandTests.run(["object", target, spot.address]).output)
        #expect(dog["legs"] == spot.legs.map(String.init))
        #expect(dog["name"] == spot.dogName.map { "\"\($0)\"" })
        // --depth follows the parent reference to the root object.
        let followed = try Self.json([target, child.address, "--depth", "1"])
        let parent = try #require((followed["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "parent" })
        let payload = try #require((parent["value"] as? [String: Any])?["payload"] as? [String: Any])
        #expect(payload["address"] as? String == root.address)
        #expect(payload["type"] as? String == root.type)
        let object = try #require(payload["object"] as? [String: Any])
        let rootID = (object["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "id" }?["value"] as? Int
        #expect(rootID == root.id)
    }

    @Test(arguments: FixtureLinking.allCases)
    func sampleObjectsShowWhatTheProcessPrints(_ linking: FixtureLinking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        try Self.checkSamples(String(fixture.processID), fixture.report)
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        try Self.checkSamples(try CoreDump.make(of: fixture.processID), fixture.report)
    }

    @Test func addressesThatHoldNoObjectAreNamed() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let root = try #require(fixture.report.sample("root"))
        let inside = "0x" + String(UInt64(root.address.dropFirst(2), radix: 16)! + 8, radix: 16)
        let result = try DumpCommandTests.run(["object", String(fixture.processID), inside])
        #expect(result.status == 2)
        #expect(
            result.errors
                == "typeinfo: process \(fixture.processID): no Swift object at \(inside): its first word is not the metadata of a Swift class the target's images define (give an object's start address: `typeinfo heap --addresses N` lists objects by type)\n"
        )
        let unmapped = try DumpCommandTests.run(["object", String(fixture.processID), "0x10"])
        #expect(unmapped.status == 2)
        #expect(unmapped.errors.hasPrefix("typeinfo: process \(fixture.processID): "))
        #expect(unmapped.errors.contains("0x10"))
        let notAnAddress = try DumpCommandTests.run(["object", String(fixture.processID), "zz"])
        #expect(notAnAddress.status == 2)
        #expect(notAnAddress.errors.contains("'zz' is not an address: write 0x… or a decimal number"))
    }
}
