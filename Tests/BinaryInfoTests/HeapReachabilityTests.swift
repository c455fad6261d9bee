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
    /// The fixture linked with glibc statically: no libc.so.6 or ld.so, its thread lists the
    /// executable's own variables.
    static let builtStatically = TargetProcess.build("leak_process", arguments: ["-pthread", "-static"], output: "leak_process_static")

    /// The running fixture and what it printed.
    final class Fixture {
        let process = Process()
        let input = Pipe()
        var processID: Int32 = 0
        var reachable: [(address: UInt64, how: String)] = []
        var leaked: [UInt64] = []
        /// Each running thread's id and the address of a local variable of its waiting frame.
        var threads: [(id: Int32, local: UInt64)] = []
        /// The stack blocks of the threads that ended (`pthread_self()` of each).
        var endedBlocks: [UInt64] = []
        /// The `vector` blocks: the thread whose vector register alone holds each, and that
        /// register word as typeinfo names it.
        var vectorHolders: [(thread: Int32, block: UInt64, register: String)] = []
        var threadIDs: Set<Int32> { Set(threads.map(\.id)) }

        /// Starts the host's build, or `executable` run by `launcher` (``DebianRoot/container(_:)``).
        init(executable given: String? = nil, launcher: [String] = []) throws {
            let executable = try given ?? HeapReachabilityTests.built.get()
            process.executableURL = URL(fileURLWithPath: launcher.first ?? executable)
            process.arguments = launcher.dropFirst() + (launcher.isEmpty ? [] : [executable])
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
                case "thread":
                    threads.append((Int32(fields[1]) ?? 0, fields.count > 2 ? UInt64(fields[2].dropFirst(2), radix: 16) ?? 0 : 0))
                case "ended": endedBlocks.append(address ?? 0)
                case "vector" where fields.count > 3:
                    vectorHolders.append(
                        (Int32(fields[1]) ?? 0, UInt64(fields[2].dropFirst(2), radix: 16) ?? 0, fields.dropFirst(3).joined(separator: " ")))
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
            if let index {
                #expect(reachability.isReachable(index), "0x\(String(address, radix: 16)), held by a \(how), is called unreachable")
            }
        }
        for address in fixture.leaked {
            let index = position(address)
            #expect(index != nil, "0x\(String(address, radix: 16)) (leaked) is not an allocation in use")
            if let index {
                #expect(!reachability.isReachable(index), "0x\(String(address, radix: 16)), which nothing holds, is called reachable")
            }
        }
        #expect(Set(["global", "chain", "stack", "thread-local", "mapping", "vector"]).isSubset(of: Set(fixture.reachable.map(\.how))))
        #expect(fixture.leaked.count == 180)
        #expect(reachability.rootBytes > 0)
        #expect(reachability.staleStackBytes > 0)
    }

    @Test func aStoppedProcessesBlocksAreReachedExactlyAsItSays() throws {
        let fixture = try Fixture()
        let pause = try ProcessPause(processID: fixture.processID)
        defer { pause.resume() }
        let threads = try pause.threads()
        #expect(Set(threads.map(\.id)) == fixture.threadIDs)
        let memory = try TargetMemory(.process(fixture.processID))
        let stacks = try GlibcThreadStacks(memory)
        Self.checkStacks(stacks, threads: threads, fixture)
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks)
        Self.check(reachability, fixture)
        let recorded = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, recordingEdges: true)
        try Self.checkEdges(recorded, plain: reachability, memory: memory, threads: threads, fixture)
    }

    @Test func aStaticallyLinkedProcessesBlocksAreReachedExactlyAsItSays() throws {
        let fixture = try Fixture(executable: try Self.builtStatically.get())
        let pause = try ProcessPause(processID: fixture.processID)
        defer { pause.resume() }
        let threads = try pause.threads()
        #expect(Set(threads.map(\.id)) == fixture.threadIDs)
        let memory = try TargetMemory(.process(fixture.processID))
        #expect(!memory.images.contains { $0.mappedPath.contains("libc.so") })
        let stacks = try GlibcThreadStacks(memory)
        Self.checkStacks(stacks, threads: threads, fixture)
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks)
        Self.check(reachability, fixture)
    }

    @Test(.enabled(if: CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup"))
    func aCoresBlocksAreReachedExactlyAsTheProcessSaid() throws {
        let fixture = try Fixture()
        let core = try CoreDump.make(of: fixture.processID)
        let memory = try TargetMemory(.core(path: core))
        let threads = try #require(memory.core).threads()
        #expect(Set(threads.map(\.id)) == fixture.threadIDs)
        let stacks = try GlibcThreadStacks(memory)
        Self.checkStacks(stacks, threads: threads, fixture)
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks)
        Self.check(reachability, fixture)
        let recorded = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, recordingEdges: true)
        try Self.checkEdges(recorded, plain: reachability, memory: memory, threads: threads, fixture)
    }

    /// The recorded graph against the target's own memory: the marking is the same as without
    /// it; each reachable allocation's first holder's word (a register, a root word, a word of an
    /// allocation at the offset given) points into it; no edge shortens a first-reach path (they
    /// are shortest); the fixture's chain is a chain of edges; unreached allocations have no first
    /// reach.
    static func checkEdges(
        _ recorded: HeapReachability, plain: HeapReachability, memory: TargetMemory, threads: [ThreadRegisters], _ fixture: Fixture
    ) throws {
        let edges = try #require(recorded.edges)
        #expect(plain.edges == nil)
        #expect(recorded.addresses == plain.addresses)
        #expect(recorded.addresses.indices.allSatisfy { recorded.isReachable($0) == plain.isReachable($0) })
        var depth = [Int](repeating: -1, count: recorded.addresses.count)
        func depthOf(_ index: Int) -> Int {
            if depth[index] >= 0 { return depth[index] }
            var chain = [index]
            while case .allocation(let parent, _) = edges.firstReach(of: chain.last!), depth[parent] < 0 { chain.append(parent) }
            var base = 0
            if case .allocation(let parent, _) = edges.firstReach(of: chain.last!) { base = depth[parent] + 1 }
            for node in chain.reversed() {
                depth[node] = base
                base += 1
            }
            return depth[index]
        }
        var rootReached: [Int] = []
        for index in recorded.addresses.indices {
            guard recorded.isReachable(index) else {
                #expect(edges.firstReach(of: index) == nil)
                continue
            }
            let word: UInt64
            switch try #require(edges.firstReach(of: index)) {
            case .root(.register(let thread, let register)):
                word = try #require(threads.first { $0.id == thread }).words[register]
                rootReached.append(index)
            case .root(.memory(let address)):
                word = try memory.read(UInt64.self, at: address, what: "a root word")
                rootReached.append(index)
            case .allocation(let parent, let offset):
                let offset = try #require(offset)
                #expect(offset + 8 <= recorded.sizes[parent])
                word = try memory.read(UInt64.self, at: recorded.addresses[parent] + offset, what: "a holder's word")
                #expect(edges.graph.successors(of: parent).contains(UInt32(index)))
            }
            #expect(
                recorded.allocation(containing: word) == index,
                "0x\(String(recorded.addresses[index], radix: 16))'s first holder's word is 0x\(String(word, radix: 16))")
        }
        #expect(edges.rootReached == rootReached)
        // The blocks only a vector register holds are reached from that register word, named
        // as the fixture names it.
        #expect(fixture.vectorHolders.count == 2)
        for holder in fixture.vectorHolders {
            let block = try #require(recorded.addresses.firstIndex(of: holder.block))
            guard case .root(.register(let thread, let index)) = edges.firstReach(of: block) else {
                Issue.record(
                    "0x\(String(holder.block, radix: 16)), held by \(holder.register), is first reached by \(String(describing: edges.firstReach(of: block)))"
                )
                continue
            }
            #expect(thread == holder.thread)
            #expect(HeapReachability.registerName(index) == holder.register)
        }
        for node in recorded.addresses.indices where recorded.isReachable(node) {
            for next in edges.graph.successors(of: node) {
                #expect(recorded.isReachable(Int(next)))
                #expect(
                    depthOf(Int(next)) <= depthOf(node) + 1,
                    "an edge shortens the path to 0x\(String(recorded.addresses[Int(next)], radix: 16))")
            }
        }
        let chain = fixture.reachable.filter { $0.how == "chain" }.compactMap { node in recorded.addresses.firstIndex(of: node.address) }
        #expect(chain.count == fixture.reachable.filter { $0.how == "chain" }.count && chain.count > 1)
        for (holder, held) in zip(chain, chain.dropFirst()) {
            #expect(edges.graph.successors(of: holder).contains(UInt32(held)))
            // `next` is a node's first field; a root may hold a node as well, and reach it first.
            if case .allocation(let parent, let offset) = edges.firstReach(of: held) {
                #expect(parent == holder && offset == 0)
            }
        }
    }

    /// Each thread's stack pointer lies in its waiting frame's stack, at or below the local the
    /// fixture printed; glibc's lists hold each ended thread's block in its cache, and each running
    /// one's, by its id.
    static func checkStacks(_ stacks: GlibcThreadStacks, threads: [ThreadRegisters], _ fixture: Fixture) {
        for (id, local) in fixture.threads {
            let thread = threads.first { $0.id == id }
            #expect(thread != nil, "thread \(id) was not read")
            if let thread {
                #expect(
                    thread.stackPointer <= local && local - thread.stackPointer < 1 << 16,
                    "thread \(id): sp 0x\(String(thread.stackPointer, radix: 16)), local at 0x\(String(local, radix: 16))")
            }
        }
        #expect(Set((stacks.used + stacks.user).map(\.threadID)).isSuperset(of: fixture.threadIDs))
        #expect(Set(stacks.cached.map(\.address)).isSuperset(of: Set(fixture.endedBlocks)), "cached: \(stacks.cached)")
        #expect(!fixture.endedBlocks.isEmpty)
    }

    /// Stale stack memory is cut only where a guard page or the main stack bounds the mapping,
    /// never in a stack allocated on the heap, and never in a mapping a running thread uses.
    /// The walk's runs (one per heap) are put in order as wholes; overlapping runs, which no
    /// walk gives, fall back to a full sort. The oracle is a sort of the pairs.
    @Test func chunksArePutInAddressOrderRunByRun() {
        var generator = SystemRandomNumberGenerator()
        for overlapping in [false, true] {
            var runs: [[UInt64]] = (0..<5).map { run in (0..<20).map { UInt64(0x10_0000 * (run + 1) + 0x40 * $0) } }
            if overlapping { runs[3] = runs[3].map { $0 - 0x10_0000 + 0x20 } }
            runs.shuffle(using: &generator)
            let addresses = runs.flatMap { $0 }
            let sizes = addresses.map { $0 / 16 }
            let firstWords = addresses.map { ~$0 }
            let (sortedAddresses, sortedSizes, sortedFirstWords) = HeapReachability.inAddressOrder(addresses, sizes, firstWords)
            #expect(sortedAddresses == addresses.sorted(), "overlapping: \(overlapping)")
            #expect(sortedSizes == sortedAddresses.map { $0 / 16 })
            #expect(sortedFirstWords == sortedAddresses.map { ~$0 })
        }
    }

    @Test func staleStackMemoryIsCutOnlyWhereAGuardBoundsTheStack() {
        func region(_ range: Range<UInt64>, writable: Bool = true, stack: Bool = false) -> TargetRegion {
            TargetRegion(start: range.lowerBound, end: range.upperBound, isWritable: writable, filePath: nil, fileOffset: 0, isStack: stack)
        }
        func thread(_ id: Int32, sp: UInt64) -> ThreadRegisters {
            var registers = [UInt64](repeating: 0, count: ThreadRegisters.registerCount)
            registers[ThreadRegisters.stackPointerIndex] = sp
            return ThreadRegisters(id: id, registers: registers)
        }
        let regions = [
            region(0x1000..<0x2000, writable: false),  // a guard (as gcore writes it)
            region(0x2000..<0x10000),  // a guarded thread stack
            region(0x20000..<0x30000),  // a stack without a guard
            region(0x40000..<0x50000, stack: true),  // the main stack
            region(0x60000..<0x70000),  // an ended thread's guarded stack
            region(0x80000..<0x90000),  // a heap holding a stack
        ]
        let stacks = GlibcThreadStacks(used: [], user: [], cached: [.init(address: 0x6f000, threadID: -1)])
        let stale = StaleStackMemory.find(
            regions: regions, heap: [0x80000..<0x90000],
            threads: [thread(2, sp: 0x8000), thread(3, sp: 0x28000), thread(1, sp: 0x48000), thread(4, sp: 0x88000)],
            stacks: stacks, guardEnds: [0x2000, 0x60000], mainThread: 1)
        #expect(stale.ranges == [0x2000..<(0x8000 - 128), 0x40000..<(0x48000 - 128), 0x60000..<0x6f000])
        // A cached block in a mapping a running thread's stack pointer is in is not cut.
        let shared = StaleStackMemory.find(
            regions: regions, heap: [], threads: [thread(5, sp: 0x68000)], stacks: stacks, guardEnds: [0x60000], mainThread: 1)
        #expect(shared.ranges == [0x60000..<(0x68000 - 128)])
    }

    @Test func rootsAreWritableMemoryLessTheHeaps() {
        let excluded: [Range<UInt64>] = [10..<20, 30..<40, 45..<50]
        #expect(HeapReachability.subtracting(excluded, from: 0..<100) == [0..<10, 20..<30, 40..<45, 50..<100])
        #expect(HeapReachability.subtracting(excluded, from: 12..<18) == [])
        #expect(HeapReachability.subtracting(excluded, from: 15..<35) == [20..<30])
        #expect(HeapReachability.subtracting([], from: 5..<6) == [5..<6])
    }
}
