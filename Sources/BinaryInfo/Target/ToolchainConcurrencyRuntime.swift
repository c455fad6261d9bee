/// This toolchain's own concurrency runtime (`libswift_Concurrency.so`), as the source of the
/// numbers a target's runtime of the same build keeps in debug variables its linker dropped
/// (`_swift_concurrency_debug_asyncTaskSize`, `_internal_layout_version`,
/// `_supportsPriorityEscalation`: SwiftPM links release builds with `--gc-sections`, and a
/// runtime linked into the executable with `--static-swift-stdlib` keeps only what its code
/// uses).
///
/// The numbers are taken only from a library of the same build as the target's runtime: every
/// function of the concurrency runtime's entry points (`swift_task_*`, `swift_taskGroup_*`,
/// `swift_asyncLet_*`, `swift_continuation_*`, `swift_defaultActor_*`, `swift_job_*`) that both
/// define has the same size in both symbol tables, and they share at least
/// ``minimumSharedFunctions``. The static archive the executable was linked from and the shared
/// library are built from the same sources by the same compiler, so their functions have the
/// same sizes; a runtime of another release differs in some of them (an `AsyncTask` of another
/// size changes the code that allocates and reads tasks).
public struct ToolchainConcurrencyRuntime: Sendable {
    /// Why the toolchain's library does not state a target's numbers.
    public enum Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The library could not be read.
        case unreadable(BinaryInfoError)
        /// The library does not define the variable.
        case noVariable(String)
        /// Too few entry points both define to compare builds.
        case tooFewShared(count: Int)
        /// A function both define has different sizes: another build.
        case differentBuild(function: String)

        public var description: String {
            switch self {
            case .unreadable(let error): "\(error)"
            case .noVariable(let name): "it does not define \(name)"
            case .tooFewShared(let count):
                "the target's runtime shares \(count) of its functions, too few to tell whether it is the same build"
            case .differentBuild(let function):
                "the target's runtime is another build (its \(function) has another size)"
            }
        }
    }

    /// The name prefixes of the entry points compared.
    static let entryPointPrefixes = [
        "swift_task_", "swift_taskGroup_", "swift_asyncLet_", "swift_continuation_", "swift_defaultActor_", "swift_job_",
    ]
    /// The fewest shared entry points that tell two builds apart (Swift 6.3.1's runtime has 90).
    public static let minimumSharedFunctions = 32
    /// The variables read from the library.
    static let numbers: [RuntimeDebugVariable] = [.asyncTaskSize, .internalLayoutVersion, .supportsPriorityEscalation]

    /// The library's path.
    public let path: String
    /// The numbers' bytes, by variable.
    public let values: [RuntimeDebugVariable: [UInt8]]

    /// The toolchain's library at `path`, when its build is that of `image`'s runtime.
    public static func matching(path: String, image: TargetImage) -> Result<Self, Mismatch> {
        let library: FileBytes
        let file: ELFFile
        let ours: [String: Set<UInt64>]
        let theirs: [String: Set<UInt64>]
        do throws(BinaryInfoError) {
            library = try ImageLoader.readFile(path)
            file = try ELFFile(bytes: library, includeStaticSymbols: true, includeTables: true, sortsSymbols: false)
            ours = try ELFFile.functionSizes(in: library, prefixes: entryPointPrefixes)
            theirs = try ELFFile.functionSizes(in: image.file, prefixes: entryPointPrefixes)
        } catch {
            return .failure(.unreadable(error))
        }
        let shared = Set(ours.keys).intersection(theirs.keys).sorted()
        guard shared.count >= minimumSharedFunctions else { return .failure(.tooFewShared(count: shared.count)) }
        if let different = shared.first(where: { ours[$0] != theirs[$0] }) { return .failure(.differentBuild(function: different)) }
        var values: [RuntimeDebugVariable: [UInt8]] = [:]
        for variable in numbers {
            guard let bytes = value(of: variable, in: file, bytes: library) else { return .failure(.noVariable(variable.rawValue)) }
            values[variable] = bytes
        }
        return .success(Self(path: path, values: values))
    }

    /// The initial bytes of `variable` in the library's file: from its section's file bytes, or
    /// zeros in a section without any (`.bss`).
    private static func value(of variable: RuntimeDebugVariable, in file: ELFFile, bytes: FileBytes) -> [UInt8]? {
        guard let symbol = file.definedSymbols.first(where: { file.name(of: $0, in: bytes) == variable.rawValue }),
            let section = file.sections.first(where: { $0.index == Int(symbol.sectionIndex) }), section.isAllocated,
            symbol.value >= section.address, symbol.value - section.address <= section.size,
            section.size - (symbol.value - section.address) >= UInt64(variable.byteCount)
        else { return nil }
        guard section.hasFileBytes else { return [UInt8](repeating: 0, count: variable.byteCount) }
        var result = [UInt8](repeating: 0, count: variable.byteCount)
        let offset = section.offset + (symbol.value - section.address)
        let read = result.withUnsafeMutableBytes { buffer in
            (try? bytes.fetch(into: buffer, fromOffset: offset, what: variable.rawValue)) != nil
        }
        return read ? result : nil
    }
}
