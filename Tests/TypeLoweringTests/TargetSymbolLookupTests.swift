import BinaryFixtures
import BinaryInfo
import Foundation
import Testing

@testable import TypeLowering

/// The runtime variables the reflection library asks the worker for are found in the target, at
/// the address the runtime's own image holds them: the oracle is binutils' `nm` on the image's
/// file, plus the image's load bias in the target.
@Suite(
    "Target symbol lookup for the reflection library",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"), "binutils' nm is not installed: run Tools/setup"))
struct TargetSymbolLookupTests {
    @Test(arguments: FixtureLinking.allCases)
    func runtimeVariablesAreFoundInTheImageThatHoldsThem(_ linking: FixtureLinking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        let memory = try TargetMemory(.process(fixture.processID))
        let mirror = try TargetMirrorMemory(memory: memory)
        // libswiftCore's allocator variable, in libswiftCore.so or (static) in the executable.
        let holder = try #require(
            memory.images.first { linking == .dynamic ? $0.mappedPath.hasSuffix("/libswiftCore.so") : $0.mappedPath == fixture.executable })
        let name = "_swift_debug_metadataAllocationIterationEnabled"
        let listing = try FixtureToolchain.run("/usr/bin/nm", [linking == .dynamic ? "-D" : "-a", holder.mappedPath], in: "/")
        let line = try #require(listing.split(separator: "\n").first { $0.hasSuffix(" " + name) })
        let value = try #require(UInt64(line.split(separator: " ")[0], radix: 16))
        let expected = value + holder.loadBias
        #expect(mirror.symbolAddress(name) == expected)
        // Started without the variable's environment switch, the runtime left it 0.
        #expect(try memory.read(UInt8.self, at: expected, what: name) == 0)
        #expect(mirror.symbolAddress("_swift_no_such_runtime_variable") == nil)
    }
}
