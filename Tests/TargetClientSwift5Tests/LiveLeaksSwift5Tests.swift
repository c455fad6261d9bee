import BinaryFixtures
import BinaryInfo
import Foundation
import LayoutReading
import Testing
import TypeLayout
import TypeLowering

/// `LiveLeakReader` (`typeinfo leaks`'s library entry point) and the reachability under it as a
/// Swift 5 language mode client calls them, against what the LiveLeaks fixture says it leaked.
@Suite(
    "Leaks from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct LiveLeaksSwift5Tests {
    struct Report: Decodable {
        var pid: Int32
        var leaked: [String: [String]]
        var leakedContexts: Int
        var leakedByteArrays: Int
        var closureCaptures: [String]
        var reachable: [String: [String]]
        var chains: [String: [String]]
    }

    @Test func leaksAndTheirRootsFromACore() throws {
        let fixture = try LiveFixtureProcess<Report>(module: "LiveLeaks", linking: .dynamic)
        defer { fixture.finish() }
        let report = try fixture.readReport()
        try #require(CoreDump.gcore != nil, "gcore (gdb) is not installed: run Tools/setup")
        let core = try CoreDump.make(of: fixture.processID)
        let leaks = try LiveLeakReader.leaks(LiveTargetOptions(target: .core(path: core)), addressesPerType: 100)
        for (type, addresses) in report.leaked {
            let entry = leaks.entries.first { $0.kind == .swiftObject(type: type) }
            #expect(entry?.count == addresses.count, "\(type)")
            #expect(entry.map { Set($0.addresses) } == Set(addresses.map { UInt64($0.dropFirst(2), radix: 16) ?? 0 }), "\(type)")
        }
        #expect(
            leaks.totals.leakedAllocations
                == report.leaked.values.reduce(0) { $0 + $1.count } + report.leakedContexts + report.leakedByteArrays)
        #expect(leaks.notes.isEmpty)
        #expect(leaks.text.contains("no root reaches \(leaks.totals.leakedAllocations) of them"))
        // The parts underneath, as a client calls them.
        let memory = try TargetMemory(.core(path: core))
        let threads: [ThreadRegisters] = try #require(memory.core).threads()
        #expect(threads.contains { $0.id == fixture.processID && $0.stackPointer != 0 })
        // What differs between a core and a process, asked of the target, not switched on.
        #expect(try memory.threadRegisters(heldBy: nil) == threads)
        // Each thread's vector registers come from the core's notes; they are root words after
        // the general-purpose ones, named by register word.
        for thread in threads {
            let vector = try #require(thread.vectorState)
            #expect(vector.count >= VectorState.legacyWords && vector.count <= VectorState.maximumWords)
            #expect(thread.words == thread.registers + vector)
        }
        #expect(HeapReachability.registerName(0) == HeapReachability.registerNames[0])
        #expect(HeapReachability.registerName(HeapReachability.registerNames.count) == VectorState.name(ofWord: 0))
        #expect(memory.processID == fixture.processID && !memory.mayChange && !memory.hasGone)
        #expect(memory.architecture == "x86_64" && memory.programName == memory.core?.command)
        let stacks = try GlibcThreadStacks(memory)
        #expect(stacks.user.contains { $0.threadID == fixture.processID })
        let reachability = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks)
        #expect(reachability.unreachable.count == leaks.totals.leakedAllocations)
        #expect(reachability.sideTables >= 3)
        // Reference plans order the marking, never change what it reaches: a plan that calls no
        // word of any object a reference leaves every word to the second pass. The plans are
        // made of the first words the walk met, before the marking.
        var visited = 0
        var firstWords = Set<UInt64>()
        let planned = try HeapReachability(
            heap: GlibcHeap(memory), threads: threads, threadStacks: stacks,
            visitingChunks: { chunk in
                visited += 1
                firstWords.insert(chunk.firstWord)
            },
            referenceLayouts: {
                AllocationReferenceLayouts(
                    plans: Dictionary(uniqueKeysWithValues: firstWords.map { ($0, AllocationReferencePlan(strong: [])) }))
            })
        #expect(visited == planned.addresses.count)
        #expect(planned.unreachable == reachability.unreachable)
        // Classes numbered by a list of first words: each reached allocation gets its first
        // word's position (its first word as the walk read it), every other one none. Words that
        // point into an allocation (side tables' objects) and zero (never a class) are left out.
        let numbered = Array(firstWords.filter { $0 != 0 && reachability.allocation(containing: $0) == nil })
        let classified = try HeapReachability(
            heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, classifying: { numbered })
        #expect(classified.classes.count == classified.addresses.count)
        let positions = Dictionary(uniqueKeysWithValues: numbered.enumerated().map { ($1, UInt32($0)) })
        let wrong = classified.addresses.indices.filter { index in
            let expected =
                classified.isReachable(index)
                ? positions[classified.firstWords[index]] ?? HeapReachability.noClass : HeapReachability.noClass
            return classified.classes[index] != expected
        }
        #expect(wrong.isEmpty, "\(wrong.count) allocations of \(classified.addresses.count) with another class")
        #expect(classified.classes.contains { $0 != HeapReachability.noClass })
        #expect(reachability.classes.isEmpty)
        let plan = AllocationReferencePlan(
            strong: [16], elements: .init(start: 32, stride: 16, countOffset: 24, strong: [8]))
        #expect(plan.isStrong(wordOffset: 16, elementCount: 0) && !plan.isStrong(wordOffset: 24, elementCount: 2))
        #expect(plan.isStrong(wordOffset: 56, elementCount: 2) && !plan.isStrong(wordOffset: 56, elementCount: 1))
        // The cycles, and what holds a reachable object, through the edges recorded.
        #expect(leaks.cycles.contains { $0.shape == ["LiveLeaks.CycleA.other", "LiveLeaks.CycleB.other", "LiveLeaks.CycleA"] })
        let recorded = try HeapReachability(heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, recordingEdges: true)
        let edges = try #require(recorded.edges)
        #expect(edges.graph.nodeCount == recorded.addresses.count)
        let held = try #require(report.chains.keys.first.flatMap { UInt64($0.dropFirst(2), radix: 16) })
        let index = try #require(recorded.addresses.firstIndex(of: held))
        switch edges.firstReach(of: index) {
        case .root(let word)?:
            // The first reach's root word is among those that point into it, and lies somewhere.
            #expect(try recorded.rootWords(pointingInto: index).contains(word))
            let place: HeapRootPlace = recorded.place(of: word)
            #expect("\(place)" != "")
        case .allocation(let parent, _)?: #expect(edges.graph.successors(of: parent).contains(UInt32(index)))
        case nil: Issue.record("0x\(String(held, radix: 16)) is not reached")
        }
        let retainers: RetainersReport = try LiveRetainerReader.retainers(
            LiveTargetOptions(target: .core(path: core)), address: held, paths: 2)
        #expect(retainers.isReachable && retainers.paths.count <= 2)
        #expect(retainers.text.contains("→ " + retainers.object.text))
        // A reachable object retains at least itself; the picture names it in its title.
        let retained: Int? = retainers.retainedBytes
        #expect(retained.map { $0 >= retainers.object.size } == true)
        #expect(retainers.svg.contains("<title>What holds " + retainers.object.text))
        // An object only an Int field holds the address of: its last step is that word, no reference.
        let byBits = try #require(report.reachable["bit-pattern"]?.first.flatMap { UInt64($0.dropFirst(2), radix: 16) })
        let bitsPath = try LiveRetainerReader.retainers(LiveTargetOptions(target: .core(path: core)), address: byBits, paths: 1)
        if case .allocation(_, .conservative(_, let field))? = bitsPath.paths.first?.holders.last {
            #expect(field?.first == "bits")
        } else {
            Issue.record("\(bitsPath.text)")
        }
        let shapes: RetainerShapes = try LiveRetainerReader.retainers(
            LiveTargetOptions(target: .core(path: core)), type: "LiveLeaks.CycleA")
        #expect(shapes.unreachable == report.leaked["LiveLeaks.CycleA"]?.count && shapes.groups.isEmpty)
        // Closure contexts' captures, as the reflection library lays them out.
        let contexts = leaks.entries.filter { if case .swiftContext = $0.kind { true } else { false } }
        let captureTypes: [[String?]?] = contexts.map(\.captureTypes)
        #expect(captureTypes == [report.closureCaptures.map { Optional($0) }])
        let inspector = try TargetInspector(.core(path: core))
        let contextAddress = try #require(contexts.first?.addresses.first)
        let metadata = try #require(
            inspector.contextMetadata(at: try inspector.memory.read(UInt64.self, at: contextAddress, what: "a context")))
        #expect(metadata.layoutIsFixed && metadata.bindingCount == 0 && metadata.metadataSourceCount == 0)
        let captures: [TargetCapture] = try #require(try inspector.captures(ofContextsAt: [contextAddress])[contextAddress])
        #expect(captures.map(\.typeName) == report.closureCaptures.map { Optional($0) })
        #expect(captures.first?.kind == .strongReference && captures.first.map { $0.offset >= 16 } == true)
        #expect(captures.map(\.offset) == captures.map(\.offset).sorted())
        // What holds an object weakly is listed apart from its paths; the owner's path is marked.
        let alsoWeak = try #require(report.reachable["weakly-also"]?.first.flatMap { UInt64($0.dropFirst(2), radix: 16) })
        let weakly = try LiveRetainerReader.retainers(LiveTargetOptions(target: .core(path: core)), address: alsoWeak, paths: 3)
        let weakHolders: [RetainersReport.Holder] = weakly.weakHolders
        #expect(weakHolders.map(\.shape) == ["LiveLeaks.WeakOnly.target"])
        let lasting: Int? = weakly.lastingPath
        let lastingHolders = lasting.map { weakly.paths[$0].holders } ?? []
        if case .global(let symbol?, _, _)? = lastingHolders.first {
            #expect(symbol.hasPrefix("LiveLeaks.") && lastingHolders.count <= 2, "\(weakly.text)")
        } else {
            Issue.record("no lasting path from a global: \(weakly.text)")
        }
        #expect(weakly.lastingPathAdded == false || weakly.paths.count == 3)
        let part = RetainersReport.Part.capture(index: 0, type: report.closureCaptures[0], offset: 16, isReference: true)
        #expect(part.text == "capture 0 (\(report.closureCaptures[0]))")
        let cyclesPicture: String = leaks.cyclesSVG
        #expect(cyclesPicture.components(separatedBy: "class=\"points-back\"").count - 1 == leaks.cycles.count)
    }
}
