import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// `leaks`' marking on other glibc releases than the host's: `Fixtures/leak_process.c` run in a
/// Debian root as in a container, its own statement of what it holds the oracle. On Debian 13
/// (glibc 2.41) the marking is exact. On Debian 11 (glibc 2.31) glibc's thread lists lie in
/// libpthread, which typeinfo does not read: the ended threads' stacks are then roots, so a
/// leak whose address stays there is missed, but a held block is never called unreached.
@Suite("leaks' marking on other glibc releases, in a Debian root")
struct ForeignGlibcReachabilityTests {
    /// The fixture compiled inside the bullseye root with its gcc, at its path in the root.
    static let builtInBullseye = DebianRoot.compiled("leak_process", in: DebianRoot.bullseye)
    /// The host's build of the fixture, copied into the trixie root.
    static let installedInTrixie = DebianRoot.installed(HeapReachabilityTests.built, in: DebianRoot.trixie)

    /// The fixture started in its root and held stopped, with its threads and memory.
    static func stopped(_ built: Result<(root: String, executable: String), FixtureError>) throws -> (
        fixture: HeapReachabilityTests.Fixture, pause: ProcessPause, threads: [ThreadRegisters], memory: TargetMemory
    ) {
        let (root, executable) = try built.get()
        let fixture = try HeapReachabilityTests.Fixture(executable: executable, launcher: DebianRoot.container(root))
        let pause = try ProcessPause(processID: fixture.processID)
        let threads = try pause.threads()
        #expect(Set(threads.map(\.id)) == fixture.threadIDs)
        return (fixture, pause, threads, try TargetMemory(.process(fixture.processID)))
    }

    @Test func glibc241InAContainerIsMarkedExactlyAsTheProcessSays() throws {
        let (fixture, pause, threads, memory) = try Self.stopped(Self.installedInTrixie)
        defer { pause.resume() }
        let stacks = try GlibcThreadStacks(memory)
        HeapReachabilityTests.checkStacks(stacks, threads: threads, fixture)
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks)
        HeapReachabilityTests.check(reachability, fixture)
    }

    @Test func glibc231InAContainerNeverCallsAHeldBlockUnreached() throws {
        let (fixture, pause, threads, memory) = try Self.stopped(Self.builtInBullseye)
        defer { pause.resume() }
        // The lists' absence is said, with the release that keeps them elsewhere.
        #expect {
            _ = try GlibcThreadStacks(memory)
        } throws: { error in
            "\(error)".contains("glibc 2.34 and later do; earlier releases keep the lists in libpthread")
        }
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: nil)
        for (address, how) in fixture.reachable {
            let index = reachability.addresses.firstIndex(of: address)
            #expect(index != nil, "0x\(String(address, radix: 16)) (\(how)) is not an allocation in use")
            if let index { #expect(reachability.isReachable(index), "0x\(String(address, radix: 16)), held by a \(how), is unreached") }
        }
        #expect(Set(fixture.reachable.map(\.how)).isSuperset(of: ["global", "chain", "stack", "thread-local", "mapping", "vector"]))
        // Leaks whose addresses no stack keeps are still found: the cycles' blocks hold each
        // other, not the leaker's frames.
        let unreached = fixture.leaked.filter { address in
            reachability.addresses.firstIndex(of: address).map { !reachability.isReachable($0) } ?? false
        }
        #expect(unreached.count > 0, "none of the \(fixture.leaked.count) leaked blocks is unreached")
    }
}
