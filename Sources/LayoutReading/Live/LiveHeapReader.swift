import BinaryInfo
import TypeLayout
import TypeLowering

/// `typeinfo heap`: what a live process's or a core file's heap holds, by dynamic type.
///
/// Every live allocation comes from the target's allocator, read through ``TargetHeap`` (glibc's
/// ``GlibcHeap``: every arena and mmapped chunk, freed chunks left out). An allocation is a
/// Swift object when its first word is the address of Swift class metadata the target's images
/// describe (``SwiftClassRecognizer``, in batches: ``MetadataCensus``); its type is named by the toolchain's reflection library reading the same target, generic
/// arguments included. Nothing is written to the target, and it keeps running unless
/// ``LiveTargetOptions/pauses``.
public enum LiveHeapReader {
    /// Counts the target's live Swift objects by type.
    ///
    /// - Throws: ``LiveReadingError`` naming what could not be read.
    /// - Parameter addressesPerType: how many object addresses to keep per type (``HeapCensus/Entry/addresses``).
    public static func census(_ options: LiveTargetOptions, addressesPerType: Int = 0) throws(LiveReadingError) -> HeapCensus {
        try options.whilePausedRecordingStop { pause throws(LiveReadingError) in
            let paused = pause != nil
            let inspector = try options.openInspector()
            guard inspector.images.contains(where: \.isSwift) else { throw .notSwift(target: options.target.description) }
            let walk = try walkRetrying(inspector, pause: pause, addressesPerType: addressesPerType)
            let names: [UInt64: String]
            do throws(TypeLoweringError) {
                names = try inspector.typeNames(ofMetadata: Array(walk.objects.keys))
            } catch {
                throw .lowering(error)
            }
            var entries = Self.entries(
                walk.objects.map { ($0.key, $0.value.count, $0.value.bytes) }, names: names,
                instanceSizes: walk.instanceSizes, addresses: walk.addresses, addressesPerType: addressesPerType)
            try ClassArrayElements.attribute(
                &entries, storages: walk.arrayStorages, names: names, addressesPerType: addressesPerType, inspector)
            let swiftObjects = walk.objects.values.reduce(0) { $0 + $1.count }
            let swiftBytes = walk.objects.values.reduce(0) { $0 + $1.bytes }
            return HeapCensus(
                target: identity(of: inspector.memory, readWhileRunning: !paused),
                totals: .init(
                    allocations: walk.allocations, heapBytes: walk.heapBytes, swiftObjects: swiftObjects, swiftObjectBytes: swiftBytes),
                types: Array(entries.values), readChanges: walk.changes)
        }
    }

    /// The census's entries from each class's objects: by name, since two metadata records may
    /// name one type (an instantiation made twice is not, but a name the library cannot give is
    /// kept apart by its address).
    static func entries(
        _ objects: [(metadata: UInt64, count: Int, bytes: Int)], names: [UInt64: String], instanceSizes: [UInt64: Int],
        addresses: [UInt64: [UInt64]], addressesPerType: Int
    ) -> [String: HeapCensus.Entry] {
        var entries: [String: HeapCensus.Entry] = [:]
        for (metadata, count, bytes) in objects {
            let name = typeName(of: metadata, names)
            let instanceSize = instanceSizes[metadata]
            var entry = entries[name] ?? HeapCensus.Entry(type: name, count: 0, bytes: 0, instanceSize: instanceSize)
            entry.count += count
            entry.bytes += bytes
            entry.addresses = Array((entry.addresses + (addresses[metadata] ?? [])).sorted().prefix(addressesPerType))
            if entry.instanceSize != instanceSize { entry.instanceSize = nil }
            entries[name] = entry
        }
        return entries
    }

    /// The census's name of the class whose metadata is at `metadata`.
    static func typeName(of metadata: UInt64, _ names: [UInt64: String]) -> String {
        names[metadata] ?? "<class metadata 0x\(String(metadata, radix: 16))>"
    }

    /// How many times a running process's heap is read before its changing is reported: the
    /// allocator's lists move under a reading of a busy process, and a second reading usually
    /// meets them at rest.
    static let readingsOfARunningHeap = 3

