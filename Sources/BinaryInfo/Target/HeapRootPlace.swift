/// Where a root word lies: what `typeinfo retainers` names as a path's first holder.
public enum HeapRootPlace: Sendable, Hashable {
    /// A register of a thread: a general-purpose one (`name` as x86_64's `struct user_regs_struct`
    /// has it), or a word of a vector register (`xmm6 bits 0-63`, ``VectorState/name(ofWord:)``).
    case register(thread: Int32, name: String)
    /// A word of an image's writable data or bss (the image's path as the target mapped it).
    case image(path: String, address: UInt64)
    /// A word of a running thread's stack: the run of writable memory that holds its stack
    /// pointer, below its static thread-local storage.
    case threadStack(thread: Int32, address: UInt64)
    /// A word of a thread's static thread-local storage or of its thread control block (glibc's
    /// `struct pthread`, which holds the first `pthread_setspecific` values): from the lowest
    /// module block its DTV names up to its stack block's end (a thread glibc made), or up to
    /// its thread pointer (`fs_base`, for the main thread, whose block's end is not known).
    case threadLocalStorage(thread: Int32, address: UInt64)
    /// A word of another writable mapping (anonymous when `path` is nil), `start..<end`.
    case mapping(start: UInt64, end: UInt64, path: String?, address: UInt64)
}

extension HeapReachability {
    /// The names of x86_64's `struct user_regs_struct` fields, in ``ThreadRegisters/registers``' order.
    public static let registerNames = [
        "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax", "rip",
        "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
    ]
    /// The name of a register word, by its index in ``ThreadRegisters/words``: a general-purpose
    /// register, else a word of the vector state (``VectorState/name(ofWord:)``).
    public static func registerName(_ index: Int) -> String {
        index < registerNames.count ? registerNames[index] : VectorState.name(ofWord: index - registerNames.count)
    }
    /// `fs_base`'s position in `struct user_regs_struct`: x86_64's thread pointer.
    static let threadPointerIndex = 21

    /// Where `root` lies.
    public func place(of root: HeapRootWord) -> HeapRootPlace {
        switch root {
        case .register(let thread, let index):
            return .register(thread: thread, name: Self.registerName(index))
        case .memory(let address):
            if let image = target.images.first(where: { $0.addressRange.contains(address) }) {
                return .image(path: image.mappedPath, address: address)
            }
            for thread in threads {
                let pointer = thread.registers[Self.threadPointerIndex]
                if let storage = threadLocalStorage(of: thread), storage.contains(address) {
                    return .threadLocalStorage(thread: thread.id, address: address)
                }
                if let start = regions.contiguousStart(to: thread.stackPointer), let end = regions.contiguousEnd(from: thread.stackPointer),
                    start <= address, address < end
                {
                    // Static TLS lies just below the thread pointer when that is in the run: the
                    // stack ends where the lowest module block starts, unknown without the DTV.
                    let pointerInRun = pointer >= start && pointer < end
                    let stackEnd = threadLocalStorage(of: thread)?.lowerBound ?? (pointerInRun ? nil : end)
                    if let stackEnd, address < stackEnd { return .threadStack(thread: thread.id, address: address) }
                }
            }
            let region = regions.region(containing: address)
            return .mapping(start: region?.start ?? address, end: region?.end ?? address + 8, path: region?.filePath, address: address)
        }
    }

    /// The range of `thread`'s static TLS and control block: from the lowest module block its
    /// DTV points to (below the thread pointer, in the run of memory that holds it) to the run's
    /// end when the run is the thread's stack block, else to the thread pointer. Nil when the
    /// DTV cannot be read.
    func threadLocalStorage(of thread: ThreadRegisters) -> Range<UInt64>? {
        let pointer = thread.registers[Self.threadPointerIndex]
        guard pointer != 0, let start = regions.contiguousStart(to: pointer), let end = regions.contiguousEnd(from: pointer),
            let dtv = try? target.read(UInt64.self, at: pointer + 8, what: "a thread's DTV pointer"), dtv >= 16,
            let slots = try? target.read(UInt64.self, at: dtv - 16, what: "a thread's DTV length")
        else { return nil }
        // dtv[-1] holds the slot count, dtv[0] the generation, dtv[1...] each module's block.
        var lowest = pointer
        for slot in 1..<(Int(min(slots, 256)) + 1) {
            guard let block = try? target.read(UInt64.self, at: dtv + UInt64(slot) * 16, what: "a thread's DTV slot") else { break }
            if block >= start, block < pointer { lowest = min(lowest, block) }
        }
        let stackStart = regions.contiguousStart(to: thread.stackPointer)
        let upper = stackStart == start ? end : pointer
        return lowest < upper ? lowest..<upper : nil
    }
}
