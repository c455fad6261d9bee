import CSwiftRemoteMirror

/// The generic metadata the target's runtime has made, as libswiftRemoteMirror lists its
/// metadata allocator's allocations (`swift_reflection_iterateMetadataAllocations`).
struct RemoteMirrorAllocations {
    let iterate: rm_iterate_metadata_allocations_fn
    let metadataPointer: rm_allocation_metadata_pointer_fn

    /// Looks the entry points up; nil when the library lacks one.
    init?(_ library: RemoteMirrorLibrary) {
        guard let iterate = library.symbol(named: "swift_reflection_iterateMetadataAllocations"),
            let pointer = library.symbol(named: "swift_reflection_allocationMetadataPointer")
        else { return nil }
        self.iterate = unsafeBitCast(iterate, to: rm_iterate_metadata_allocations_fn.self)
        metadataPointer = unsafeBitCast(pointer, to: rm_allocation_metadata_pointer_fn.self)
    }

    /// The metadata records of the runtime's generic metadata caches, or the library's reason it
    /// cannot list them.
    func genericMetadata(in context: RemoteMirrorContext) -> Result<[UInt64], MirrorError> {
        final class Collected {
            var allocations: [rm_metadata_allocation_t] = []
        }
        let collected = Collected()
        let error = iterate(
            context.context,
            { allocation, opaque in
                guard let opaque else { return }
                let collected = Unmanaged<Collected>.fromOpaque(opaque).takeUnretainedValue()
                // A damaged allocator's list ends here rather than filling memory.
                guard collected.allocations.count < 1 << 22 else { return }
                collected.allocations.append(allocation)
            }, Unmanaged.passUnretained(collected).toOpaque())
        if let error { return .failure(MirrorError(text: String(cString: error))) }
        var metadata: [UInt64] = []

        for allocation in collected.allocations where allocation.Tag == Int32(RM_GENERIC_METADATA_CACHE_ALLOCATION) {
            let pointer = metadataPointer(context.context, allocation)
            if pointer != 0 { metadata.append(pointer) }
        }
        return .success(Array(Set(metadata)).sorted())
    }
}
