/// The Swift runtime's debug variables of a target (``RuntimeDebugVariable``), each found where
/// the target states it.
///
/// A runtime library (`libswift_Concurrency.so`, `libswiftCore.so`) exports every one. An
/// executable linked with the static standard library holds the runtime itself, and when its
/// linker collected unused sections (SwiftPM's release builds: `--gc-sections`), the variables
/// no code reads are gone. Their values are then derived where the binary still states them:
/// the runtime's local symbols in its `.symtab` (SwiftPM does not strip), which give the task
/// and job metadata (through the variables `swift::taskHeapMetadataPtr` and
/// `swift::jobHeapMetadataPtr` hold, checked to be metadata of kind `Task` and `Job`), the
/// adapters, the task slab metadata and the allocation pool; and the numbers from this
/// toolchain's own `libswift_Concurrency.so` when it is the same build
/// (``ToolchainConcurrencyRuntime``). What none of these states stays unknown, with the reason.
public struct RuntimeDebugVariables: Sendable {
    /// The image that holds the concurrency runtime (`libswift_Concurrency.so`, or an executable
    /// that has its code); nil when no image does, or when that cannot be told
    /// (``strippedExecutable``).
    public let concurrencyImage: TargetImage?
    /// The executable, when no image is known to hold the concurrency runtime although it might:
    /// it is stripped (no `.symtab`) and exports none of the runtime. Nil when
    /// ``concurrencyImage`` is known, or when every image is known not to hold it.
    public let strippedExecutable: String?
    /// Where each variable's value comes from, or why it is unknown.
    public let sources: [RuntimeDebugVariable: Result<RuntimeVariableSource, RuntimeVariableUnknown>]

    /// Names only the concurrency runtime defines, among them every entry point that makes a task
    /// (`swift_task_create*`), an actor (`swift_defaultActor_initialize`) or a continuation
    /// (`swift_continuation_init`), and the task metadata: an image that defines none holds no
    /// concurrency runtime that could have made a task or an actor. (Other `swift_task_*`
    /// functions, `swift_task_enterThreadLocalContext` and `_exitThreadLocalContext`, are the core
    /// runtime's exclusivity checking, in every program.)
    static let concurrencyCodePrefixes = [
        "swift_task_create", "swift_task_switch", "swift_taskGroup_", "swift_asyncLet_", "swift_continuation_", "swift_defaultActor_",
        "swift_job_", "_ZN5swift19taskHeapMetadataPtrE", "_ZL16taskHeapMetadata",
    ]

