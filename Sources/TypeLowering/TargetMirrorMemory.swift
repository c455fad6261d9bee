import BinaryInfo

/// What the reflection library reads when the worker inspects a target: the target's memory
/// (``TargetMemory``: a process, or a core with its left-out pages from the matched files),
/// copied out read by read, and local copies of each Swift image's reflection sections, which the
/// library is handed at their target addresses.
///
/// Reads never write the target. A read that fails is refused (the library sees a failed read,
/// as for an unmapped address); the first failure that means the target is gone (the process
/// exited) is kept, so the worker ends with that error instead of answering "unknown".
final class TargetMirrorMemory {
    let memory: TargetMemory
    /// Each Swift image's reflection sections, by name: the target address and a local copy.
    private(set) var reflectionSections: [[String: (remote: UInt64, local: UnsafeMutableRawBufferPointer)]] = []
    /// Why the target can no longer be read, once a read found it gone.
    private(set) var targetLost: BinaryInfoError?
    /// The target's memory in 64 KiB blocks that answer the library's small reads near each
    /// other (``CachingPolicy/reflectionReads``), forgotten before each batch of questions.
    private let cached: CachingReader<TargetMemory>

    /// The most bytes one read of the library copies (it reads records, names and sections).
    static let maximumRead: UInt64 = 1 << 26
    /// The sections the library is given (`swift_reflection_mapping_info_t`).
    static let reflectionSectionNames = [
        "swift5_fieldmd", "swift5_assocty", "swift5_builtin", "swift5_capture", "swift5_typeref", "swift5_reflstr",
    ]

