import BinaryFixtures
import Foundation
import Synchronization
import Testing
import TypeLayout

@testable import BinaryInfo

/// The metadata decoders reading an image through a target's memory: a running process's or a
/// core's bytes at the image's load bias, with the layout from the file.
@Suite("Swift images read from a target's memory", .serialized)
struct TargetImageReadingTests {
    /// A target whose reads are counted (and, when `refusing`, refused as unmapped).
    final class WatchedTarget: ByteReader, Sendable {
        let memory: TargetMemory
        let refusing: Bool
        let reads = Mutex<(count: Int, lowest: UInt64, highest: UInt64)>((0, .max, 0))
        var path: String { memory.path }

        init(_ memory: TargetMemory, refusing: Bool = false) {
            self.memory = memory
            self.refusing = refusing
        }

        func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
            throws(BinaryInfoError)
        {
            reads.withLock { $0 = ($0.count + 1, min($0.lowest, address), max($0.highest, address)) }
            if refusing { throw .unmapped(path: path, what: what(), address: address, length: UInt64(destination.count)) }
            try memory.fetch(into: destination, from: address, what: what())
        }
    }

    /// The executable's types read through `memory` equal the file's, and include what the
    /// fixture printed it holds.
    static func checkSameTypes(_ memory: TargetMemory, _ fixture: LiveHeapFixture) throws {
        let executable = try #require(memory.images.first { $0.mappedPath == fixture.executable })
        let fromTarget = try BinaryImage.read(executable, in: memory, runtimeLibrary: nil)
        let fromFile = try BinaryImage.read(atPath: executable.filePath, runtimeLibrary: nil)
        #expect(fromTarget.document.types == fromFile.document.types)
        #expect(fromTarget.document.image.path == executable.mappedPath)
        let names = Set(fromTarget.document.types.map(\.name))
        for held in fixture.report.types {
            // `LiveHeap.Box<Swift.Int>` is declared as `LiveHeap.Box<T>`.
            let declared = held.type.split(separator: "<").first.map(String.init) ?? held.type
            #expect(names.contains { $0 == declared || $0.hasPrefix(declared + "<") }, "\(held.type)")
        }
    }

    @Test(arguments: LiveHeapFixture.Linking.allCases)
    func processImageReadsAsItsFile(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        try Self.checkSameTypes(try TargetMemory(.process(fixture.processID)), fixture)
    }

    @Test(.enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"), arguments: LiveHeapFixture.Linking.allCases)
    func coreImageReadsAsItsFile(_ linking: LiveHeapFixture.Linking) throws {
        let fixture = try LiveHeapFixture(linking)
        defer { fixture.finish() }
        try Self.checkSameTypes(try TargetMemory(.core(path: try CoreDump.make(of: fixture.processID))), fixture)
    }

    /// The bytes come from the target at the image's addresses, and a read the target refuses is
    /// an error naming the target and the address, not a fall back to the file.
    @Test func bytesComeFromTheTarget() throws {
        let fixture = try LiveHeapFixture(.dynamic)
        defer { fixture.finish() }
        let memory = try TargetMemory(.process(fixture.processID))
        let executable = try #require(memory.images.first { $0.mappedPath == fixture.executable })

        let watched = WatchedTarget(memory)
        let reading = try BinaryImage.read(
            executable.file, path: executable.mappedPath, runtimeLibrary: nil, loaded: .target(watched, bias: executable.loadBias))
        #expect(!reading.document.types.isEmpty)
        let reads = watched.reads.withLock { $0 }
        #expect(reads.count > reading.document.types.count)
        #expect(executable.addressRange.contains(reads.lowest) && executable.addressRange.contains(reads.highest))

        let refusing = WatchedTarget(memory, refusing: true)
        let error = #expect(throws: BinaryInfoError.self) {
            try BinaryImage.read(
                executable.file, path: executable.mappedPath, runtimeLibrary: nil, loaded: .target(refusing, bias: executable.loadBias))
        }
        let message = "\(error.map { String(describing: $0) } ?? "")"
        #expect(message.contains("process \(fixture.processID)"), "\(message)")
        let refused = refusing.reads.withLock { $0 }
        #expect(refused.count >= 1 && executable.addressRange.contains(refused.lowest))
        #expect(message.contains("0x" + String(refused.lowest, radix: 16)), "\(message)")
    }

    /// Bytes 0x10000..<0x10000+count, each its address's low byte; reads outside are unmapped.
    final class Pattern: ByteReader, Sendable {
        let start: UInt64 = 0x10000
        let count: UInt64
        let reads = Mutex(0)
        var path: String { "pattern" }

        init(count: UInt64) { self.count = count }

        func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
            throws(BinaryInfoError)
        {
            reads.withLock { $0 += 1 }
            guard address >= start, address + UInt64(destination.count) <= start + count else {
                throw .unmapped(path: path, what: what(), address: address, length: UInt64(destination.count))
            }
            for index in 0..<destination.count { destination[index] = UInt8(truncatingIfNeeded: address + UInt64(index)) }
        }
    }

    /// The block cache gives the bytes and errors of the reader under it, with one read a block.
    @Test func blockCacheGivesTheSameBytesAndErrors() throws {
        let size = CachingPolicy.imageSections.blockSize
        // Two whole blocks and part of a third: the third cannot be read whole.
        let pattern = Pattern(count: 2 * size + 100)
        let cached = CachingReader(pattern, policy: .imageSections)
        let pieces: [(UInt64, Int)] = [
            (0x10000, 8), (0x10000 + 5, 300), (0x10000 + size - 4, 8), (0x10000 + 2 * size + 10, 50), (0x10000, 8),
        ]
        for (address, count) in pieces {
            #expect(try cached.bytes(at: address, count: count, what: "piece") == pattern.bytes(at: address, count: count, what: "piece"))
        }
        // Beside the comparisons' own reads (one a piece): the first block read once for its two
        // pieces, the piece across blocks straight from the reader, the partial block tried once
        // and its piece then read straight.
        #expect(pattern.reads.withLock { $0 } == pieces.count + 1 + 1 + 2)
        #expect(throws: BinaryInfoError.unmapped(path: "pattern", what: "past the end", address: 0x10000 + 2 * size + 90, length: 20)) {
            try cached.bytes(at: 0x10000 + 2 * size + 90, count: 20, what: "past the end")
        }
    }
}
