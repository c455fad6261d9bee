import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo leaks`: the allocations of a stopped process's or a core file's heap that no root
/// reaches, by dynamic type.
///
/// The marking is ``HeapReachability`` (conservative: interior pointers and words that only look
/// like pointers count, so a leak can be missed but a reachable allocation is never listed). A
/// process is always stopped for it (``ProcessPause``), since pointers that move while memory is
/// read could make a reachable allocation look unreached; its threads' registers are read while
/// it is held. A Swift object's type is named as `heap` names it (the class metadata its first
/// word holds, named by the reflection library).
public enum LiveLeakReader {
    /// Lists the target's unreached allocations.
    ///
    /// - Parameter addressesPerType: how many addresses to keep per entry (``LeakReport/Entry/addresses``).
    /// - Throws: ``LiveReadingError`` naming what could not be read (a process that cannot be
    ///   stopped with ptrace, a heap or root that cannot be read).
    public static func leaks(_ options: LiveTargetOptions, addressesPerType: Int = 0) throws(LiveReadingError) -> LeakReport {
        try options.readingStopped { inspector, pause throws(LiveReadingError) in
            try read(inspector, pause: pause, addressesPerType: addressesPerType)
        }
    }

    /// A marking of the target's heap, with what limits it.
    struct Marking {
        var reachability: HeapReachability
        var threads: [ThreadRegisters]
        var notes: [LeakReport.Note]
    }

    /// Marks the heap of the target held at its instant (a core, or a process `pause` holds).
    static func mark(_ inspector: TargetInspector, pause: ProcessPause?, recordingEdges: Bool) throws(LiveReadingError) -> Marking {
        let memory = inspector.memory
        let threads: [ThreadRegisters]
        var notes: [LeakReport.Note] = []
        var loweringError: TypeLoweringError?
        let reachability: HeapReachability
        do throws(BinaryInfoError) {
            threads = try memory.threadRegisters(heldBy: pause)
            let withoutVectorState = threads.filter { $0.vectorState == nil }.count
            if withoutVectorState > 0 { notes.append(.vectorRegistersMissing(threads: withoutVectorState)) }
            var stacks: GlibcThreadStacks?
            do {
                stacks = try GlibcThreadStacks(memory)
            } catch {
                notes.append(.endedThreadStacksScanned(reason: error.description))
            }
            // Swift objects' references are followed before their other words, so that paths
            // and cycles go through references wherever one reaches. Their classes are those the
            // census finds among the first words as the walk meets them.
            var census = MetadataCensus(inspector: inspector, addressesPerType: 0)
            var contexts = ContextCandidates(inspector)
            let isSwift = inspector.images.contains(where: \.isSwift)
            reachability = try HeapReachability(
                heap: GlibcHeap(memory), threads: threads, threadStacks: stacks,
                visitingChunks: { chunk in
                    guard isSwift else { return }
                    census.count(chunk)
                    contexts.visit(chunk)
                },
                referenceLayouts: {
                    census.settle()
                    do throws(TypeLoweringError) {
                        return try ReferencePlans.build(
                            classes: census.tallies.map(\.metadata), contextCandidates: contexts, inspector)
                    } catch {
                        loweringError = error
                        return .none
                    }
                }, recordingEdges: recordingEdges, keepingFirstWords: recordingEdges)
        } catch {
            throw .target(error)
        }
        if let loweringError { throw .lowering(loweringError) }
        return Marking(reachability: reachability, threads: threads, notes: notes)
    }

    /// One reading at the instant the target is held at.
    static func read(_ inspector: TargetInspector, pause: ProcessPause?, addressesPerType: Int) throws(LiveReadingError) -> LeakReport {
        let memory = inspector.memory
        let marking = try mark(inspector, pause: pause, recordingEdges: false)
        // What no root reaches, the program cannot reach either: its memory stays as it is while
        // the process runs again, so naming the leaks and their cycles does not lengthen the stop.
        pause?.resume()
        let (reachability, threads, notes) = (marking.reachability, marking.threads, marking.notes)
        let unreached = reachability.unreachable
        let firstWords: [UInt64]
        do throws(BinaryInfoError) {
            firstWords = try reachability.firstWords(of: unreached)
        } catch {
            throw .target(error)
        }
        let names = inspector.images.contains(where: \.isSwift) ? try typeNames(of: firstWords, inspector) : [:]
        // Contexts are grouped by their captures' types too, where those were laid out.
        let contextCaptures = try ContextCaptures.fields(of: unreached, firstWords: firstWords, reachability, inspector)
        var entries: [ContextCaptures.EntryKey: LeakReport.Entry] = [:]
        var leakedBytes = 0
        for (index, word) in zip(unreached, firstWords) {
            let size = Int(reachability.sizes[index])
            let kind: LeakReport.Kind
            if let name = names[word] {
                kind = .swiftObject(type: name)
            } else if inspector.images.contains(where: \.isSwift), inspector.classMetadata(at: word) != nil {
                kind = .swiftObject(type: "<class metadata 0x\(String(word, radix: 16))>")
            } else if inspector.images.contains(where: \.isSwift), let context = inspector.contextMetadata(at: word) {
                kind = .swiftContext(captures: context.captureCount)
            } else {
                kind = .malloc(usableSize: size)
            }
            let key = ContextCaptures.EntryKey(kind: kind, captureTypes: contextCaptures[word].map { $0.map(\.typeName) })
            var entry = entries[key] ?? LeakReport.Entry(kind: kind, count: 0, bytes: 0, captureTypes: key.captureTypes)
            entry.count += 1
            entry.bytes += size
            if entry.addresses.count < addressesPerType { entry.addresses.append(reachability.addresses[index]) }
            entries[key] = entry
            leakedBytes += size
        }
        let totals = LeakReport.Totals(
            allocations: reachability.addresses.count, heapBytes: reachability.sizes.reduce(0) { $0 + Int($1) },
            leakedAllocations: unreached.count, leakedBytes: leakedBytes, threads: threads.count, rootBytes: Int(reachability.rootBytes),
            staleStackBytes: Int(reachability.staleStackBytes))
        let cycles = try LeakCycles.find(unreached, reachability, inspector, names: names)
        return LeakReport(
            target: LiveHeapReader.identity(of: memory, readWhileRunning: false), totals: totals, entries: Array(entries.values),
            cycles: cycles, notes: notes)
    }

    /// The names of the class metadata among the unreached allocations' first words.
    static func typeNames(of firstWords: [UInt64], _ inspector: TargetInspector) throws(LiveReadingError) -> [UInt64: String] {
        let words = Set(firstWords.filter { $0 >= 4096 && $0 & 7 == 0 })
        let metadata = inspector.classMetadata(candidates: words)
        do throws(TypeLoweringError) {
            return try inspector.typeNames(ofMetadata: Array(metadata.keys))
        } catch {
            throw .lowering(error)
        }
    }
}

extension LeakReport: StatesReadingStop {
    mutating func record(_ stop: ReadingStop) { target.stop = stop }
}
