import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo retainers`: what holds an object of a stopped process's or a core file's heap, as
/// the shortest paths from roots to it (``HeapReachability`` with its edges recorded).
///
/// The process is stopped as `typeinfo leaks` stops it, for the same reason: a pointer moved
/// while memory is read could hide a path or show one that never was.
public enum LiveRetainerReader {
    /// The shortest paths from roots to the allocation that starts at `address`.
    ///
    /// - Parameter paths: how many paths to give, each ending in a different holder.
    /// - Throws: ``LiveReadingError/notAnAllocation(target:address:containing:size:)`` when no
    ///   live allocation starts at `address`; what ``LiveLeakReader/leaks(_:addressesPerType:)``
    ///   throws when the target cannot be read.
    public static func retainers(_ options: LiveTargetOptions, address: UInt64, paths: Int = 3) throws(LiveReadingError)
        -> RetainersReport
    {
        let (found, stop) = try stopped(options) { inspector, marking throws(LiveReadingError) in
            let reachability = marking.reachability
            guard let index = reachability.addresses.position(of: address) else {
                let containing = reachability.allocation(containing: address)
                throw .notAnAllocation(
                    target: inspector.memory.path, address: address, containing: containing.map { reachability.addresses[$0] },
                    size: containing.map { reachability.sizes[$0] })
            }
            var describer = HolderDescriber(inspector: inspector, reachability: reachability)
            var found: (paths: [[RetainerPaths.Step]], holderCount: Int, rootCount: Int)
            var lastingChain: [RetainerPaths.Step]?
            var weakChains: [[RetainerPaths.Step]] = []
            do throws(BinaryInfoError) {
                let retainerPaths = RetainerPaths(reachability)
                found = try retainerPaths.paths(to: index, count: paths, memory: inspector.memory)
                var lasting = try LastingRetainerPaths(retainerPaths)
                lastingChain = lasting.lastingChain(to: index, memory: inspector.memory)
                weakChains = try retainerPaths.weakHolders(of: index, memory: inspector.memory)
            } catch {
                throw .target(error)
            }
            // The owner's path, when a stack's or a register's paths are shorter: one of the
            // paths, in place of the longest when there are as many as asked for.
            var lastingPath = lastingChain.flatMap { found.paths.firstIndex(of: $0) }
            var lastingPathAdded = false
            if let lastingChain, lastingPath == nil {
                if found.paths.count >= paths { found.paths.removeLast() }
                found.paths.append(lastingChain)
                lastingPath = found.paths.count - 1
                lastingPathAdded = true
            }
            let holders = try describer.describe(found.paths)
            var object = try describer.allocation(index)
            if case .swiftContext(let captures, nil) = object.kind, let last = found.paths.first?.last {
                object.kind = .swiftContext(captures: captures, function: describer.closureFunction(heldAt: last))
            }
            var report = RetainersReport(
                target: LiveHeapReader.identity(of: inspector.memory, readWhileRunning: false),
                object: object, paths: holders.map(RetainersReport.Path.init), holderCount: found.holderCount,
                rootCount: found.rootCount)
            report.lastingPath = lastingPath
            report.lastingPathAdded = lastingPathAdded
            report.weakHolders = try describer.describe(weakChains).compactMap(\.first)
            return (report: report, sizing: RetainerRetainedSizes(reachability), object: index)
        }
        var report = found.report
        if report.isReachable { report.retainedBytes = found.sizing.retained(by: found.object) }
        if let stop { report.record(stop) }
        return report
    }

    /// A shortest path to every object whose dynamic type is named `type`, grouped by shape: from
    /// the roots that last (globals, thread-local storage, mappings) where one reaches the object,
    /// else from a thread's stack or registers.
    public static func retainers(_ options: LiveTargetOptions, type: String) throws(LiveReadingError) -> RetainerShapes {
        let (found, stop) = try stopped(options) { inspector, marking throws(LiveReadingError) in
            let reachability = marking.reachability
            let metadata = inspector.classMetadata(candidates: Set(reachability.firstWords.filter { $0 >= 4096 && $0 & 7 == 0 }))
            let names: [UInt64: String]
            do throws(TypeLoweringError) {
                names = try inspector.typeNames(ofMetadata: Array(metadata.keys))
            } catch {
                throw .lowering(error)
            }
            let wanted = Set(names.filter { $0.value == type }.keys)
            let objects = reachability.firstWords.indices.filter { wanted.contains(reachability.firstWords[$0]) }
            var describer = HolderDescriber(inspector: inspector, reachability: reachability)
            describer.knownNames = names
            let paths = RetainerPaths(reachability)
            // Shapes are made of steps without addresses: each distinct step (a root word, or
            // a class and offset) is described once, from one representative, so a million
            // objects held alike cost a million walks up the first reaches and no more.
            // Every element of `[C]` storage is one step: where its elements start is learned
            // from the first element met (the reflection library's fields end there).
            var elementsStart: [UInt64: UInt64?] = [:]
            func key(_ step: RetainerPaths.Step) throws(LiveReadingError) -> StepKey {
                var key = StepKey(step, reachability)
                guard case .allocation(_, let offset?) = step, names[key.firstWord] == ClassArrayElements.storageName else { return key }
                if elementsStart[key.firstWord] == nil {
                    var start: UInt64?
                    if case .allocation(_, .element(let index))? = try describer.describe([[step]]).first?.first {
                        start = offset - UInt64(index) * 8
                    }
                    elementsStart[key.firstWord] = .some(start)
                }
                if let start = elementsStart[key.firstWord] ?? nil, offset >= start, (offset - start) % 8 == 0 { key.offset = .max }
                return key
            }
            // Each object through the roots that last where one reaches it (a stack word's path
            // may be shorter than the owner's, and says less of why the object stays).
            var lasting: LastingRetainerPaths
            do throws(BinaryInfoError) {
                lasting = try LastingRetainerPaths(paths)
            } catch {
                throw .target(error)
            }
            let chains = objects.map { lasting.chain(to: $0, memory: inspector.memory) }
            var representatives: [StepKey: RetainerPaths.Step] = [:]
            var unreachable = 0
            for chain in chains {
                guard let chain else {
                    unreachable += 1
                    continue
                }
                for step in chain { representatives[try key(step)] = step }
            }
            let keys = Array(representatives.keys)
            let described = try describer.describe(keys.map { [representatives[$0]!] })
            var shapeOf: [StepKey: String] = [:]
            for (key, holders) in zip(keys, described) { shapeOf[key] = holders.first?.shape ?? "" }
            var shapes: [[String]: (count: Int, example: UInt64, group: Int)] = [:]
            var grouped: [(object: Int, group: Int)] = []
            for (object, chain) in zip(objects, chains) {
                guard let chain else { continue }
                var steps: [String] = []
                for step in chain { steps.append(shapeOf[try key(step)] ?? "") }
                let shape = RetainerShapes.collapsed(steps)
                let known = shapes[shape]
                let group = known?.group ?? shapes.count
                shapes[shape] = ((known?.count ?? 0) + 1, known?.example ?? reachability.addresses[object], group)
                grouped.append((object, group))
            }
            let groups = shapes.sorted { $0.value.group < $1.value.group }.map {
                RetainerShapes.Group(shape: $0.key, count: $0.value.count, example: $0.value.example)
            }
            return (
                groups: groups, unreachable: unreachable, members: grouped, sizing: RetainerRetainedSizes(reachability),
                target: LiveHeapReader.identity(of: inspector.memory, readWhileRunning: false)
            )
        }
        // The retained sizes are computed with the process running again.
        var groups = found.groups
        if let sums = found.sizing.retained(byGroups: found.members, groupCount: groups.count) {
            for index in groups.indices { groups[index].retainedBytes = sums[index] }
        }
        var shapes = RetainerShapes(target: found.target, type: type, groups: groups, unreachable: found.unreachable)
        if let stop { shapes.record(stop) }
        return shapes
    }

    /// Opens the target, stops it, marks its heap with the edges recorded and runs `body`; says
    /// how the process was held.
    static func stopped<Result>(
        _ options: LiveTargetOptions, _ body: (TargetInspector, LiveLeakReader.Marking) throws(LiveReadingError) -> Result
    ) throws(LiveReadingError) -> (result: Result, stop: ReadingStop?) {
        try options.readingStopped { inspector, pause throws(LiveReadingError) in
            try body(inspector, try LiveLeakReader.mark(inspector, pause: pause, recordingEdges: true))
        }
    }
}

/// A step of a path as its shape sees it: a root word, or an allocation by its first word (its
/// class, for a Swift object) and the offset of the pointing word, with its size for malloc'd
/// memory (which the shape names).
struct StepKey: Hashable {
    var root: HeapRootWord?
    var firstWord: UInt64 = 0
    var offset: UInt64?
    var size: UInt64 = 0

    init(_ step: RetainerPaths.Step, _ reachability: HeapReachability) {
        switch step {
        case .root(let word):
            // A stack or a mapping is its shape whatever the word's address; a register or a
            // global names itself.
            root = word
        case .allocation(let index, let offset):
            firstWord = reachability.firstWords[index]
            self.offset = offset
            size = reachability.sizes[index]
        }
    }
}

extension RetainerShapes {
    /// `shape` with each run of equal holders (a linked list's nodes) written once with its count.
    static func collapsed(_ shape: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < shape.count {
            var end = index + 1
            while end < shape.count, shape[end] == shape[index] { end += 1 }
            result.append(end - index > 1 ? shape[index] + " (×\(end - index))" : shape[index])
            index = end
        }
        return result
    }
}

extension RetainersReport: StatesReadingStop {
    mutating func record(_ stop: ReadingStop) { target.stop = stop }
}

extension RetainerShapes: StatesReadingStop {
    mutating func record(_ stop: ReadingStop) { target.stop = stop }
}
