import BinaryInfo
import TypeLowering

/// Why a live process or a core file could not be read.
public enum LiveReadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The target's memory, its images or its heap could not be read: no such process,
    /// permission denied, the process exited, a truncated core, an image file missing or of
    /// another build, a heap that is corrupt or changed under the reading.
    case target(BinaryInfoError)
    /// The reflection library could not answer (the worker is missing, crashed or timed out).
    case lowering(TypeLoweringError)
    /// No image the target had loaded holds Swift metadata.
    case notSwift(target: String)
    /// A `--type` pattern that does not compile.
    case invalidSelection(TypeFilterError)
    /// A running process's allocator arenas did not verify in any of `readings` readings (each
    /// itself looking for them several times): a busy allocator changes under a reading;
    /// `error` is the last reading's. The walk of the heap itself never fails this way: it goes
    /// around what changes (``HeapCensus/readChanges``).
    case heapKeptChanging(BinaryInfoError, readings: Int)
    /// No Swift object starts at the address: its first word is not class metadata.
    case notAnObject(target: String, address: UInt64)
    /// No live allocation of the heap starts at the address; `containing` is the start of the
    /// one it lies in (of `size` usable bytes), if any.
    case notAnAllocation(target: String, address: UInt64, containing: UInt64?, size: UInt64?)
    /// The target has no Swift concurrency runtime: it did not load `libswift_Concurrency.so`,
    /// and its executable's symbol table defines none of the runtime's entry points that make a
    /// task, an actor or a continuation.
    case noConcurrencyRuntime(target: String)
    /// Whether the target uses Swift concurrency cannot be told: it did not load
    /// `libswift_Concurrency.so`, and its executable, which could hold the runtime, is stripped.
    case concurrencyRuntimeUnknown(target: String, executable: String)
    /// The target holds the concurrency runtime, but where its task metadata is cannot be found.
    case taskMetadataUnknown(target: String, reason: RuntimeVariableUnknown)
    /// The reflection library is not one whose task and actor layouts typeinfo has verified.
    case unverifiedTaskLayout(reason: String)
    /// The heap's graph has more allocations or pointers than the dominator tree numbers
    /// (``DominatorTree/largestCount``).
    case graphTooLarge(target: String, allocations: Int, edges: Int)

    public var description: String {
        switch self {
        case .target(let error):
            return error.description
        case .lowering(let error):
            if case .target(let inner) = error { return inner.description }
            return error.description
        case .notSwift(let target):
            return "\(target): not a Swift process: none of the images it has loaded holds Swift metadata"
        case .invalidSelection(let error):
            return "\(error)"
        case .heapKeptChanging(let error, let readings):
            return
                "\(error.path): its heap kept changing while typeinfo looked for the allocator's arenas (\(readings) readings while it ran; the last found \(error.problem)): run again, or with --pause to stop the process for the reading"
        case .noConcurrencyRuntime(let target):
            return
                "\(target): not using Swift concurrency: libswift_Concurrency is not loaded, and its executable holds none of the concurrency runtime's code (no entry point that makes a task, an actor or a continuation)"
        case .concurrencyRuntimeUnknown(let target, let executable):
            return
                "\(target): cannot tell whether it uses Swift concurrency: libswift_Concurrency is not loaded, and its executable \(executable) is stripped (no .symtab) and exports none of the runtime, so whether it holds the concurrency runtime is unknown"
        case .taskMetadataUnknown(let target, let reason):
            return
                "\(target): its Swift concurrency runtime's task metadata could not be found (_swift_concurrency_debug_asyncTaskMetadata: \(reason)), so its tasks cannot be told from other allocations"
        case .unverifiedTaskLayout(let reason):
            return reason
        case .graphTooLarge(let target, let allocations, let edges):
            return
                "\(target): its heap's graph (\(allocations) allocations, \(edges) pointers between them) is larger than retained sizes are computed for (at most \(DominatorTree.largestCount) of each); `typeinfo heap` without --retained counts it"
        case .notAnAllocation(let target, let address, let containing?, let size?):
            return
                "\(target): no allocation starts at 0x\(String(address, radix: 16)): it lies \(address &- containing) bytes into the allocation at 0x\(String(containing, radix: 16)) (\(size) usable bytes); give an allocation's start (`typeinfo heap --addresses N` lists objects by type)"
        case .notAnAllocation(let target, let address, _, _):
            return
                "\(target): no allocation starts at 0x\(String(address, radix: 16)), and it lies in none of the heap's live allocations; give an allocation's start (`typeinfo heap --addresses N` lists objects by type)"
        case .notAnObject(let target, let address):
            return
                "\(target): no Swift object at 0x\(String(address, radix: 16)): its first word is not the metadata of a Swift class the target's images define (give an object's start address: `typeinfo heap --addresses N` lists objects by type)"
        }
    }
}
