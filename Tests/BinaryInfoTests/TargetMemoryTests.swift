import BinaryFixtures
import Foundation
import Testing
import TypeLayout

@testable import BinaryInfo

/// A running fixture process that states its own heap buffer (`Fixtures/target_process.c`).
final class TargetProcess {
    let process = Process()
    let processID: Int32
    let bufferAddress: UInt64
    /// The buffer's bytes, as the process printed them.
    let buffer: [UInt8]
    let executable: String

    static let built = build("target_process")

    /// Compiles `Fixtures/NAME.c` with the toolchain's clang into a scratch directory, as
    /// `output` (default NAME).
    static func build(_ name: String, arguments: [String] = [], output: String? = nil) -> Result<String, FixtureError> {
        Result {
            let directory = ScratchDirectory.path(named: name.replacingOccurrences(of: "_", with: "-"))
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let clang = URL(fileURLWithPath: FixtureToolchain.swiftc).deletingLastPathComponent().appendingPathComponent("clang").path
            let output = directory + "/" + (output ?? name)
            try FixtureToolchain.run(
                clang, ["-O1", "-g0"] + arguments + ["-o", output, FixtureToolchain.fixturesDirectory + "/\(name).c"], in: directory)
            return output
        }.mapError { $0 as? FixtureError ?? FixtureError(message: "\($0)") }
    }

    init() throws {
        executable = try Self.built.get()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            // availableData returns what one read gives; read(upToCount:) would wait for the whole count.
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard fields.count == 4, let processID = Int32(fields[0]), let address = UInt64(fields[1].dropFirst(2), radix: 16) else {
            throw FixtureError(message: "target_process printed \(String(decoding: line, as: UTF8.self).prefix(200))")
        }
        self.processID = processID
        bufferAddress = address
        let hex = Array(fields[3].utf8.filter { $0 != UInt8(ascii: "\n") })
        buffer = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    /// Ends it and waits for it to exit. SIGKILL: the test runner's ignored or blocked signals are
    /// inherited (SIGTERM may never arrive), and a pipe's end of file could be held open by another
    /// test's fixture that inherited it.
    func finish() {
        if process.isRunning { kill(processID, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { finish() } }
}

/// `gcore` from gdb (Tools/setup installs it), or nil.
let gcore = CoreDump.gcore

@Suite("Target readers: a live process's memory and maps, and core files")
struct TargetMemoryTests {
    @Test func processMemoryReadsWhatTheProcessHolds() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let memory = try ProcessMemory(processID: target.processID)
        #expect(try memory.bytes(at: target.bufferAddress, count: target.buffer.count) == target.buffer)
        // A read that starts inside the buffer and runs across it is still the process's bytes.
        #expect(try memory.bytes(at: target.bufferAddress + 100, count: 50) == Array(target.buffer[100..<150]))
        #expect(throws: BinaryInfoError.unmapped(path: "process \(target.processID)", what: "memory", address: 0x10, length: 8)) {
            try memory.bytes(at: 0x10, count: 8)
        }
        #expect(
            BinaryInfoError.unmapped(path: "process 7", what: "memory", address: 0x10, length: 8).description
                == "process 7: memory at 0x10 (8 bytes) is not in the target's memory")
    }

