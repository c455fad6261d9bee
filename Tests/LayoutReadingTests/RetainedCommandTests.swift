import BinaryFixtures
import Foundation
import Testing

/// `typeinfo heap --retained`: each type's retained bytes against what
/// `Fixtures/LiveRetained/main.swift` computed of its own objects (`malloc_usable_size` of each:
/// a chain whose head retains every link, a tree whose root retains its nodes and leaves, a
/// diamond whose shared child neither parent retains), by PID and from a gcore core of the same
/// process, with the runtime linked dynamically and statically.
@Suite("typeinfo heap --retained", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct RetainedCommandTests {
    struct Report: Decodable {
        var pid: Int32
        var retained: [String: Int]
        var counts: [String: Int]
        /// An object whose retained bytes are all its type's.
        var outermost: [String: String]
    }

    struct Entry: Decodable {
        var type: String
        var count: Int
        var bytes: Int
        var retainedBytes: Int?
    }

    struct Document: Decodable {
        struct Retained: Decodable {
            var reachableAllocations: Int
            var reachableBytes: Int
            var meaning: String
        }
        struct Target: Decodable { var pauseSeconds: Double? }
        struct Totals: Decodable {
            var allocations: Int
            var heapBytes: Int
        }
        var types: [Entry]
        var retained: Retained?
        var target: Target
        var totals: Totals
    }

    static func check(_ json: String, _ report: Report, _ source: String) throws {
        let document = try JSONDecoder().decode(Document.self, from: Data(json.utf8))
        for (type, expected) in report.retained {
            let entry = document.types.first { $0.type == type }
            #expect(entry?.count == report.counts[type], "\(source): \(type)")
            #expect(entry?.retainedBytes == expected, "\(source): \(type)")
        }
        let retained = try #require(document.retained, "\(source)")
        #expect(retained.reachableAllocations <= document.totals.allocations, "\(source)")
        #expect(retained.reachableBytes <= document.totals.heapBytes, "\(source)")
        #expect(retained.meaning.contains("no other object of the type keeps reachable alone"), "\(source)")
    }

    @Test(arguments: FixtureLinking.allCases)
    func retainedBytesByTypeByProcessAndFromItsCore(_ linking: FixtureLinking) throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveRetained", linking: linking)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let live = try DumpCommandTests.run(["heap", String(fixture.processID), "--retained", "--format", "json"])
        #expect(live.status == 0, "\(live.errors)")
        try Self.check(live.output, report, "process")
        let document = try JSONDecoder().decode(Document.self, from: Data(live.output.utf8))
        #expect(document.target.pauseSeconds.map { $0 > 0 } == true, "the process is stopped for the reading")
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let dumped = try DumpCommandTests.run(["heap", core, "--retained", "--format", "json"])
        #expect(dumped.status == 0, "\(dumped.errors)")
        try Self.check(dumped.output, report, "core")
    }

    @Test func textHasTheColumnTheMeaningAndTheStop() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveRetained", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let result = try DumpCommandTests.run([
            "heap", String(fixture.processID), "--retained", "--sort", "retained", "--type", "LiveRetained.",
        ])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("process \(fixture.processID) (LiveRetained"), "\(result.output)")
        #expect(lines[0].contains("read while paused (stopped for "), "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("retained: an object's retained bytes are what would become unreachable") })
        let header = try #require(lines.firstIndex { $0.hasPrefix("count") })
        #expect(lines[header].split(separator: " ", omittingEmptySubsequences: true) == ["count", "bytes", "retained", "instance", "type"])
        // Rows in retained order: the fixture's types by the bytes it computed, largest first.
        let rows = lines[(header + 1)...].map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let expectedOrder = report.retained.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        #expect(rows.map { String($0.last ?? "") }.filter { report.retained[$0] != nil } == expectedOrder.map(\.key))
        for row in rows {
            guard let expected = report.retained[String(row.last ?? "")] else { continue }
            #expect(row.count == 5 && Int(row[2]) == expected, "\(row)")
        }
    }

    /// `retainers` states the retained bytes of the object asked about, and of each group of a
    /// type's objects (each allocation counted once): the fixture's own sums.
    @Test func retainersStateRetainedBytesOfAnObjectAndOfATypesGroups() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveRetained", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        for (type, address) in report.outermost {
            let result = try DumpCommandTests.run(["retainers", String(fixture.processID), address, "--format", "json"])
            #expect(result.status == 0, "\(result.errors)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            #expect(document["retainedBytes"] as? Int == report.retained[type], "\(type) \(address)")
        }
        for type in ["LiveRetained.ChainLink", "LiveRetained.TreeNode", "LiveRetained.DiamondParent"] {
            let result = try DumpCommandTests.run(["retainers", String(fixture.processID), "--type", type, "--format", "json"])
            #expect(result.status == 0, "\(result.errors)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let groups = try #require(document["groups"] as? [[String: Any]])
            #expect(groups.reduce(0) { $0 + ($1["retainedBytes"] as? Int ?? -1_000_000) } == report.retained[type], "\(type): \(groups)")
        }
        let chain = try #require(report.outermost["LiveRetained.ChainLink"])
        let text = try DumpCommandTests.run(["retainers", String(fixture.processID), chain])
        let expected = report.retained["LiveRetained.ChainLink"] ?? 0
        #expect(text.output.contains(" bytes; retains \(expected) bytes: itself and what only it holds)\n"), "\(text.output)")
    }

    @Test func optionsThatDoNotGoTogetherAreRefused() throws {
        let sorted = try DumpCommandTests.run(["heap", "1", "--sort", "retained"])
        #expect(sorted.status != 0)
        #expect(sorted.errors.contains("--sort retained needs --retained"), "\(sorted.errors)")
        let compared = try DumpCommandTests.run(["heap", "1", "--retained", "--baseline", "/nonexistent"])
        #expect(compared.status != 0)
        #expect(compared.errors.contains("--retained and --baseline cannot be combined"), "\(compared.errors)")
    }
}