    /// Finds the variables of `memory`'s runtime.
    ///
    /// - Parameter toolchainConcurrencyLibrary: this toolchain's `libswift_Concurrency.so`, the
    ///   source of the numbers a statically linked runtime of the same build dropped; nil to derive
    ///   none.
    public init(memory: TargetMemory, toolchainConcurrencyLibrary: String?) {
        func fileName(_ image: TargetImage) -> Substring { image.mappedPath.split(separator: "/").last ?? "" }
        let swift = memory.images.filter(\.isSwift)
        let concurrencyLibrary = swift.first { fileName($0).hasPrefix("libswift_Concurrency") }
        let coreLibrary = swift.first { fileName($0).hasPrefix("libswiftCore.") }
        // The executable holds a runtime only when the library is not loaded (`-static-stdlib`).
        let executable = memory.executable
        var symbols: [UInt64: TargetImageSymbols?] = [:]
        func symbolTable(_ image: TargetImage) -> TargetImageSymbols? {
            if let known = symbols[image.loadAddress] { return known }
            let table = try? TargetImageSymbols(image: image)
            symbols[image.loadAddress] = .some(table)
            return table
        }

        var concurrencyImage = concurrencyLibrary
        var concurrencyUnknown: RuntimeVariableUnknown?
        if concurrencyImage == nil, let executable, let table = symbolTable(executable) {
            if table.definesName(withPrefix: Self.concurrencyCodePrefixes)
                || RuntimeDebugVariable.allCases.contains(where: { $0.isConcurrency && table.address(of: $0.rawValue) != nil })
            {
                concurrencyImage = executable
            } else if !table.hasStaticSymbolTable {
                concurrencyUnknown = .stripped(image: executable.mappedPath)
            }
        }
        self.concurrencyImage = concurrencyImage
        strippedExecutable = if case .stripped(let path)? = concurrencyUnknown { path } else { nil }

        var toolchain: Result<ToolchainConcurrencyRuntime, RuntimeVariableUnknown>?
        var sources: [RuntimeDebugVariable: Result<RuntimeVariableSource, RuntimeVariableUnknown>] = [:]
        for variable in RuntimeDebugVariable.allCases {
            let image = variable.isConcurrency ? concurrencyImage : coreLibrary ?? executable
            guard let image, let table = symbolTable(image) else {
                sources[variable] = .failure(variable.isConcurrency ? concurrencyUnknown ?? .noRuntime : .noRuntime)
                continue
            }
            if let address = table.address(of: variable.rawValue) {
                sources[variable] = .success(.variable(address: address, symbol: variable.rawValue))
                continue
            }
            guard table.hasStaticSymbolTable else {
                sources[variable] = .failure(.stripped(image: image.mappedPath))
                continue
            }
            switch variable.derivation {
            case .heldBy(let symbol, let kind)?:
                sources[variable] = Self.pointerVariable(symbol, kind: kind, table: table, memory: memory)
            case .addressOf(let symbol)?:
                guard let address = table.uniqueAddress(of: symbol) else {
                    sources[variable] = .failure(.noSymbol(image: image.mappedPath, symbol: symbol))
                    continue
                }
                sources[variable] = .success(
                    .derived(bytes: Self.littleEndian(address, count: variable.byteCount), derivation: .addressOf(symbol: symbol)))
            case nil:
                if toolchain == nil {
                    toolchain =
                        if let path = toolchainConcurrencyLibrary {
                            ToolchainConcurrencyRuntime.matching(path: path, image: image).mapError {
                                .toolchainRuntimeUnusable(path: path, reason: $0)
                            }
                        } else {
                            .failure(.noSymbol(image: image.mappedPath, symbol: variable.rawValue))
                        }
                }
                sources[variable] = toolchain!.flatMap { runtime in
                    guard let bytes = runtime.values[variable] else {
                        return .failure(.noSymbol(image: runtime.path, symbol: variable.rawValue))
                    }
                    return .success(.derived(bytes: bytes, derivation: .toolchainRuntime(path: runtime.path)))
                }
            }
        }
        self.sources = sources
    }

    /// The variable's value as an unsigned integer (a pointer, a size, a version, a flag), read
    /// from the target or derived.
    public func value(of variable: RuntimeDebugVariable, in memory: some ByteReader) -> Result<UInt64, RuntimeVariableUnknown> {
        guard let source = sources[variable] else { return .failure(.noRuntime) }
        return source.flatMap { source in
            switch source {
            case .derived(let bytes, _):
                return .success(bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) })
            case .variable(let address, let symbol):
                do throws(BinaryInfoError) {
                    switch variable.byteCount {
                    case 1: return .success(UInt64(try memory.read(UInt8.self, at: address, what: symbol)))
                    case 4: return .success(UInt64(try memory.read(UInt32.self, at: address, what: symbol)))
                    default: return .success(try memory.read(UInt64.self, at: address, what: symbol))
                    }
                } catch {
                    return .failure(.unreadable(error))
                }
            }
        }
    }

    /// The variable `symbol`, when the pointer it holds in the target is metadata of kind `kind`.
    private static func pointerVariable(_ symbol: String, kind: UInt64, table: TargetImageSymbols, memory: TargetMemory) -> Result<
        RuntimeVariableSource, RuntimeVariableUnknown
    > {
        guard let address = table.uniqueAddress(of: symbol) else {
            return .failure(.noSymbol(image: table.image.mappedPath, symbol: symbol))
        }
        do throws(BinaryInfoError) {
            let pointer = try memory.read(UInt64.self, at: address, what: symbol)
            guard pointer >= 4096, pointer & 7 == 0, (try? memory.read(UInt64.self, at: pointer, what: "metadata kind")) == kind else {
                return .failure(.notMetadata(symbol: symbol, address: address, value: pointer))
            }
            return .success(.variable(address: address, symbol: symbol))
        } catch {
            return .failure(.unreadable(error))
        }
    }

    private static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
