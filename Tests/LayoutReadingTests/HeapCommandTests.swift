import BinaryFixtures
import Foundation
import LayoutReading
import Testing
import TypeLayout

#if canImport(Glibc)
import Glibc
#endif

/// `typeinfo heap`: the live-heap fixture's own count of each of its types (and the sum of its
/// objects' `malloc_usable_size`) is the oracle, by PID and from a gcore core of the same process.
@Suite("typeinfo heap", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct HeapCommandTests {
    static func census(_ arguments: [String]) throws -> HeapCensus {
        let result = try DumpCommandTests.run(["heap"] + arguments + ["--format", "json"])
        #expect(result.status == 0, "\(result.errors)")
        return try HeapCensus(jsonData: Data(result.output.utf8))
    }

    /// Every type the fixture holds is counted exactly, with its bytes and instance size.
    static func expectFixtureTypes(_ census: HeapCensus, _ report: LiveHeapReport, _ source: String) {
        for held in report.types {
            let entry = census.types.first { $0.type == held.type }
            #expect(entry?.count == held.count, "\(source): \(held.type)")
            #expect(entry?.bytes == held.bytes, "\(source): \(held.type)")
            #expect(entry?.instanceSize != nil && entry?.instanceSize == held.instanceSize, "\(source): \(held.type)")
        }
        #expect(census.totals.swiftObjects >= report.types.reduce(0) { $0 + $1.count })
        #expect(census.totals.heapBytes > census.totals.swiftObjectBytes)
    }

    @Test(arguments: FixtureLinking.allCases)
    func countsEveryTypeByProcessAndFromItsCore(_ linking: FixtureLinking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let live = try Self.census([String(fixture.processID)])
        Self.expectFixtureTypes(live, fixture.report, "process")
        #expect(live.target.processID == fixture.processID)
        #expect(live.target.readWhileRunning)
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let dumped = try Self.census([core])
        Self.expectFixtureTypes(dumped, fixture.report, "core")
        #expect(dumped.target.corePath == core)
        #expect(dumped.target.processID == fixture.processID)
        #expect(!dumped.target.readWhileRunning)
        // The process still runs, unchanged.
        #expect(try fixture.grow().types.count == fixture.report.types.count)
    }

    @Test func pausedReadingAndSelection() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let paused = try Self.census([String(fixture.processID), "--pause", "--type", "LiveHeap.Box<", "--sort", "count"])
        #expect(!paused.target.readWhileRunning)
        // How long the process was held, stated.
        #expect(paused.target.stop?.seconds.map { $0 > 0 } == true, "\(String(describing: paused.target.stop))")
        let pausedText = try DumpCommandTests.run(["heap", String(fixture.processID), "--pause", "--top", "1"]).output
        #expect(pausedText.hasPrefix("process \(fixture.processID) ("), "\(pausedText)")
        #expect(pausedText.split(separator: "\n").first?.contains("), read while paused (stopped for ") == true, "\(pausedText)")
        let boxes = fixture.report.types.filter { $0.type.hasPrefix("LiveHeap.Box<") }.sorted { $0.count > $1.count }
        #expect(paused.types.map(\.type) == boxes.map(\.type))
        #expect(paused.types.map(\.count) == boxes.map(\.count))
        let text = try DumpCommandTests.run(["heap", String(fixture.processID), "--top", "1"])
        let lines = text.output.split(separator: "\n", omittingEmptySubsequences: false)
        let command = String(URL(fileURLWithPath: fixture.executable).lastPathComponent.prefix(15))
        #expect(
            lines[0]
                == "process \(fixture.processID) (\(command)), read while it ran: counts may be off by what it allocated or freed meanwhile (--pause stops it for the read)"
        )
        // Read while it ran: a line says what changed under the reading.
        #expect(lines[1].hasPrefix("changed while read: "))
        #expect(lines[4] == "count   bytes  instance  type")
        let orders = try #require(fixture.report.types.first { $0.type == "LiveHeap.Order" })
        #expect(lines[5].split(separator: " ") == ["\(orders.count)", "\(orders.bytes)", "\(orders.instanceSize ?? 0)", "LiveHeap.Order"])
        #expect(lines.count == 7)
    }

    @Test func baselineShowsExactlyWhatTheFixtureAdded() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let before = fixture.report
        let saved = ScratchDirectory.path(named: "heap-baseline") + ".json"
        let first = try DumpCommandTests.run(["heap", String(fixture.processID), "--format", "json"])
        try Data(first.output.utf8).write(to: URL(fileURLWithPath: saved))
        let after = try fixture.grow()
        let compared = try Self.census([String(fixture.processID), "--baseline", saved])
        #expect(compared.isComparison)
        for held in after.types {
            let old = before.types.first { $0.type == held.type }
            let entry = compared.types.first { $0.type == held.type }
            #expect(entry?.countDelta == held.count - (old?.count ?? 0), "\(held.type)")
            #expect(entry?.bytesDelta == held.bytes - (old?.bytes ?? 0), "\(held.type)")
        }
        // The fixture's batch is the biggest growth of its own types, first among them.
        let grown = compared.types.filter { $0.type.hasPrefix("LiveHeap.") }
        #expect(grown.first?.type == "LiveHeap.Order")
    }

    @Test func aBusyProcessIsCountedExactlyWhenPaused() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        try fixture.churn()
        // Two threads allocate and free without pause; stopped, the heap holds still.
        let paused = try Self.census([String(fixture.processID), "--pause"])
        Self.expectFixtureTypes(paused, fixture.report, "paused while churning")
        // Running, a reading goes around what changes under it; only arenas that never verify
        // fail it, and then it says what to do.
        let running = try DumpCommandTests.run(["heap", String(fixture.processID)])
        if running.status != 0 {
            #expect(running.status == 2)
            #expect(running.errors.hasPrefix("typeinfo: process \(fixture.processID): "), "\(running.errors)")
            #expect(
                running.errors.contains(": its heap kept changing while typeinfo looked for the allocator's arenas ("), "\(running.errors)")
            let advice = ": run again, or with --pause to stop the process for the reading\n"
            #expect(running.errors.hasSuffix(advice))
        }
        // The process still runs after both readings.
        #expect(kill(fixture.processID, 0) == 0)
        #expect(try String(contentsOfFile: "/proc/\(fixture.processID)/stat", encoding: .utf8).contains(") T ") == false)
    }

    @Test func addressesLeadToObjectsOfTheirType() throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let spot = try #require(fixture.report.sample("spot"))
        let dogs = try Self.census([String(fixture.processID), "--type", "LiveHeap.Dog", "--addresses", "3"])
        #expect(dogs.types.map(\.addresses) == [[UInt64(spot.address.dropFirst(2), radix: 16)!]])
        let orders = try Self.census([String(fixture.processID), "--type", "LiveHeap.Order", "--addresses", "4"])
        let addresses = try #require(orders.types.first?.addresses)
        #expect(addresses.count == 4)
        for address in addresses {
            let object = try DumpCommandTests.run(["object", String(fixture.processID), "0x" + String(address, radix: 16)])
            #expect(object.output.hasPrefix("0x\(String(address, radix: 16))  LiveHeap.Order  size "), "\(object.errors)")
        }
    }
}
