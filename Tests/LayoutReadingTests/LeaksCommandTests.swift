import BinaryFixtures
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `typeinfo leaks`: what `Fixtures/LiveLeaks/main.swift` says it leaked (two-object retain
/// cycles, objects retained and forgotten, cycles weak references also point at) and what it
/// keeps reachable (from a global, a thread's stack, a thread-specific value, a malloc'd block)
/// is the oracle, by PID and from a gcore core of the same process.
@Suite("typeinfo leaks", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct LeaksCommandTests {
    struct Report: Decodable {
        var pid: Int32
        var leaked: [String: [String]]
        var leakedContexts: Int
        var leakedByteArrays: Int
        var closureCaptures: [String]
        var reachable: [String: [String]]
    }

    /// What a `leaks --format json` document lists: each Swift type's addresses, and how many
    /// allocations in all.
    struct Listing {
        var addressesByType: [String: Set<UInt64>] = [:]
        var everyAddress: Set<UInt64> = []
        var leakedAllocations = 0
        /// How many closure contexts or boxes are listed.
        var contexts = 0
        /// Each context entry's capture types (`[]` for one whose captures were not laid out).
        var contextCaptureTypes: [[String]] = []
        /// The cycles' shapes and counts.
        var cycles: [(shape: [String], count: Int)] = []
        var stopSeconds: Double?

        init(_ json: String) throws {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let leaks = try #require(document["leaks"] as? [[String: Any]])
            for entry in leaks {
                let addresses = Set((entry["addresses"] as? [NSNumber] ?? []).map(\.uint64Value))
                everyAddress.formUnion(addresses)
                if let type = entry["swiftType"] as? String { addressesByType[type, default: []].formUnion(addresses) }
                if entry["swiftContextCaptures"] != nil {
                    contexts += entry["count"] as? Int ?? 0
                    contextCaptureTypes.append(entry["captureTypes"] as? [String] ?? [])
                }
            }
            for cycle in document["cycles"] as? [[String: Any]] ?? [] {
                cycles.append((cycle["shape"] as? [String] ?? [], cycle["count"] as? Int ?? 0))
            }
            leakedAllocations = (document["totals"] as? [String: Any])?["leakedAllocations"] as? Int ?? -1
            stopSeconds = (document["target"] as? [String: Any])?["pauseSeconds"] as? Double
        }
    }

    static func hex(_ text: String) -> UInt64 { UInt64(text.dropFirst(2), radix: 16) ?? 0 }

    /// Exactly the leaked objects, by type and address, and no other allocation.
    static func check(_ listing: Listing, _ report: Report, _ source: String) {
        for (type, addresses) in report.leaked {
            #expect(listing.addressesByType[type] == Set(addresses.map(hex)), "\(source): \(type)")
        }
        let reachable = Set(report.reachable.values.joined().map(hex))
        #expect(listing.everyAddress.isDisjoint(with: reachable), "\(source): a reachable object is listed")
        #expect(
            listing.leakedAllocations == report.leaked.values.reduce(0) { $0 + $1.count } + report.leakedContexts + report.leakedByteArrays,
            "\(source)")
        #expect(listing.addressesByType["Swift._ContiguousArrayStorage<Swift.UInt8>"]?.count == report.leakedByteArrays, "\(source)")
        #expect(listing.contexts == report.leakedContexts && report.leakedContexts > 0, "\(source)")
        // The contexts' captures are laid out by the reflection library, named as the runtime
        // names their types, and the owners' cycle is drawn through the capture of the owner,
        // a reference.
        #expect(listing.contextCaptureTypes == [report.closureCaptures], "\(source)")
        let owners = listing.cycles.filter { $0.shape.first == "LiveLeaks.ClosureOwner.callback" }
        #expect(owners.map(\.count) == [report.leaked["LiveLeaks.ClosureOwner"]?.count ?? -1], "\(source): \(listing.cycles)")
        let context = owners.first?.shape.dropFirst().first ?? ""
        #expect(
            context.hasPrefix("closure context or box (captured: " + report.closureCaptures.joined(separator: ", ") + "; of ")
                && context.hasSuffix(") capture 0 (captured \(report.closureCaptures[0]))"), "\(source): \(context)")
        #expect(owners.first?.shape.last == "LiveLeaks.ClosureOwner", "\(source)")
        #expect(
            Set([
                "global", "stack", "thread-specific", "malloc", "weakly-also", "actor", "task-local", "bits-also", "bit-pattern",
                "existential", "enum-payload",
            ]) == Set(report.reachable.keys))
    }

    @Test(arguments: FixtureLinking.allCases)
    func listsExactlyTheLeakedObjectsByProcessAndFromItsCore(_ linking: FixtureLinking) throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: linking)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let live = try DumpCommandTests.run(["leaks", String(fixture.processID), "--format", "json", "--addresses", "100"])
        #expect(live.status == 0, "\(live.errors)")
        let listing = try Listing(live.output)
        Self.check(listing, report, "process")
        #expect(listing.stopSeconds.map { $0 > 0 } == true)
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let dumped = try DumpCommandTests.run(["leaks", core, "--format", "json", "--addresses", "100"])
        #expect(dumped.status == 0, "\(dumped.errors)")
        Self.check(try Listing(dumped.output), report, "core")
    }

    @Test func textSaysWhyTheProcessIsStoppedAndListsByType() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        let result = try DumpCommandTests.run(["leaks", String(fixture.processID)])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("process \(fixture.processID) (LiveLeaks"), "\(result.output)")
        #expect(
            lines[0].hasSuffix(
                "leaks holds the process still while it marks what the roots reach, since a pointer moved during the marking could make a reachable allocation look leaked"
            ))
        #expect(lines[0].contains("read while paused (stopped for "))
        #expect(lines[4] == "count  bytes  type")
        for (type, addresses) in report.leaked {
            let row = lines.first { $0.hasSuffix("  " + type) }
            #expect(row?.split(separator: " ").first.map(String.init) == String(addresses.count), "\(type)")
        }
    }

    /// A process stopped by job control is left stopped, and its registers cannot be asked for:
    /// one line says so and what to do.
    @Test func aProcessFoundStoppedIsRefusedWithWhatToDo() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: .dynamic)
        defer { fixture.finish() }
        _ = try fixture.readReport()
        kill(fixture.processID, SIGSTOP)
        defer { kill(fixture.processID, SIGCONT) }
        // Stopping takes effect when the kernel next schedules each thread.
        for _ in 0..<200 where !Self.allThreadsStopped(fixture.processID) { usleep(10_000) }
        let result = try DumpCommandTests.run(["leaks", String(fixture.processID)])
        #expect(result.status == 2)
        #expect(
            result.errors
                == "typeinfo: process \(fixture.processID): the registers of its threads could not be read: it was stopped already (job control), and typeinfo leaves a stopped process as it is rather than hold it with ptrace; let it run (kill -CONT \(fixture.processID)) and run again, or read a core of it (gcore \(fixture.processID))\n"
        )
    }

    static func allThreadsStopped(_ processID: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(processID)/task")) ?? []
        return !tasks.isEmpty
            && tasks.allSatisfy { task in
                let stat = (try? String(contentsOfFile: "/proc/\(processID)/task/\(task)/stat", encoding: .utf8)) ?? ""
                return stat.split(separator: ")").last?.dropFirst().first == "T"
            }
    }

    @Test func aTargetThatIsNotThereIsOneLine() throws {
        let result = try DumpCommandTests.run(["leaks", "/nonexistent/core.1"])
        #expect(result.status == 2)
        #expect(result.errors.hasPrefix("typeinfo: /nonexistent/core.1"), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1)
    }
}