    /// Copies the reflection sections of `memory`'s Swift images out of the target.
    ///
    /// - Throws: ``TypeLoweringError/target(_:)`` when a section cannot be read.
    init(memory: TargetMemory, toolchainConcurrencyLibrary: String? = nil) throws(TypeLoweringError) {
        self.memory = memory
        self.toolchainConcurrencyLibrary = toolchainConcurrencyLibrary
        cached = CachingReader(memory, policy: .reflectionReads)
        for image in memory.images where image.isSwift {
            var sections: [String: (remote: UInt64, local: UnsafeMutableRawBufferPointer)] = [:]
            for name in Self.reflectionSectionNames {
                guard let range = image.section(name), !range.isEmpty, UInt64(range.count) <= Self.maximumRead else { continue }
                let local = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 8)
                do {
                    try memory.fetch(into: local, from: range.lowerBound, what: "\(name) of \(image.filePath)")
                } catch {
                    local.deallocate()
                    for section in sections.values { section.local.deallocate() }
                    throw .target(error)
                }
                sections[name] = (range.lowerBound, local)
            }
            reflectionSections.append(sections)
        }
    }

    deinit {
        for sections in reflectionSections { for section in sections.values { section.local.deallocate() } }
    }

    /// Drops the blocks read so far: the next batch of questions reads the target as it is then
    /// (a running process's memory changes between batches).
    func forgetReads() { cached.forget() }

    /// A copy of `count` bytes at `address`, released by ``release(_:)``; nil when unreadable.
    func copy(at address: UInt64, count: UInt64) -> UnsafeRawPointer? {
        guard count <= Self.maximumRead else { return nil }
        if address >= Self.derivedVariablesBase { return derivedCopy(at: address, count: count) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(max(count, 1)), alignment: 16)
        let destination = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(count)])
        do {
            try cached.fetch(into: destination, from: address, what: "memory")
            return UnsafeRawPointer(buffer.baseAddress)
        } catch {
            note(error)
            buffer.deallocate()
            return nil
        }
    }

    /// Frees a copy made by ``copy(at:count:)``.
    static func release(_ bytes: UnsafeRawPointer?) {
        bytes.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
    }

    /// The length of the NUL-terminated string at `address`, or 0 when it is unreadable or longer
    /// than a name can be.
    func stringLength(at address: UInt64) -> UInt64 {
        // A chunk at a time; where a chunk runs off readable memory, a byte at a time.
        var length: UInt64 = 0
        var chunk = [UInt8](repeating: 0, count: 256)
        while length < 1 << 16 {
            let cursor = address &+ length
            let read = chunk.withUnsafeMutableBytes { buffer in
                (try? memory.fetch(into: buffer, from: cursor, what: "string")) != nil
            }
            if read {
                if let end = chunk.firstIndex(of: 0) { return length + UInt64(end) }
                length += UInt64(chunk.count)
                continue
            }
            do {
                let byte = try memory.read(UInt8.self, at: cursor, what: "string")
                if byte == 0 { return length }
                length += 1
            } catch {
                note(error)
                return 0
            }
        }
        return 0
    }

    /// The symbol tables of the target's Swift images read so far, by load address (nil: unreadable).
    private var imageSymbols: [UInt64: TargetImageSymbols?] = [:]
    private var symbolAddresses: [String: UInt64?] = [:]
    /// This toolchain's `libswift_Concurrency.so`, the source of numbers a statically linked
    /// runtime of the same build dropped (``RuntimeDebugVariables``).
    private let toolchainConcurrencyLibrary: String?
    /// The runtime's debug variables, found at the first question for one.
    private(set) lazy var runtimeVariables = RuntimeDebugVariables(memory: memory, toolchainConcurrencyLibrary: toolchainConcurrencyLibrary)
    /// The bytes of the variables whose values were derived (``RuntimeVariableSource/derived(bytes:derivation:)``),
    /// by the address the library was given for them.
    private var derivedVariables: [UInt64: [UInt8]] = [:]
    /// Where derived variables are placed for the library: above 2^63, an address no process on
    /// x86_64 or aarch64 can map (user space ends below 2^57), so no read of the target's own
    /// memory is ever answered from them.
    static let derivedVariablesBase: UInt64 = 0x8000_0000_0000_0000

    /// The target address of a symbol of the Swift runtime (the library asks for the concurrency
    /// runtime's `_swift_concurrency_debug_*` and the core runtime's `_swift_debug_*` variables), or
    /// nil. The runtime's debug variables are found by ``RuntimeDebugVariables``; one whose value
    /// was derived (its linker dropped it) is given at an address of ``derivedVariablesBase``,
    /// whose reads answer the derived bytes. For any other name, only the images that can hold
    /// the runtime are read: `libswift_Concurrency` and `libswiftCore` when the target loaded
    /// them, and the executable when it did not load both (linked with `-static-stdlib`); the
    /// concurrency library's first. Other images, whose symbol tables can hold millions of names
    /// (a server's executable), are never read for this.
    func symbolAddress(_ name: String) -> UInt64? {
        if let known = symbolAddresses[name] { return known }
        var address: UInt64?
        if let variable = RuntimeDebugVariable(rawValue: name) {
            switch runtimeVariables.sources[variable] {
            case .success(.variable(let found, _))?: address = found
            case .success(.derived(let bytes, _))?:
                let placed = Self.derivedVariablesBase + UInt64(derivedVariables.count) * 16
                derivedVariables[placed] = bytes
                address = placed
            case .failure?, nil: address = nil
            }
            symbolAddresses[name] = address
            return address
        }
        // The name the target mapped it by: the file read may be the kernel's handle on it.
        func fileName(_ image: TargetImage) -> Substring { image.mappedPath.split(separator: "/").last ?? "" }
        let swift = memory.images.filter(\.isSwift)
        let concurrency = swift.filter { fileName($0).hasPrefix("libswift_Concurrency") }
        let core = swift.filter { fileName($0).hasPrefix("libswiftCore.") }
        let executable = concurrency.isEmpty || core.isEmpty ? memory.executable.map { [$0] } ?? [] : []
        for image in concurrency + core + executable {
            if imageSymbols[image.loadAddress] == nil { imageSymbols[image.loadAddress] = .some(try? TargetImageSymbols(image: image)) }
            if let found = (imageSymbols[image.loadAddress] ?? nil)?.address(of: name) {
                address = found
                break
            }
        }
        symbolAddresses[name] = address
        return address
    }

    /// A copy of the bytes of a derived variable, when `address..<address+count` lies inside one.
    private func derivedCopy(at address: UInt64, count: UInt64) -> UnsafeRawPointer? {
        guard address >= Self.derivedVariablesBase else { return nil }
        let base = address - (address - Self.derivedVariablesBase) % 16
        guard let bytes = derivedVariables[base], address - base + count <= UInt64(bytes.count) else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(max(count, 1)), alignment: 16)
        let start = Int(address - base)
        bytes[start..<start + Int(count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
        return UnsafeRawPointer(buffer.baseAddress)
    }

    private func note(_ error: BinaryInfoError) {
        guard targetLost == nil else { return }
        switch error {
        case .processExited, .noSuchProcess, .processAccessDenied: targetLost = error
        default: break
        }
    }
}
