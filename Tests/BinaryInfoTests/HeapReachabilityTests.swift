import BinaryFixtures
@testable import BinaryInfo
import Foundation
import Testing

/// The reachability of a process's heap blocks, against what `Fixtures/leak_process.c` says it
/// made: blocks held by a global, a chain, a thread's stack, a thread-local variable and a
/// mapping of their own, and blocks nothing holds (single leaks and two-block cycles).
@Suite("heap reachability")
struct HeapReachabilityTests {
    static let built = TargetProcess.build("leak_process", arguments: ["-pthread"])

    /// The running fixture and what it printed.
    final class Fixture {
        let process = Process()
        let input = Pipe()
        var processID: Int32 = 0
        var reachable: [(address: UInt64, how: String)] = []
        var leaked: [UInt64] = []

        init() throws {
            process.executableURL = URL(fileURLWithPath: try HeapReachabilityTests.built.get())
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = input
            try process.run()
            var text = ""
            while !text.hasSuffix("end\n") {
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw FixtureError(message: "leak_process ended: \(text.prefix(200))") }
                text += String(decoding: chunk, as: UTF8.self)
            }
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                let address = fields.count > 1 && fields[1].hasPrefix("0x") ? UInt64(fields[1].dropFirst(2), radix: 16) : nil
                switch fields.first {
                case "pid": processID = Int32(fields[1]) ?? 0
                case "reachable": reachable.append((address ?? 0, fields.count > 2 ? String(fields[2]) : ""))
                case "leaked": leaked.append(address ?? 0)
                default: break
                }
            }
        }

        /// Ends the fixture: it ends when its standard input closes; SIGKILL as well, since the
        /// test runner's blocked signals are inherited and SIGTERM would wait.
        deinit {
            try? input.fileHandleForWriting.close()
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    static func check(_ reachability: HeapReachability, _ fixture: Fixture) {
        func position(_ address: UInt64) -> Int? { reachability.addresses.firstIndex(of: address) }
        for (address, how) in fixture.reachable {
            let index = position(address)
            #expect(index != nil, "0x\(String(address, radix: 16)) (\(how)) is not an allocation in use")
            if let index { #expect(reachability.isReachable(index), "0x\(String(address, radix: 16)), held by a \(how), is called unreachable") }
        }
        for address in fixture.leaked {
            let index = position(address)
            #expect(index != nil, "0x\(String(address, radix: 16)) (leaked) is not an allocation in use")
            if let index { #expect(!reachability.isReachable(index), "0x\(String(address, radix: 16)), which nothing holds, is called reachable") }
        }
        #expect(Set(["global", "chain", "stack", "thread-local", "mapping"]).isSubset(of: Set(fixture.reachable.map(\.how))))
        #expect(fixture.leaked.count == 90)
        #expect(reachability.rootBytes > 0)
    }

    @Test func aStoppedProcessesBlocksAreReachedExactlyAsItSays() throws {
        let fixture = try Fixture()
        // The fixture does nothing more once it has printed: its heap stands still.
        let reachability = try HeapReachability(heap: GlibcHeap(TargetMemory(.process(fixture.processID))))
        Self.check(reachability, fixture)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func aCoresBlocksAreReachedExactlyAsTheProcessSaid() throws {
        let fixture = try Fixture()
        let core = try CoreDump.make(of: fixture.processID)
        let reachability = try HeapReachability(heap: GlibcHeap(TargetMemory(.core(path: core))))
        Self.check(reachability, fixture)
    }

    @Test func rootsAreWritableMemoryLessTheHeaps() {
        let excluded: [Range<UInt64>] = [10..<20, 30..<40, 45..<50]
        #expect(HeapReachability.subtracting(excluded, from: 0..<100) == [0..<10, 20..<30, 40..<45, 50..<100])
        #expect(HeapReachability.subtracting(excluded, from: 12..<18) == [])
        #expect(HeapReachability.subtracting(excluded, from: 15..<35) == [20..<30])
        #expect(HeapReachability.subtracting([], from: 5..<6) == [5..<6])
    }
}
