import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// The heap walk on other glibc releases than the host's: the C heap fixture run in a Debian root
/// as in a container (``DebianRoot/container(_:)``: its C library is the root's, at a path where
/// the host may have its own), its own statement of its heap the oracle. Debian 11's glibc 2.31 is older than any
/// Swift program runs on, so the fixture is compiled there with the root's gcc; Debian 13's 2.41
/// runs the host's build (its symbol versions are older than 2.41).
@Suite("glibc heap walk on other releases, in a Debian root")
struct ForeignGlibcHeapTests {
    /// The fixture compiled inside the bullseye root, at its path in the root.
    static let builtInBullseye = DebianRoot.compiled("heap_process", in: DebianRoot.bullseye)
    /// The host's build of the fixture, copied into the trixie root.
    static let installedInTrixie = DebianRoot.installed(HeapProcess.built, in: DebianRoot.trixie)

    static func fixture(_ release: String) throws -> (root: String, executable: String) {
        try (release == DebianRoot.bullseye ? builtInBullseye : installedInTrixie).get()
    }

    @Test(arguments: [("2.31", DebianRoot.bullseye), ("2.41", DebianRoot.trixie)])
    func heapInAContainerIsWhatTheProcessStates(_ release: String, _ name: String) throws {
        let (root, executable) = try Self.fixture(name)
        let target = try HeapProcess(executable: executable, launcher: DebianRoot.container(root))
        defer { target.finish() }
        let heap = try GlibcHeap(TargetMemory(.process(target.processID)))
        #expect(heap.release == release)
        // The release read is the root's: the file read was the one the process loaded (for
        // Debian 13, at the path where the host has its own libc.so.6).
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func coreWhoseLibraryMovedIsReadWithTheImagePath() throws {
        let (root, executable) = try Self.fixture(DebianRoot.bullseye)
        let target = try HeapProcess(executable: executable, launcher: DebianRoot.container(root))
        defer { target.finish() }
        let path = try CoreDump.make(of: target.processID)
        // The core names the root's files by their paths inside it; here those are other files.
        #expect(throws: BinaryInfoError.self) { try TargetMemory(.core(path: path)) }
        let heap = try GlibcHeap(TargetMemory(.core(path: path), imageSearchPaths: [root]))
        #expect(heap.release == "2.31")
        let (chunks, totals) = try walk(heap)
        target.check(chunks, totals)
    }
}