    /// ``objectsByMetadata(_:)``, read again when a running process's heap changed under the
    /// reading (a stopped process or a core gives the same bytes every time: its error stands).
    /// A busy allocator can also make its main arena fail the checks that find it, so a malloc
    /// state not found is read again too; the last error says to stop the process (`--pause`).
    static func walkRetrying(_ inspector: TargetInspector, pause: ProcessPause?, addressesPerType: Int) throws(LiveReadingError) -> Walk {
        try readingAgainWhileChanging(inspector, pause: pause) { () throws(LiveReadingError) in
            try objectsByMetadata(inspector, pause: pause, addressesPerType: addressesPerType)
        }
    }

    /// Runs a heap reading, and runs it again when the process's heap changed under it (up to
    /// ``readingsOfARunningHeap`` readings in all): a running process's allocator moves, and a
    /// stopped one may have been stopped inside the allocator, so before each new reading of a
    /// paused process it runs for a moment (``ProcessPause/letRunBriefly()``).
    static func readingAgainWhileChanging<Result>(
        _ inspector: TargetInspector, pause: ProcessPause?, _ reading: () throws(LiveReadingError) -> Result
    ) throws(LiveReadingError) -> Result {
        var attempt = 1
        while true {
            do {
                return try reading()
            } catch .target(let error) where inspector.memory.mayChange {
                // The allocator's lists, or the arena the reading starts from, moved under it.
                switch error {
                case .malformedHeap, .mallocStateNotFound: break
                default: throw .target(error)
                }
                guard attempt < readingsOfARunningHeap else {
                    throw pause == nil ? .heapKeptChanging(error, readings: attempt) : .target(error)
                }
                attempt += 1
                do throws(BinaryInfoError) {
                    try pause?.letRunBriefly()
                } catch {
                    throw .target(error)
                }
            }
        }
    }

    struct Walk {
        var objects: [UInt64: (count: Int, bytes: Int)] = [:]
        var instanceSizes: [UInt64: Int] = [:]
        var addresses: [UInt64: [UInt64]] = [:]
        /// Every array storage object (``ClassArrayElements``), by class metadata.
        var arrayStorages: [UInt64: [(address: UInt64, bytes: Int)]] = [:]
        var allocations = 0
        var heapBytes = 0
        /// What changed under the reading of a running process; nil for a stable heap.
        var changes: HeapReadChanges?
    }

    /// Every live allocation, and those that are Swift objects by their metadata.
    static func objectsByMetadata(_ inspector: TargetInspector, pause: ProcessPause?, addressesPerType: Int = 0) throws(LiveReadingError)
        -> Walk
    {
        let heap = try heap(of: inspector, pause: pause)
        var walk = Walk()
        var census = MetadataCensus(inspector: inspector, addressesPerType: addressesPerType)
        do throws(BinaryInfoError) {
            walk.changes = try heap.forEachChunk { chunk in
                walk.allocations += 1
                walk.heapBytes += Int(chunk.usableSize)
                census.count(chunk)
            }.changes
        } catch {
            throw .target(error)
        }
        census.settle()
        walk.instanceSizes = census.instanceSizes
        walk.arrayStorages = census.arrayStorages
        let tallies = census.tallies
        for tally in tallies {
            walk.objects[tally.metadata] = (tally.count, tally.bytes)
            walk.addresses[tally.metadata] = tally.addresses
        }
        return walk
    }

    /// The heap of the target's allocator (``TargetHeaps/open(_:changing:)``: glibc's, else the
    /// allocator that replaces it is named in the error): read as changing while it is read (a
    /// process not stopped), or as stable (a core, a process stopped by `pause`), where what does
    /// not fit is an error.
    static func heap(of inspector: TargetInspector, pause: ProcessPause?) throws(LiveReadingError) -> any TargetHeap {
        do throws(BinaryInfoError) {
            return try TargetHeaps.open(inspector.memory, changing: inspector.memory.mayChange && pause == nil)
        } catch {
            throw .target(error)
        }
    }

    /// Which process the census describes.
    static func identity(of memory: TargetMemory, readWhileRunning: Bool) -> HeapCensus.Target {
        // The user's difference: a core is named by its path and described "as it was when dumped".
        switch memory.target {
        case .process:
            return .init(processID: memory.processID, command: memory.programName, corePath: nil, readWhileRunning: readWhileRunning)
        case .core(let path):
            var target = HeapCensus.Target(
                processID: memory.processID, command: memory.programName, corePath: path, readWhileRunning: false)
            target.coreMismatches = memory.coreMismatches()
            return target
        }
    }
}