    @Test func recordsAreReadManyToACall() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let memory = try TargetMemory(.process(target.processID))
        // Readable pieces around unreadable ones (the first page, the top of user space, a piece
        // running off it), more than one system call takes, each as a single read gives it.
        let size = 16
        let readable = (0..<8).map { target.bufferAddress + UInt64($0 * size * 3) }
        let unreadable: [UInt64] = [0x10, 0x7FFF_FFFF_FFF8, 0x7FFF_FFFF_F000 - 8, UInt64.max - 4]
        let addresses = (0..<3000).map { index in
            index % 5 == 4 ? unreadable[index / 5 % unreadable.count] : readable[index % readable.count]
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: addresses.count * size, alignment: 8)
        defer { bytes.deallocate() }
        let read = try memory.fetchRecords(at: addresses, size: size, into: bytes)
        for (index, address) in addresses.enumerated() {
            let single = try? memory.bytes(at: address, count: size, what: "memory")
            #expect(read[index] == (single != nil), "0x\(String(address, radix: 16))")
            if let single { #expect(Array(bytes[index * size..<(index + 1) * size]) == single) }
        }
        #expect(read.filter { $0 }.count == addresses.count / 5 * 4)
        // Pieces close together are read as one span; a span that runs into unmapped memory is
        // read piece by piece: here in this process, a page whose next page is unmapped.
        let page = 4096
        let mapped = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        try #require(mapped != nil && mapped != MAP_FAILED)
        let pages = mapped!
        defer { munmap(pages, page) }
        munmap(pages + page, page)
        for offset in 0..<page { pages.storeBytes(of: UInt8(truncatingIfNeeded: offset), toByteOffset: offset, as: UInt8.self) }
        let own = try TargetMemory(.process(getpid()))
        let start = UInt64(UInt(bitPattern: pages))
        let near = [start + 4000, start + 4040, start + UInt64(page) - 8, start + 4064, start + 4000]
        let nearBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: near.count * size, alignment: 8)
        defer { nearBytes.deallocate() }
        #expect(try own.fetchRecords(at: near, size: size, into: nearBytes) == [true, true, false, true, true])
        #expect(Array(nearBytes[size..<2 * size]) == (4040..<4056).map { UInt8(truncatingIfNeeded: $0) })
        #expect(Array(nearBytes[4 * size..<5 * size]) == (4000..<4016).map { UInt8(truncatingIfNeeded: $0) })
    }

    @Test func mapsHoldTheBuffer() throws {
        let target = try TargetProcess()
        defer { target.finish() }
        let map = try MemoryMap(processID: target.processID)
        let mapping = try #require(map.mapping(containing: target.bufferAddress))
        #expect(mapping.isReadable && mapping.isWritable && !mapping.isFileBacked)
        #expect(map.mappings.contains { $0.isFileBacked && $0.isExecutable && $0.name == target.executable })
        #expect(map.mapping(containing: 0x10) == nil)
        #expect(throws: BinaryInfoError.self) { try MemoryMap(parsing: "55d0-55e0 rw-p 0 00:00\n", path: "maps") }
        do {
            _ = try MemoryMap(parsing: "7f00-7f10 r-xp 00000000 08:01 42 /bin/true\nnonsense\n", path: "process 9")
            Issue.record("a malformed line was accepted")
        } catch {
            #expect(
                error.description
                    == "process 9: malformed Swift metadata: maps line at 0x2: not 'start-end perms offset dev inode [name]': nonsense")
        }
    }

    @Test func missingAndExitedProcessesAreNamed() throws {
        #expect(throws: BinaryInfoError.noSuchProcess(path: "process 2147483647")) { try ProcessMemory(processID: .max) }
        #expect(BinaryInfoError.noSuchProcess(path: "process 5").description == "process 5: no such process")
        let target = try TargetProcess()
        let memory = try ProcessMemory(processID: target.processID)
        target.finish()
        #expect(throws: BinaryInfoError.processExited(path: "process \(target.processID)")) {
            try memory.bytes(at: target.bufferAddress, count: 8)
        }
        #expect(
            BinaryInfoError.processExited(path: "process 5").description == "process 5: the process exited while it was being read")
    }
}

