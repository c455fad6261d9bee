import Foundation
import Testing
import TypeLayout

@testable import BinaryInfo

/// Many glibc chunks of varied sizes, some free (their successor's `PREV_INUSE` clear and
/// `prev_size` set), built in this test's own memory and read through this process's memory
/// like any target's: what the walk must find is what was written.
private final class ManyChunks {
    static let bytes = 256 << 10
    let base: UnsafeMutableRawPointer
    /// Each chunk written: address, size, whether the chunk after it says it is in use, first word.
    var written: [(address: UInt64, size: UInt64, inUse: Bool, firstWord: UInt64)] = []
    let top: UInt64

    init() throws {
        memory = try Self.openThisProcess()
        base = UnsafeMutableRawPointer.allocate(byteCount: Self.bytes, alignment: 4096)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: Self.bytes)
        let start = UInt64(UInt(bitPattern: base))
        var address = start
        var index: UInt64 = 0
        var previous: (size: UInt64, inUse: Bool)?
        // Room for the top chunk's header after the last chunk.
        while true {
            // Sizes from 32 bytes to 1 KiB, in no order, so that chunks straddle any window's end.
            let size = 32 + ((index &* 2_654_435_761) % 63) * 16
            guard address + size + 32 <= start + UInt64(Self.bytes) else { break }
            let inUse = index % 7 != 3
            var field = size
            if previous?.inUse ?? true { field |= GlibcMallocLayout.previousInUse }
            if let previous, !previous.inUse { Self.store(previous.size, at: address, base: base) }
            Self.store(field, at: address + 8, base: base)
            let first = 0xC0DE_0000 + index
            Self.store(first, at: address + 16, base: base)
            written.append((address, size, inUse, first))
            previous = (size, inUse)
            address += size
            index += 1
        }
        top = address
        var field = (start + UInt64(Self.bytes) - top)
        if previous?.inUse ?? true { field |= GlibcMallocLayout.previousInUse }
        if let previous, !previous.inUse { Self.store(previous.size, at: top, base: base) }
        Self.store(field, at: top + 8, base: base)
    }

    deinit { base.deallocate() }

    /// This process's memory; opened again when a library another test loads meanwhile was
    /// half mapped when the maps were read (its build id then reads as another build's).
    static func openThisProcess() throws -> TargetMemory {
        var attempt = 1
        while true {
            do {
                return try TargetMemory(.process(getpid()))
            } catch {
                guard case .imageDiffers = error, attempt < 5 else { throw error }
                attempt += 1
            }
        }
    }

    static func store(_ value: UInt64, at address: UInt64, base: UnsafeMutableRawPointer) {
        base.storeBytes(of: value, toByteOffset: Int(address - UInt64(UInt(bitPattern: base))), as: UInt64.self)
    }

    var segment: GlibcHeapSegment {
        let start = UInt64(UInt(bitPattern: base))
        return GlibcHeapSegment(firstChunk: start, end: top, endsAtTop: true, occupied: start..<(start + UInt64(Self.bytes)))
    }

    /// This process's memory, opened once for every walk of a test.
    let memory: TargetMemory

    func walk(windowSize: Int, readingAhead: Bool, changing: Bool) throws -> [GlibcChunkRecord] {
        let window = TargetWindow(target: memory, size: windowSize)
        window.readsAhead = readingAhead
        var visited: [GlibcChunkRecord] = []
        if changing {
            var changes = HeapReadChanges()
            _ = try window.walkWhileChanging(segment, arena: GlibcChangingArena(isMain: true) { nil }, changes: &changes) {
                visited.append($0)
            }
            #expect(changes.isEmpty)
        } else {
            _ = try window.walk(segment) { visited.append($0) }
        }
        // Windows smaller than the heap come from the reader (all but the first, when no chunk is
        // larger than a window; a chunk that jumps past the window read ahead makes the walk read).
        let windows = Self.bytes / windowSize
        if readingAhead, windows > 2 {
            #expect(window.windowsTakenAhead >= (windowSize >= 1024 ? windows - 2 : 1))
        } else {
            #expect(window.windowsTakenAhead == 0)
        }
        return visited
    }
}

@Suite("glibc heap walk reading the next window ahead")
struct GlibcWindowReadAheadTests {
    @Test(arguments: [256, 1000, 4096, 1 << 20])
    func everyChunkIsMetOnceWhateverTheWindow(windowSize: Int) throws {
        let heap = try ManyChunks()
        #expect(heap.written.count > 400)
        for changing in [false, true] {
            for readingAhead in [false, true] {
                let visited = try heap.walk(windowSize: windowSize, readingAhead: readingAhead, changing: changing)
                #expect(visited.map(\.address) == heap.written.map(\.address), "changing \(changing), reading ahead \(readingAhead)")
                #expect(visited.map(\.size) == heap.written.map(\.size))
                #expect(visited.map(\.markedInUse) == heap.written.map(\.inUse))
                #expect(visited.map(\.firstWord) == heap.written.map(\.firstWord))
            }
        }
    }

    @Test func aMalformedSizeIsTheSameErrorReadingAhead() throws {
        let heap = try ManyChunks()
        // A chunk far from the first window: a size that is not a chunk size.
        let broken = heap.written[heap.written.count * 3 / 4].address
        ManyChunks.store(0x1234_5673, at: broken + 8, base: heap.base)
        var messages: [String] = []
        for readingAhead in [false, true] {
            do {
                _ = try heap.walk(windowSize: 1024, readingAhead: readingAhead, changing: false)
                Issue.record("a malformed size was walked over")
            } catch {
                messages.append("\(error)")
            }
        }
        #expect(messages.count == 2 && messages[0] == messages[1])
        #expect(messages.first?.contains("0x\(String(broken, radix: 16))") == true)
        #expect(messages.first?.contains("its size field 0x12345673 is not a heap chunk's") == true)
    }
}
