import BinaryFixtures
import Foundation
import Testing

@_spi(Fuzzing) @testable import BinaryInfo

/// A core whose memory changes while it is read (``CoreFile/init(bytes:name:changingAfterReads:seed:)``,
/// the fuzz target's changing mode): the heap walk, read as a running process's is and strictly,
/// ends every time, with a count or one error naming the core, never a crash or a hang.
@Suite("A core whose bytes change while it is read", .enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
struct ChangingCoreTests {
    static let seeds: ClosedRange<UInt64> = 1...100

    @Test func heapWalksEndWhateverChangesUnderThem() throws {
        let (path, _) = try CoreFileDamageTests.dump()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Unchanged, both walks find the same chunks: the changes are what the seeds vary.
        let stable = try Self.chunks(GlibcHeap(TargetMemory(core: CoreFile(bytes: bytes, name: path))))
        let unchanged = try CoreFile(bytes: bytes, name: path, changingAfterReads: .max, seed: 1)
        #expect(try Self.chunks(GlibcHeap(TargetMemory(core: unchanged), changing: true)) == stable)
        #expect(stable > 0)
        let clock = ContinuousClock()
        var walked = 0
        var failed = 0
        for seed in Self.seeds {
            for changing in [true, false] {
                let core = try CoreFile(bytes: bytes, name: path, changingAfterReads: Int(seed % 40), seed: seed)
                let start = clock.now
                do {
                    let memory = try TargetMemory(core: core)
                    _ = try GlibcHeap(memory, changing: changing).forEachChunk { _ in }
                    walked += 1
                } catch {
                    failed += 1
                    #expect(error.description.hasPrefix(path + ": "), "seed \(seed): \(error)")
                }
                #expect(clock.now - start < .seconds(30), "seed \(seed), changing \(changing): the walk took \(clock.now - start)")
            }
        }
        #expect(walked + failed == 2 * Self.seeds.count)
    }

    /// How many chunks in use the walk meets.
    static func chunks(_ heap: GlibcHeap) throws(BinaryInfoError) -> Int {
        var count = 0
        _ = try heap.forEachChunk { _ in count += 1 }
        return count
    }
}