@Suite("Core files", .enabled(if: gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
struct CoreFileTests {
    /// A gcore core of a fresh fixture process, and the process (left running by gcore).
    static func dump() throws -> (core: String, target: TargetProcess) {
        let target = try TargetProcess()
        return (try CoreDump.make(of: target.processID), target)
    }

    @Test func coreHoldsWhatTheProcessHeld() throws {
        let (path, target) = try Self.dump()
        defer { target.finish() }
        // gcore left the process running, its memory unchanged.
        #expect(target.process.isRunning)
        #expect(try ProcessMemory(processID: target.processID).bytes(at: target.bufferAddress, count: target.buffer.count) == target.buffer)
        let core = try CoreFile(path: path)
        #expect(try core.bytes(at: target.bufferAddress, count: target.buffer.count) == target.buffer)
        #expect(core.processID == target.processID)
        #expect(core.command == String(URL(fileURLWithPath: target.executable).lastPathComponent.prefix(15)))
        #expect(core.threadCount == 1)
        #expect(core.architecture == "x86_64" || core.architecture == "aarch64")
        #expect(core.mappedFiles.contains { $0.path == target.executable && $0.start < $0.end })
        // The auxiliary vector's AT_ENTRY (9) lies in a mapping of the executable.
        let entry = try #require(core.auxiliaryVector.first { $0.key == 9 }?.value)
        #expect(core.mappedFiles.contains { $0.path == target.executable && ($0.start..<$0.end).contains(entry) })
        #expect(throws: BinaryInfoError.unmapped(path: path, what: "memory", address: 0x10, length: 8)) {
            try core.bytes(at: 0x10, count: 8)
        }
    }

    @Test func truncatedCoreIsRefusedWithTheSegment() throws {
        let (path, target) = try Self.dump()
        target.finish()
        let whole = try CoreFile(path: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let cut = data.count / 2
        let truncated = path + ".truncated"
        try data.prefix(cut).write(to: URL(fileURLWithPath: truncated))
        // What the reader checks first and finds past the cut: the notes, then memory segments by address.
        let segments = try ELFFile(bytes: FileBytes(data, path: path), includeTables: false).segments
        let notes = segments.filter(\.isNote).map { (address: UInt64?.none, end: $0.offset + $0.fileSize) }
        let loads = whole.segments.map { (address: Optional($0.address), end: $0.offset + $0.fileSize) }
        let first = try #require((notes + loads).first { $0.end > UInt64(cut) })
        do {
            _ = try CoreFile(path: truncated)
            Issue.record("a truncated core was read")
        } catch {
            #expect(error == .truncatedCore(path: truncated, segmentAddress: first.address, neededSize: first.end, fileSize: UInt64(cut)))
            let what = first.address.map { "the segment at 0x\(String($0, radix: 16)) needs" } ?? "the notes need"
            #expect(
                error.description
                    == "\(truncated): truncated core file: \(what) \(first.end) bytes of file, the file has \(cut) (the dump was cut short: check the core size limit, `ulimit -c`, and free disk space)"
            )
        }
        // Cut inside the memory segments, with the notes moved out of the way: the segment is named.
        let load = try #require(whole.segments.last { $0.fileSize > 0 })
        let loadCut = Int(load.offset + load.fileSize / 2)
        var shortened = Data(data.prefix(loadCut))
        for (index, segment) in segments.enumerated() where segment.isNote {
            // Each Elf64_Phdr is 56 bytes from e_phoff (offset 32); the note segment becomes empty.
            let phoff = Int(data[32..<40].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            let fileSizeField = phoff + index * 56 + 32
            shortened.replaceSubrange(fileSizeField..<fileSizeField + 8, with: [UInt8](repeating: 0, count: 8))
        }
        let shortenedPath = path + ".short"
        try shortened.write(to: URL(fileURLWithPath: shortenedPath))
        #expect(
            throws: BinaryInfoError.truncatedCore(
                path: shortenedPath, segmentAddress: load.address, neededSize: load.offset + load.fileSize, fileSize: UInt64(loadCut))
        ) {
            try CoreFile(path: shortenedPath)
        }
    }

    @Test func otherFilesAndMachinesAreRefused() throws {
        let (path, target) = try Self.dump()
        target.finish()
        do {
            _ = try CoreFile(path: target.executable)
            Issue.record("an executable was read as a core")
        } catch {
            #expect(
                error.description
                    == "\(target.executable): unsupported ELF file: not a core file (ELF type 3); give a PID or a core file made by gcore or the kernel"
            )
        }
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        // e_machine (offset 18): a machine other than this one's.
        let other: UInt16 = data[18] == 62 ? 183 : 62
        data[18] = UInt8(other & 0xFF)
        data[19] = UInt8(other >> 8)
        let foreign = path + ".foreign"
        try data.write(to: URL(fileURLWithPath: foreign))
        let host = try #require(ELFMachine.host).architectureName(isLittleEndian: true)
        let otherName = other == 62 ? "x86_64" : "aarch64"
        do {
            _ = try CoreFile(path: foreign)
            Issue.record("a core of another machine was read")
        } catch {
            #expect(
                error.description
                    == "\(foreign): unsupported ELF file: a core of an \(otherName) process; this typeinfo reads \(host) cores (run it on the machine the core came from)"
            )
        }
    }
}
