/// A variable the Swift runtime defines for tools that inspect it (the concurrency runtime's
/// `_swift_concurrency_debug_*`, the metadata allocator's `_swift_debug_allocationPoolPointer`),
/// which libswiftRemoteMirror and typeinfo read from a target.
public enum RuntimeDebugVariable: String, CaseIterable, Sendable, Hashable {
    case asyncTaskMetadata = "_swift_concurrency_debug_asyncTaskMetadata"
    case jobMetadata = "_swift_concurrency_debug_jobMetadata"
    case asyncTaskSlabMetadata = "_swift_concurrency_debug_asyncTaskSlabMetadata"
    case nonFutureAdapter = "_swift_concurrency_debug_non_future_adapter"
    case futureAdapter = "_swift_concurrency_debug_future_adapter"
    case taskWaitThrowingResumeAdapter = "_swift_concurrency_debug_task_wait_throwing_resume_adapter"
    case taskFutureWaitResumeAdapter = "_swift_concurrency_debug_task_future_wait_resume_adapter"
    case supportsPriorityEscalation = "_swift_concurrency_debug_supportsPriorityEscalation"
    case asyncTaskSize = "_swift_concurrency_debug_asyncTaskSize"
    case internalLayoutVersion = "_swift_concurrency_debug_internal_layout_version"
    case allocationPoolPointer = "_swift_debug_allocationPoolPointer"

    /// The variable's size in bytes (Debug.h, Metadata.cpp: pointers, `bool`, `size_t`, `unsigned`).
    public var byteCount: Int {
        switch self {
        case .supportsPriorityEscalation: 1
        case .internalLayoutVersion: 4
        default: 8
        }
    }

    /// Whether the concurrency runtime defines it (else the core runtime: the allocation pool).
    public var isConcurrency: Bool { self != .allocationPoolPointer }

    /// Where a runtime whose linker dropped the variable (`--gc-sections`, as SwiftPM links release
    /// builds) still states its value: the symbol the value is the address of, or the variable
    /// that holds the same pointer, with the metadata kind found there (Swift 6.3.1's Task.cpp,
    /// Metadata.cpp; each relation checked in that toolchain's `libswift_Concurrency.so` and
    /// `libswiftCore.so`, where both the variable and the symbol are defined). Nil for the
    /// numbers, which no symbol states (``ToolchainConcurrencyRuntime`` gives those).
    var derivation: Derivation? {
        switch self {
        case .asyncTaskMetadata: .heldBy(symbol: "_ZN5swift19taskHeapMetadataPtrE", kind: 0x502)
        case .jobMetadata: .heldBy(symbol: "_ZN5swift18jobHeapMetadataPtrE", kind: 0x503)
        case .asyncTaskSlabMetadata: .addressOf(symbol: "_ZN5swift25TaskAllocatorSlabMetadataE")
        case .nonFutureAdapter: .addressOf(symbol: "_ZL18non_future_adapterPN5swift12AsyncContextE")
        case .futureAdapter: .addressOf(symbol: "_ZL14future_adapterPN5swift12AsyncContextE")
        case .taskWaitThrowingResumeAdapter: .addressOf(symbol: "_ZL33task_wait_throwing_resume_adapterPN5swift12AsyncContextE")
        case .taskFutureWaitResumeAdapter: .addressOf(symbol: "_ZL31task_future_wait_resume_adapterPN5swift12AsyncContextE")
        case .allocationPoolPointer: .addressOf(symbol: "_ZL14AllocationPool")
        case .supportsPriorityEscalation, .asyncTaskSize, .internalLayoutVersion: nil
        }
    }

    /// The runtime's symbol that states the value where the variable itself was dropped: the
    /// symbol whose address it is, or the variable that holds the same pointer; nil for the
    /// numbers.
    public var symbolStatingValue: String? {
        switch derivation {
        case .heldBy(let symbol, _)?, .addressOf(let symbol)?: symbol
        case nil: nil
        }
    }

    /// Whether the value is the pointer that ``symbolStatingValue`` holds (else its address).
    public var isHeldBySymbol: Bool {
        if case .heldBy? = derivation { return true }
        return false
    }

    /// How a dropped variable's value is found in the image's symbol table.
    enum Derivation: Hashable {
        /// The value is a variable's value: the metadata pointer `swift::taskHeapMetadataPtr`
        /// holds, whose first word must be the metadata kind `kind` (MetadataKind.def: `Task`,
        /// `Job`).
        case heldBy(symbol: String, kind: UInt64)
        /// The value is the symbol's address (a function or a variable of the runtime).
        case addressOf(symbol: String)
    }
}

/// Where the value of a ``RuntimeDebugVariable`` of a target comes from.
public enum RuntimeVariableSource: Sendable, Hashable {
    /// A variable of the target holds it, at `address`: the runtime's own (`symbol` is its name),
    /// or where the linker dropped that, the runtime's variable that holds the same pointer
    /// (`swift::taskHeapMetadataPtr`).
    case variable(address: UInt64, symbol: String)
    /// No variable of the target holds it; its bytes (little-endian, of the variable's size) are
    /// derived as `derivation` says.
    case derived(bytes: [UInt8], derivation: RuntimeVariableDerivation)
}

/// How the value of a variable the linker dropped was derived.
public enum RuntimeVariableDerivation: Sendable, Hashable {
    /// The address of `symbol` in the target, from the image's symbol table (`.symtab`).
    case addressOf(symbol: String)
    /// The same variable's value in this toolchain's runtime library at `path`, whose build the
    /// target's runtime matched (``ToolchainConcurrencyRuntime``).
    case toolchainRuntime(path: String)
}

/// Why the value of a ``RuntimeDebugVariable`` of a target is not known.
public enum RuntimeVariableUnknown: Error, Sendable, Hashable, CustomStringConvertible {
    /// No image of the target holds the runtime that defines it.
    case noRuntime
    /// The image has no `.symtab` (stripped) and does not export the variable.
    case stripped(image: String)
    /// The image defines neither the variable nor the one symbol its value is derived from.
    case noSymbol(image: String, symbol: String)
    /// The variable that should hold the metadata pointer holds something else: `value` at
    /// `address`, whose first word is not the expected metadata kind.
    case notMetadata(symbol: String, address: UInt64, value: UInt64)
    /// The target could not be read there.
    case unreadable(BinaryInfoError)
    /// This toolchain's runtime library, the source of the numbers, could not be used: `reason`.
    case toolchainRuntimeUnusable(path: String, reason: ToolchainConcurrencyRuntime.Mismatch)

    public var description: String {
        switch self {
        case .noRuntime: "no image of the target holds the Swift runtime that defines it"
        case .stripped(let image): "\(image) is stripped (no .symtab) and does not export it"
        case .noSymbol(let image, let symbol): "\(image) defines neither it nor \(symbol)"
        case .notMetadata(let symbol, let address, let value):
            "\(symbol) at 0x\(String(address, radix: 16)) holds 0x\(String(value, radix: 16)), not metadata of the expected kind"
        case .unreadable(let error): "\(error)"
        case .toolchainRuntimeUnusable(let path, let reason): "this toolchain's \(path) cannot state it: \(reason)"
        }
    }
}
