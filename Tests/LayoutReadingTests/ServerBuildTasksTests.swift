import BinaryFixtures
import Foundation
import Testing
import TypeLayout

/// `typeinfo tasks` and `typeinfo dump --pid` on a server exactly as SwiftPM builds it
/// (`swift build -c release`, plain and `--static-swift-stdlib`, no other flags): the LoadServer
/// fixture's report (its parked tasks, its ledger actors' addresses, the generic instantiation it
/// made and `MemoryLayout`'s numbers for it) is the oracle.
///
/// The static build's linker (`--gc-sections`) drops the runtime's debug variables; the readers
/// find their values in the binary's symbol table and this toolchain's runtime instead. The
/// server runs quiet (`LOAD_SERVER_WORKERS=0`): a heap walked while every core allocates is
/// another reader's concern.
@Suite(
    "tasks and dump --pid on a SwiftPM release build", .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct ServerBuildTasksTests {
    static let quiet = ["LOAD_SERVER_WORKERS": "0"]

    @Test(arguments: FixtureLinking.allCases)
    func everyParkedTaskAndLedgerActor(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking, environment: Self.quiet)
        defer { server.finish() }
        let report = try TasksCommandTests.report([String(server.processID)])
        let parked = report.tasks.filter { $0.resumeFunction == server.report.parkedFunction }
        #expect(parked.count == server.report.parked, "\(linking)")
        #expect(parked.allSatisfy { $0.state == "suspended" && !$0.isCancelled && $0.parent == nil }, "\(linking)")
        // A quiet server runs no other task.
        #expect(report.tasks.count == server.report.parked, "\(linking)")
        let ledgers = report.actors.filter { $0.type == server.report.ledgerType }
        #expect(Set(ledgers.map(\.address)) == Set(server.report.ledgerAddresses), "\(linking)")
        #expect(ledgers.allSatisfy { $0.state == "idle" && $0.queuedJobs == 0 }, "\(linking)")
    }

    @Test func aCoreOfTheStaticBuildReadsTheSame() throws {
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let server = try LoadServerFixture(.staticStdlib, environment: Self.quiet)
        defer { server.finish() }
        let core = try CoreDump.make(of: server.processID)
        let report = try TasksCommandTests.report([core])
        #expect(
            report.tasks.filter { $0.resumeFunction == server.report.parkedFunction && $0.state == "suspended" }.count
                == server.report.parked)
        #expect(
            Set(report.actors.filter { $0.type == server.report.ledgerType }.map(\.address)) == Set(server.report.ledgerAddresses))
    }

    /// A stripped copy (no `.symtab`) exports none of the runtime: whether it holds the
    /// concurrency runtime cannot be told, and the message says so rather than "not using".
    @Test func aStrippedStaticBuildIsNotSaidToUseNoConcurrency() throws {
        let directory = ScratchDirectory.path(named: "stripped-load-server")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let copy = directory + "/LoadServer"
        try? FileManager.default.removeItem(atPath: copy)
        _ = try FixtureToolchain.run("/bin/cp", [try LoadServerFixture.product(.staticStdlib), copy], in: "/")
        _ = try FixtureToolchain.run("/usr/bin/strip", ["--strip-all", copy], in: "/")
        let server = try LiveFixtureProcess<LoadServerReport>(
            executable: copy, environment: Self.quiet.merging(["LOAD_SERVER_PARKED": "10"]) { _, new in new })
        defer { server.finish() }
        _ = try server.readReport()
        let result = try DumpCommandTests.run(["tasks", String(server.processID)])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.errors
                == "typeinfo: process \(server.processID): cannot tell whether it uses Swift concurrency: libswift_Concurrency is not loaded, and its executable \(copy) is stripped (no .symtab) and exports none of the runtime, so whether it holds the concurrency runtime is unknown\n"
        )
    }

    @Test(arguments: FixtureLinking.allCases)
    func theTextReportNamesTheParkingFunction(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking, environment: Self.quiet)
        defer { server.finish() }
        let result = try DumpCommandTests.run(["tasks", String(server.processID)])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("\n\(server.report.parked) tasks suspended in \(server.report.parkedFunction), 0 cancelled\n"))
        #expect(result.output.contains("\n\(server.report.ledgers) actors \(server.report.ledgerType) idle\n"))
        #expect(!result.output.contains("not using Swift concurrency"))
    }

    @Test(arguments: FixtureLinking.allCases)
    func everyInstantiationWhenTheRuntimeListsThem(_ linking: FixtureLinking) throws {
        var environment = Self.quiet
        environment["SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION"] = "1"
        let server = try LoadServerFixture(linking, environment: environment)
        defer { server.finish() }
        let documents = try DumpTargetCommandTests.documents(["--pid", String(server.processID)])
        let instantiations = try #require(documents.last)
        #expect(instantiations.image.path == "generic instantiations in process \(server.processID)")
        // The runtime's list, not the heap's: no note says the list is limited.
        #expect(!instantiations.image.notes.contains { $0.text.hasPrefix("only what the heap shows") }, "\(instantiations.image.notes)")
        let pair = try #require(instantiations.types.first { $0.name == server.report.stablePairType }, "\(linking)")
        #expect(pair.size == server.report.stablePairSize)
        #expect(pair.alignment == server.report.stablePairAlignment)
        #expect(pair.stride == server.report.stablePairStride)
        #expect(pair.fields.map(\.name) == ["first", "second"])
        #expect(pair.fields.last?.offset == server.report.stablePairSecondOffset)
        #expect(instantiations.types.contains { $0.name == server.report.stableBoxType })
        // Beyond what the heap reaches: the standard library's instantiations, laid out too.
        #expect(instantiations.types.contains { $0.name.hasPrefix("Swift.") && $0.size != nil })
    }
}
