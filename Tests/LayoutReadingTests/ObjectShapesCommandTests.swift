import BinaryFixtures
import Foundation
import Testing

/// `typeinfo object` on shapes that must never make it give up: a cycle, a list longer than the
/// depth, nested optionals, values it cannot read. Read from a SwiftPM release build, dynamic and
/// `--static-swift-stdlib`.
@Suite(
    "typeinfo object on cycles, chains and nested optionals",
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ObjectShapesCommandTests {
    static func object(_ fixture: LiveShapesFixture, _ address: String, _ options: [String] = []) throws -> DumpCommandTests.Outcome {
        try DumpCommandTests.run(["object", String(fixture.processID), address] + options)
    }

    /// The object blocks of a text report: each block's heading line (address and type).
    static func headings(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("0x") && $0.contains("  size ") }
    }

    @Test(arguments: FixtureLinking.allCases)
    func aCycleIsShownOnceAtAnyDepth(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let report = fixture.report
        let result = try Self.object(fixture, report.session.address, ["--depth", "64"])
        #expect(result.status == 0, "\(result.errors)")
        // The session, then its handler; the handler's reference back is not followed again.
        #expect(Self.headings(result.output).map { String($0.prefix { $0 != " " }) } == [report.session.address, report.handler.address])
        #expect(result.output.contains("\(report.session.address) \(report.session.type) (shown above)"), "\(result.output)")
        let json = try ObjectCommandTests.json([String(fixture.processID), report.session.address, "--depth", "64"])
        let handler = try #require((json["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "handler" })
        // Optional.some(reference), the handler followed, its field an Optional.some(reference shown above).
        let followed = try #require(((handler["value"] as? [String: Any])?["payload"] as? [String: Any])?["object"] as? [String: Any])
        let back = try #require((followed["fields"] as? [[String: Any]])?.first?["value"] as? [String: Any])
        let value = try #require(back["payload"] as? [String: Any])
        #expect(value["address"] as? String == report.session.address && value["shownAbove"] as? Bool == true)
    }

    @Test func aListLongerThanTheDepthIsFollowedExactlyThatFar() throws {
        let fixture = try LiveShapesFixture()
        defer { fixture.finish() }
        let report = fixture.report
        for depth in [0, 9, report.listLength + 5] {
            let result = try Self.object(fixture, report.list.address, ["--depth", String(depth)])
            #expect(result.status == 0, "depth \(depth): \(result.errors)")
            let nodes = Self.headings(result.output).filter { $0.contains(report.list.type) }
            #expect(nodes.count == min(depth + 1, report.listLength), "depth \(depth)")
            // Each node's index, in order: the list was built 0, 1, 2, …
            let indices = result.output.split(separator: "\n").compactMap { line -> Int? in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                return columns.count == 4 && columns[1] == "index" ? Int(columns[3]) : nil
            }
            #expect(indices == Array(0..<min(depth + 1, report.listLength)), "depth \(depth)")
        }
    }

    @Test func depthBeyondTheLimitIsRefusedWithTheWayOn() throws {
        let fixture = try LiveShapesFixture()
        defer { fixture.finish() }
        let result = try Self.object(fixture, fixture.report.list.address, ["--depth", "5000"])
        #expect(result.status != 0)
        #expect(
            result.errors.contains(
                "--depth takes 0 to 64: to follow a longer chain, run typeinfo object again on an object further down it"))
    }

    @Test(arguments: FixtureLinking.allCases)
    func nestedOptionalsTellNoneFromSomeNone(_ linking: FixtureLinking) throws {
        let fixture = try LiveShapesFixture(linking)
        defer { fixture.finish() }
        let result = try Self.object(fixture, fixture.report.optionals.address)
        #expect(result.status == 0, "\(result.errors)")
        let values = ObjectCommandTests.values(result.output)
        #expect(values["none"] == "nil" && values["someNone"] == ".some(nil)" && values["someSome"] == "1.5", "\(values)")
    }

    @Test func anArrayShowsItsStorageAndEveryUnreadValueItsReason() throws {
        let fixture = try LiveShapesFixture()
        defer { fixture.finish() }
        let json = try ObjectCommandTests.json([String(fixture.processID), fixture.report.book.address])
        let orders = try #require(
            (json["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "orders" }?["value"] as? [String: Any])
        let storage = try #require(orders["storage"] as? String)
        #expect(storage.hasPrefix("0x") && UInt64(storage.dropFirst(2), radix: 16) != nil)
        #expect((orders["elements"] as? [Any])?.count == 5)
        // Every null value anywhere in the document has its reason beside it.
        func check(_ node: Any, _ path: String) {
            if let object = node as? [String: Any] {
                for (key, value) in object {
                    if value is NSNull, key == "value" || key == "payload" {
                        #expect(object["unknown"] is String, "\(path).\(key) is null without a reason")
                    }
                    check(value, path + "." + key)
                }
            } else if let array = node as? [Any] {
                for (index, element) in array.enumerated() { check(element, path + "[\(index)]") }
            }
        }
        for address in [fixture.report.fields.address, fixture.report.migrations.address, fixture.report.router.address] {
            check(try ObjectCommandTests.json([String(fixture.processID), address]), address)
        }
    }
}
