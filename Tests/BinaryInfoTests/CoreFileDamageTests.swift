import BinaryFixtures
import Foundation
import Testing
import TypeLayout

@testable import BinaryInfo

/// Core files that are damaged, change while they are read, are larger than 2 GiB, or are not
/// files at all: each gets one message naming the file and the place, never a crash or a hang.
@Suite("Core files that are damaged, changing or odd", .enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
struct CoreFileDamageTests {
    /// A gcore core of a fixture process (ended once dumped), and the process's stated buffer.
    static func dump() throws -> (path: String, target: TargetProcess) {
        let target = try TargetProcess()
        let path = try CoreDump.make(of: target.processID)
        target.finish()
        return (path, target)
    }

    /// A copy of `path` next to it, named with `suffix`.
    static func copy(_ path: String, suffix: String) throws -> String {
        let copy = path + suffix
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }

    /// The little-endian word of `width` bytes at `offset` of `data`.
    static func word(_ data: Data, at offset: Int, width: Int = 8) -> UInt64 {
        (0..<width).reduce(0) { $0 | UInt64(data[offset + $1]) << (8 * $1) }
    }

    /// Writes `value` (little-endian, `width` bytes) at `offset` of the file at `path`.
    static func patch(_ path: String, at offset: UInt64, _ value: UInt64, width: Int = 8) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: withUnsafeBytes(of: value.littleEndian) { Data($0.prefix(width)) })
    }

    @Test func coreThatShrinksWhileReadIsAnErrorNamingTheOffset() throws {
        let (path, target) = try Self.dump()
        let copy = try Self.copy(path, suffix: ".shrinking")
        let core = try CoreFile(path: copy)
        let segment = try #require(
            core.segments.first { $0.address <= target.bufferAddress && target.bufferAddress < $0.address + $0.fileSize })
        // The core is cut inside the buffer's segment after it was opened, as a dump still being written or replaced would be.
        let cut = segment.offset + (target.bufferAddress - segment.address)
        #expect(truncate(copy, off_t(cut)) == 0)
        do {
            _ = try core.bytes(at: target.bufferAddress, count: target.buffer.count)
            Issue.record("a read past the core's new end succeeded")
        } catch {
            let expected = BinaryInfoError.coreChangedWhileRead(
                path: copy, segmentAddress: segment.address, neededSize: segment.offset + segment.fileSize, fileSize: cut)
            #expect(error == expected)
            #expect(
                error.description
                    == "\(copy): the core file ends at byte \(cut), its segment for 0x\(String(segment.address, radix: 16)) needs up to \(segment.offset + segment.fileSize): it was cut short or changed while read"
            )
        }
        // Through the target reader too, whose other reads are served from blocks already read.
        let memory = try TargetMemory(core: core)
        #expect(throws: BinaryInfoError.self) { try memory.bytes(at: target.bufferAddress, count: 64, what: "buffer") }
    }

    @Test func coreBeyondTwoGiBIsRead() throws {
        let (path, target) = try Self.dump()
        let whole = try CoreFile(path: path)
        // A sparse copy whose last stored segment's bytes sit past 3 GiB (where a big process's
        // last segments are), its program header pointing there.
        let segment = try #require(whole.segments.last { $0.fileSize > 0 })
        let copy = try Self.copy(path, suffix: ".large")
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let far: UInt64 = 3 << 30
        let bytes = try whole.bytes(at: segment.address, count: Int(segment.fileSize))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        try handle.seek(toOffset: far)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let headers = Self.word(data, at: 32)
        let headerIndex = try #require(
            (0..<Int(Self.word(data, at: 56, width: 2))).first { header in
                let base = Int(headers) + header * 56
                return Self.word(data, at: base, width: 4) == 1 && Self.word(data, at: base + 16) == segment.address
            })
        try Self.patch(copy, at: headers + UInt64(headerIndex) * 56 + 8, far)
        let large = try CoreFile(path: copy)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? UInt64)
        #expect(size > far)
        #expect(try large.bytes(at: segment.address, count: bytes.count) == bytes)
        #expect(try large.bytes(at: target.bufferAddress, count: target.buffer.count) == target.buffer)
        // Its images and heap are read as the original's.
        #expect(try TargetMemory(core: large).images.map(\.filePath) == TargetMemory(core: whole).images.map(\.filePath))
    }

    @Test func nonRegularFilesAreRefusedAtOnce() throws {
        let directory = ScratchDirectory.path(named: "cores")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fifo = directory + "/fifo-\(UUID().uuidString)"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        // A FIFO with no writer would block a plain open(2) forever: the check runs on its own
        // thread so that a regression fails here rather than hanging the test run.
        // The semaphore orders the thread's write before the read here.
        final class Outcome: @unchecked Sendable { var result: Result<CoreFile, BinaryInfoError>? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.result = Result { () throws(BinaryInfoError) in try CoreFile(path: fifo) }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + 20) == .success else {
            Issue.record("opening a FIFO as a core blocked")
            return
        }
        guard case .failure(let error) = outcome.result else {
            Issue.record("a FIFO was read as a core, or its open blocked")
            return
        }
        #expect(error == BinaryInfoError.notRegularFile(path: fifo, kind: .fifo))
        #expect(error.description == "\(fifo): is a FIFO (named pipe), not a regular file: give an ELF file or a core file")
        #expect(!CoreFile.isCoreFile(atPath: fifo))
        #expect(throws: BinaryInfoError.notRegularFile(path: "/dev/null", kind: .characterDevice)) { try CoreFile(path: "/dev/null") }
        #expect(throws: BinaryInfoError.isDirectory(path: directory)) { try CoreFile(path: directory) }
        // The image files' reader shares the check.
        #expect(throws: BinaryInfoError.notRegularFile(path: fifo, kind: .fifo)) { try ImageLoader.readFile(fifo) }
    }

    @Test func coreCutInsideItsProgramHeadersIsCalledTruncated() throws {
        let (path, _) = try Self.dump()
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let headers = Self.word(data, at: 32)
        let count = Self.word(data, at: 56, width: 2)
        let cut = headers + 56 * (count / 2) + 10
        let short = path + ".headers-cut"
        try data.prefix(Int(cut)).write(to: URL(fileURLWithPath: short))
        do {
            _ = try CoreFile(path: short)
            Issue.record("a core cut inside its program headers was read")
        } catch {
            #expect(error == .coreHeadersOutsideFile(path: short, offset: headers, size: count * 56, fileSize: cut))
            #expect(
                error.description
                    == "\(short): truncated core file: it ends at byte \(cut), inside its program headers (\(count * 56) bytes at offset \(headers)) (the dump was cut short: check the core size limit, `ulimit -c`, and free disk space)"
            )
        }
        // e_phoff past the end of the file.
        let corrupt = try Self.copy(path, suffix: ".phoff")
        let bogus: UInt64 = 1 << 40
        try Self.patch(corrupt, at: 32, bogus)
        do {
            _ = try CoreFile(path: corrupt)
            Issue.record("a core whose e_phoff is corrupt was read")
        } catch {
            #expect(error == .coreHeadersOutsideFile(path: corrupt, offset: bogus, size: count * 56, fileSize: UInt64(data.count)))
            #expect(
                error.description
                    == "\(corrupt): truncated or malformed core file: its program headers (\(count * 56) bytes at offset \(bogus)) start past its end at byte \(data.count) (e_phoff is corrupt, or the dump was cut short)"
            )
        }
    }

    @Test func segmentsWhoseBytesWereSwappedAreRefused() throws {
        let (path, _) = try Self.dump()
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let headers = Int(Self.word(data, at: 32))
        let loads = (0..<Int(Self.word(data, at: 56, width: 2))).map { headers + $0 * 56 }.filter {
            Self.word(data, at: $0, width: 4) == 1 && Self.word(data, at: $0 + 32) > 0
        }
        // Two stored segments of one size, their file offsets exchanged: each reads as the other's memory.
        let pair = try #require(
            loads.indices.lazy.compactMap { first in
                loads[(first + 1)...].first { Self.word(data, at: $0 + 32) == Self.word(data, at: loads[first] + 32) }.map {
                    (loads[first], $0)
                }
            }.first)
        let swapped = try Self.copy(path, suffix: ".swapped")
        let (firstOffset, secondOffset) = (Self.word(data, at: pair.0 + 8), Self.word(data, at: pair.1 + 8))
        try Self.patch(swapped, at: UInt64(pair.0 + 8), secondOffset)
        try Self.patch(swapped, at: UInt64(pair.1 + 8), firstOffset)
        let size = Self.word(data, at: pair.0 + 32)
        let (lowAddress, highAddress) = (Self.word(data, at: pair.0 + 16), Self.word(data, at: pair.1 + 16))
        do {
            _ = try CoreFile(path: swapped)
            Issue.record("a core with two segments' bytes swapped was read")
        } catch {
            // Named: the lower-addressed segment now stored at the higher offset, and the next one stored.
            guard case .malformedELF(swapped, let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(detail.hasPrefix("the core's segments at 0x"))
            #expect(
                detail.hasSuffix(
                    "are stored out of address order or share bytes, which no dump writes: the core was edited or its program headers are damaged"
                ))
            #expect(detail.contains("0x\(String(lowAddress, radix: 16)) (file bytes \(secondOffset)..<\(secondOffset + size))"))
            _ = highAddress
        }
    }

    @Test func heapAdviceFitsTheTarget() {
        let core = BinaryInfoError.malformedHeap(path: "/tmp/core.1", what: "chunk", address: 0x10, detail: "size 3")
        #expect(
            core.description
                == "/tmp/core.1: malformed malloc heap: chunk at 0x10: size 3 (the heap was corrupt when the process was dumped, or the core file was damaged since)"
        )
        #expect(!core.description.contains("stop") && !core.description.contains("--pause"))
        let process = BinaryInfoError.malformedHeap(path: "process 12", what: "chunk", address: 0x10, detail: "size 3")
        #expect(
            process.description.hasSuffix(
                "(the heap changed while it was read, or is corrupt: read a core file of it, or stop the process while it is read)"))
        #expect(
            TargetSpecifier.namesProcess("process 12") && !TargetSpecifier.namesProcess("process 1x")
                && !TargetSpecifier.namesProcess("/tmp/process 12"))
    }
}
