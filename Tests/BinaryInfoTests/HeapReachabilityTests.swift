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
        let graphOnly = try HeapReachability(
            heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, recordingEdges: true, recordingFirstReaches: false,
            keepingFirstWords: false)
        try Self.checkGraphOnly(graphOnly, recorded: recorded)
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
        let graphOnly = try HeapReachability(
            heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, recordingEdges: true, recordingFirstReaches: false,
            keepingFirstWords: false)
        try Self.checkGraphOnly(graphOnly, recorded: recorded)
        try Self.checkEdges(recorded, plain: reachability, memory: memory, threads: threads, fixture)
    }

    /// A reading that records the graph without the first reaches and keeps no first words has
    /// the same marking, side tables, graph and root-reached allocations as the full one, and
    /// reads the first words again as they were.
    static func checkGraphOnly(_ graphOnly: HeapReachability, recorded: HeapReachability) throws {
        let edges = try #require(graphOnly.edges)
        let full = try #require(recorded.edges)
        #expect(graphOnly.addresses == recorded.addresses)
        #expect(graphOnly.sizes == recorded.sizes)
        #expect(graphOnly.firstWords.isEmpty)
        #expect(try graphOnly.firstWords(of: Array(graphOnly.addresses.indices)) == recorded.firstWords)
        #expect(graphOnly.sideTablePositions == recorded.sideTablePositions)
        #expect(graphOnly.addresses.indices.allSatisfy { graphOnly.isReachable($0) == recorded.isReachable($0) })
        #expect(edges.graph.starts == full.graph.starts)
        #expect(edges.graph.targets == full.graph.targets)
        #expect(edges.rootReached == full.rootReached)
        #expect(!edges.recordsFirstReaches && full.recordsFirstReaches)
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
    /// walk gives, fall back to a full sort. The oracle is a sort of the triples, kept as plain
    /// arrays: the compact table (4 bytes an address within a 32 GiB window, 4 a size, sizes
    /// past 4 GiB apart) must give back exactly what it was given, over several windows and
    /// over more chunks than one of the builder's blocks.
    @Test func chunksArePutInAddressOrderRunByRun() throws {
        var generator = SystemRandomNumberGenerator()
        for overlapping in [false, true] {
            for bases: [UInt64] in [[0x10_0000], [0x5555_0000_0000, 0x7F00_0000_0000, 0x7F10_0000_0000, 0x7_FFFF_FFF0]] {
                var runs: [[UInt64]] = (0..<5).map { run in
                    let base = bases[run % bases.count] + UInt64(0x100_0000 * (run / bases.count + 1))
                    let length = run == 2 ? HeapAllocationTableBuilder.blockSize + 77 : Int.random(in: 1...40, using: &generator)
                    return (0..<length).map { base + 0x40 * UInt64($0) }
                }
                if overlapping { runs[3] = runs[3].map { $0 - 0x20 } + runs[1].prefix(3).map { $0 + 0x10 } }
                runs.shuffle(using: &generator)
                let addresses = runs.flatMap { $0 }
                func size(_ address: UInt64) -> UInt64 { address % 7 == 0 ? UInt64(UInt32.max) + address % 1000 : address % 5000 }
                let builder = HeapAllocationTableBuilder(keepingFirstWords: true, path: "test")
                for address in addresses {
                    try builder.append(
                        HeapChunk(address: address, usableSize: size(address), firstWord: ~address, secondWord: 0, arena: 0),
                        isCandidate: address % 3 == 0)
                }
                let (sortedAddresses, sizes, firstWords, candidates) = builder.finish()
                let expected = addresses.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map(\.element)
                #expect(Array(sortedAddresses) == expected, "overlapping: \(overlapping), bases: \(bases)")
                #expect(Array(sizes) == expected.map(size))
                #expect(firstWords == expected.map { ~$0 })
                #expect(Array(candidates.positions) == expected.indices.filter { expected[$0] % 3 == 0 })
                // The marking's page index answers as the binary search of every address does,
                // in and between its clusters, pages and windows.
                let pages = AllocationPageIndex(sortedAddresses)
                let probes = expected.prefix(50) + expected.suffix(50) + (0..<200).map { _ in expected.randomElement(using: &generator)! }
                for probe in probes {
                    for delta: Int64 in [-0x200_0000, -4097, -17, -16, -9, -8, -1, 0, 1, 7, 8, 63, 4096, 0x200_0000] {
                        guard Int64(probe) + delta >= 16 else { continue }
                        let address = UInt64(Int64(probe) + delta)
                        let answer = expected.partitioningIndex { $0 > address }
                        #expect(sortedAddresses.firstPosition(above: address) == answer)
                        #expect(pages.firstPosition(above: address, in: sortedAddresses) == answer, "0x\(String(address, radix: 16))")
                        #expect(
                            pages.allocation(containing: address, addresses: sortedAddresses, sizes: sizes)
                                == Marker.allocation(containing: address, addresses: sortedAddresses, sizes: sizes))
                    }
                }
                #expect(pages.firstPosition(above: 0, in: sortedAddresses) == 0)
                #expect(pages.firstPosition(above: .max, in: sortedAddresses) == expected.count)
            }
        }
        let builder = HeapAllocationTableBuilder(keepingFirstWords: false, path: "a core")
        #expect(
            throws: BinaryInfoError.malformedHeap(
                path: "a core", what: "an allocation", address: 0x1004, detail: "its address is not a multiple of 8")
        ) {
            try builder.append(HeapChunk(address: 0x1004, usableSize: 16, firstWord: 0, secondWord: 0, arena: nil))
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

/// The recorder's rows, kept in blocks in scan order and put in node order at the end, against
/// the graph built from the same edges given one by one.
@Suite("heap edge recorder")
struct HeapEdgeRecorderTests {
    @Test(arguments: [1, 2, 3])
    func rowsInNodeOrderAsTheSimpleBuilderMakesThem(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let nodeCount = 50_000
        var recorder = HeapEdgeRecorder(allocations: nodeCount, recordingFirstReaches: seed != 1)
        var sources: [UInt32] = []
        var targets: [UInt32] = []
        // Every node scanned once, in an order of its own; rows long enough to cross blocks.
        for node in (0..<nodeCount).shuffled(using: &generator) {
            recorder.scanOrder.append(UInt32(node))
            let length = Int.random(in: 0...60, using: &generator)
            for _ in 0..<length {
                let target = UInt32.random(in: 0..<UInt32(nodeCount), using: &generator)
                recorder.appendTarget(target)
                recorder.rowCounts[node] += 1
                sources.append(UInt32(node))
                targets.append(target)
            }
        }
        #expect(targets.count > HeapEdgeRecorder.blockSize)
        let graph = recorder.finish().graph
        let simple = AdjacencyGraph(nodeCount: nodeCount, sources: sources, targets: targets)
        #expect(graph.starts == simple.starts)
        #expect(graph.targets == simple.targets)
    }
}

/// The marking's frontier hands out each round's positions ascending whether it kept them as a
/// list or, past its limit, as bits: against a sorted array of the same positions.
@Suite("mark frontier")
struct MarkFrontierTests {
    @Test(arguments: [1, 2, 3])
    func roundsAreThePositionsAddedAscending(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let allocations = 100_000
        var frontier = MarkFrontier(allocations: allocations)
        // Rounds small and large (past 1/32 of the allocations), one after another.
        for size in [0, 1, 5, 3000, 3200, 3126, 40_000, 7, 99_999, 12] {
            let positions = Array(Set((0..<size).map { _ in Int.random(in: 0..<allocations, using: &generator) }))
            for position in positions { frontier.insert(position) }
            let round = frontier.takeRound().map(Array.init)
            if positions.isEmpty {
                #expect(round == nil)
            } else {
                #expect(round == positions.sorted(), "a round of \(positions.count)")
            }
        }
        #expect(frontier.takeRound() == nil)
    }
}
