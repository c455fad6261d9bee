import BinaryInfo
import CSwiftRemoteMirror

/// The generic metadata the target's runtime has made: the entries of its generic metadata
/// caches, found by walking its metadata allocator's pool (``MetadataAllocationPool``: Swift
/// 6.3's `swift_reflection_iterateMetadataAllocations` misreads the pool and lists nothing), each
/// entry's metadata read by the library (`swift_reflection_allocationMetadataPointer`, which
/// knows the runtime's cache entry layout).
struct RemoteMirrorAllocations {
    let metadataPointer: rm_allocation_metadata_pointer_fn

    /// Looks the entry point up; nil when the library lacks it.
    init?(_ library: RemoteMirrorLibrary) {
        guard let pointer = library.symbol(named: "swift_reflection_allocationMetadataPointer") else { return nil }
        metadataPointer = unsafeBitCast(pointer, to: rm_allocation_metadata_pointer_fn.self)
    }

    /// The metadata records of the runtime's generic metadata caches (each once, by address), and
    /// where the pool's walk stopped early; or why the pool cannot be walked.
    func genericMetadata(in context: RemoteMirrorContext, target: TargetMirrorMemory) -> Result<
        (metadata: [UInt64], stops: [UInt64]), TargetListingUnavailable
    > {
        // The pool's range, through the runtime's variable, or where the linker dropped that, at the
        // address it would hold (RuntimeDebugVariables).
        let pool: MetadataAllocationPool.PoolLocation?
        switch target.runtimeVariables.sources[.allocationPoolPointer] {
        case .success(.variable(let address, _))?: pool = .pointer(at: address)
        case .success(.derived)?:
            // A derived value is its bytes: reading it cannot fail.
            pool = (try? target.runtimeVariables.value(of: .allocationPoolPointer, in: target.memory).get()).map { .range(at: $0) }
        case .failure(let unknown)?:
            return .failure(
                TargetListingUnavailable(
                    reason: "the target's Swift runtime has no \(RuntimeDebugVariable.allocationPoolPointer.rawValue): \(unknown)"))
        case nil: pool = nil
        }
        let walk = MetadataAllocationPool.walk(
            memory: target.memory, iterationEnabled: target.symbolAddress("_swift_debug_metadataAllocationIterationEnabled"), pool: pool)
        switch walk {
        case .failure(.iterationDisabled):
            return .failure(
                TargetListingUnavailable(
                    reason: "the process was not started with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1", runtimeKeepsNoList: true)
            )
        case .failure(.variablesMissing(let name)):
            return .failure(TargetListingUnavailable(reason: "the target's Swift runtime has no \(name)"))
        case .failure(.unreadable(let error)):
            return .failure(TargetListingUnavailable(reason: "the runtime's metadata allocation pool could not be read: \(error)"))
        case .success(let pool):
            var metadata: Set<UInt64> = []
            for allocation in pool.allocations where allocation.tag == MetadataAllocationPool.genericMetadataCacheTag {
                let record = rm_metadata_allocation_t(
                    Tag: Int32(allocation.tag), Ptr: allocation.address, Size: UInt32(allocation.size))
                let pointer = metadataPointer(context.context, record)
                if pointer != 0 { metadata.insert(pointer) }
            }
            return .success((metadata.sorted(), pool.stops))
        }
    }
}
