import BinaryFixtures
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `LiveRetainedReader` (`typeinfo heap --retained`'s library entry point) as a Swift 5 language
/// mode client calls it, against the retained bytes the LiveRetained fixture computed itself.
@Suite(
    "Retained sizes from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct LiveRetainedSwift5Tests {
    struct Report: Decodable {
        var pid: Int32
        var retained: [String: Int]
    }

    @Test func retainedBytesFromACore() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveRetained", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let census = try LiveRetainedReader.census(LiveTargetOptions(target: .core(path: core)))
        for (type, bytes) in report.retained {
            #expect(census.types.first { $0.type == type }?.retainedBytes == bytes, "\(type)")
        }
        let retained = try #require(census.retained)
        #expect(retained.reachableAllocations <= census.totals.allocations)
        let sorted = census.selecting(order: .retained)
        #expect(sorted.types.map { $0.retainedBytes ?? -1 } == sorted.types.map { $0.retainedBytes ?? -1 }.sorted(by: >))
    }
}
