import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo heap --retained`: the census of `heap`, with each type's retained bytes from the
/// dominator tree of the heap's graph (``HeapCensus/Retained`` says what they add up).
///
/// The graph is ``HeapReachability``'s (conservative, as `leaks` reads it), recorded while the
/// process is held stopped (``ProcessPause``): pointers read at different moments would make a
/// graph the process never had. Everything read from the target (the graph, the objects' classes,
/// array storages' elements, names) is read while it is held; the dominator tree is computed
/// after it is let go.
public enum LiveRetainedReader {
    /// Counts the target's live Swift objects by type, with their retained bytes.
    ///
    /// - Parameter addressesPerType: how many object addresses to keep per type (``HeapCensus/Entry/addresses``).
    /// - Throws: ``LiveReadingError`` naming what could not be read (a process that cannot be
    ///   stopped with ptrace, a heap or root that cannot be read, a graph too large to number).
    public static func census(_ options: LiveTargetOptions, addressesPerType: Int = 0) throws(LiveReadingError) -> HeapCensus {
        let refuseNonSwift = { (inspector: TargetInspector) throws(LiveReadingError) in
            guard inspector.images.contains(where: \.isSwift) else { throw .notSwift(target: options.target.description) }
        }
        var (reading, stop) = try options.readingStopped(beforeStop: refuseNonSwift) { inspector, pause throws(LiveReadingError) in
            try read(inspector, pause: pause, addressesPerType: addressesPerType)
        }
        var census = try reading.censusWithRetainedSizes(target: options.target.description)
        census.target.stop = stop
        return census
    }

    /// What is read at the instant the target is held at: the graph and each allocation's entry.
    /// Only what the dominator tree needs is kept of the reachability (the allocations'
    /// addresses, first words and first reaches are let go before the tree is computed).
    struct Reading {
        /// Each allocation's usable size.
        var sizes: HeapSizes
        /// Allocation → allocation pointers.
        var graph: AdjacencyGraph
        /// The allocations a root points into.
        var rootReached: [UInt32]
        var census: HeapCensus
        /// The census entries' keys; ``classes`` indexes them.
        var keys: [String]
        /// Each allocation's position in ``keys``, ``DominatorTree/none`` for an allocation that is
        /// no Swift object, and for the virtual root after the allocations.
        var classes: [UInt32]

        /// The census with each entry's retained bytes, and the graph's summary; the graph is let
        /// go once the tree is made.
        mutating func censusWithRetainedSizes(target: String) throws(LiveReadingError) -> HeapCensus {
            let allocations = sizes.count
            guard DominatorTree.canNumber(nodeCount: allocations, edgeCount: graph.edgeCount, virtualRootSuccessors: rootReached.count)
            else {
                throw .graphTooLarge(target: target, allocations: allocations, edges: graph.edgeCount)
            }
            let edgeCount = graph.edgeCount
            let rows = graph
            graph = AdjacencyGraph(nodeCount: 0)
            // Handed over: the tree lets the rows go once it has the predecessors.
            let tree = DominatorTree(consume rows, virtualRootSuccessors: rootReached)
            let retained = tree.retainedSizes(ownSizes: sizes)
            let outermost = tree.outermostOfClass(classes, classCount: keys.count)
            var sums = [Int](repeating: 0, count: keys.count)
            for node in 0..<allocations where outermost[node] { sums[Int(classes[node])] += Int(retained[node]) }
            var census = census
            let index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
            for position in census.types.indices {
                census.types[position].retainedBytes = index[census.types[position].key].map { sums[$0] }
            }
            census.retained = HeapCensus.Retained(
                reachableAllocations: tree.preorder.count - 1, reachableBytes: Int(retained[tree.root]),
                rootReachedAllocations: rootReached.count, edges: edgeCount)
            return census
        }
    }

    /// The graph and the census, at one instant.
    static func read(_ inspector: TargetInspector, pause: ProcessPause?, addressesPerType: Int) throws(LiveReadingError) -> Reading {
        let memory = inspector.memory
        let reachability: HeapReachability
        var metadataCensus = MetadataCensus(inspector: inspector, addressesPerType: addressesPerType)
        do throws(BinaryInfoError) {
            let threads: [ThreadRegisters]
            if let core = memory.core {
                threads = try core.threads()
            } else if let pause {
                threads = try pause.threads()
            } else {
                throw .threadRegistersUnreadable(path: memory.path, thread: nil, reason: "the process is not held stopped")
            }
            // Ended threads' stacks that cannot be told apart are scanned as roots: more edges
            // from the root, never fewer.
            let stacks = try? GlibcThreadStacks(memory)
            // The census counts the allocations as the walk meets them; the marking gives each
            // reached one its tally's number by its first word, so no first word is kept.
            reachability = try HeapReachability(
                heap: GlibcHeap(memory), threads: threads, threadStacks: stacks, visitingChunks: { metadataCensus.count($0) },
                classifying: {
                    metadataCensus.settle()
                    return metadataCensus.tallies.map(\.metadata)
                }, recordingEdges: true, recordingFirstReaches: false, keepingFirstWords: false)
        } catch {
            throw .target(error)
        }
        let addresses = reachability.addresses
        let sizes = reachability.sizes
        let tallies = metadataCensus.tallies
        let names: [UInt64: String]
        do throws(TypeLoweringError) {
            names = try inspector.typeNames(ofMetadata: tallies.map(\.metadata))
        } catch {
            throw .lowering(error)
        }
        var entries = LiveHeapReader.entries(
            tallies.map { ($0.metadata, $0.count, $0.bytes) }, names: names, instanceSizes: metadataCensus.instanceSizes,
            addresses: Dictionary(uniqueKeysWithValues: tallies.map { ($0.metadata, $0.addresses) }), addressesPerType: addressesPerType)
        var attributed: [(address: UInt64, key: String)] = []
        try ClassArrayElements.attribute(
            &entries, storages: metadataCensus.arrayStorages, names: names, addressesPerType: addressesPerType, inspector
        ) { attributed.append(($0, $1)) }
        // Each allocation's entry: by its class, then array storage by the element class its
        // elements state.
        var keys = Array(entries.keys).sorted()
        if entries[ClassArrayElements.storageName] == nil { keys.append(ClassArrayElements.storageName) }
        let keyIndex = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, UInt32($0)) })
        // The marking numbered each reached allocation by its tally; the tallies' keys number the
        // entries. An allocation the marking did not reach is in no dominator subtree.
        let keyOfTally = tallies.map { keyIndex[LiveHeapReader.typeName(of: $0.metadata, names)] ?? DominatorTree.none }
        var classes = [UInt32](repeating: DominatorTree.none, count: addresses.count + 1)
        for (index, tally) in reachability.classes.enumerated() where tally != HeapReachability.noClass {
            classes[index] = keyOfTally[Int(tally)]
        }
        for (address, key) in attributed {
            if let index = reachability.allocation(containing: address), addresses[index] == address, let key = keyIndex[key] {
                classes[index] = key
            }
        }
        let swiftObjects = tallies.reduce(0) { $0 + $1.count }
        let swiftBytes = tallies.reduce(0) { $0 + $1.bytes }
        let census = HeapCensus(
            target: LiveHeapReader.identity(of: memory, readWhileRunning: false),
            totals: .init(
                allocations: addresses.count, heapBytes: sizes.reduce(0) { $0 + Int($1) }, swiftObjects: swiftObjects,
                swiftObjectBytes: swiftBytes),
            types: Array(entries.values))
        // Recorded: the reading asked for the edges.
        let edges = reachability.edges!
        return Reading(
            sizes: sizes, graph: edges.graph, rootReached: edges.rootReachedPositions, census: census, keys: keys,
            classes: classes)
    }
}
