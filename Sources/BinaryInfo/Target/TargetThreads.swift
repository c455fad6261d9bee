import CPtrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One thread of a stopped process or a core, with its registers.
public struct ThreadRegisters: Sendable, Hashable {
    /// The thread's id (its LWP: `gettid()`, `NT_PRSTATUS`'s `pr_pid`).
    public var id: Int32
    /// The general-purpose registers, in the order of x86_64's `struct user_regs_struct` (r15,
    /// r14, …, rip, cs, eflags, rsp, ss, fs_base, gs_base, ds, es, fs, gs): 27 words.
    public var registers: [UInt64]
    /// The x87, SSE and AVX registers as words of the XSAVE area (``VectorState``), or nil when
    /// they are not known (a core that holds no `NT_X86_XSTATE` or `NT_PRFPREG` note for the
    /// thread). A copy in progress can hold the only pointer to an allocation in an xmm or ymm
    /// register.
    public var vectorState: [UInt64]?

    public init(id: Int32, registers: [UInt64], vectorState: [UInt64]? = nil) {
        self.id = id
        self.registers = registers
        self.vectorState = vectorState
    }

    /// Every word of the thread's registers: the general-purpose ones, then the vector state's.
    /// A root word's index (``HeapRootWord/register(thread:index:)``) counts in this order.
    public var words: [UInt64] { registers + (vectorState ?? []) }

    /// How many words `struct user_regs_struct` has on x86_64.
    static let registerCount = 27
    /// `rsp`'s position in `struct user_regs_struct`.
    static let stackPointerIndex = 19

    /// The stack pointer (`rsp`).
    public var stackPointer: UInt64 { registers[Self.stackPointerIndex] }
}

extension CoreFile {
    /// `struct elf_prstatus` on x86_64: `pr_pid` at 32, `pr_reg` (a `user_regs_struct`) at 112.
    static let statusProcessIDOffset: UInt64 = 32
    static let statusRegistersOffset: UInt64 = 112

    /// Each dumped thread with its registers, from its `NT_PRSTATUS` note, in the core's order.
    ///
    /// - Throws: ``BinaryInfoError/malformedELF(path:detail:)`` naming the note's offset when a
    ///   note is too short for its fields, ``BinaryInfoError/threadRegistersUnreadable(path:thread:reason:)``
    ///   when the core is not of an x86_64 process.
    public func threads() throws(BinaryInfoError) -> [ThreadRegisters] {
        guard architecture == "x86_64" else {
            throw .threadRegistersUnreadable(
                path: path, thread: nil, reason: "they are read from x86_64 cores only, and this core is of \(architecture)")
        }
        let wordCount = UInt64(ThreadRegisters.registerCount)
        var threads: [ThreadRegisters] = []
        let vectorNotes = threadVectorNotes
        for (position, note) in threadNotes.enumerated() {
            guard note.descriptorSize >= Self.statusRegistersOffset + wordCount * 8 else {
                throw .malformedELF(
                    path: path,
                    detail:
                        "NT_PRSTATUS: the note at offset \(note.descriptorOffset) has \(note.descriptorSize) bytes, too few for a thread's registers"
                )
            }
            let bytes = try filledBytes(count: ThreadRegisters.registerCount * 8) { buffer throws(BinaryInfoError) in
                try reader.fetch(
                    into: buffer, fromOffset: note.descriptorOffset + Self.statusRegistersOffset, what: "NT_PRSTATUS registers")
            }
            let words = (0..<ThreadRegisters.registerCount).map { index in
                bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) }
            }
            var id: Int32 = 0
            try withUnsafeMutableBytes(of: &id) { buffer throws(BinaryInfoError) in
                try reader.fetch(into: buffer, fromOffset: note.descriptorOffset + Self.statusProcessIDOffset, what: "NT_PRSTATUS pr_pid")
            }
            let vectorState = try vectorNotes[position].map { note throws(BinaryInfoError) in try vectorWords(of: note) }
            threads.append(
                ThreadRegisters(
                    id: Int32(littleEndian: id), registers: words.map { UInt64(littleEndian: $0) }, vectorState: vectorState))
        }
        return threads
    }

    /// The words of a thread's `NT_X86_XSTATE` or `NT_PRFPREG` note, at most
    /// ``VectorState/maximumWords`` of them.
    func vectorWords(of note: ImageNote) throws(BinaryInfoError) -> [UInt64] {
        let count = Int(min(note.descriptorSize / 8, UInt64(VectorState.maximumWords)))
        let bytes = try filledBytes(count: count * 8) { buffer throws(BinaryInfoError) in
            try reader.fetch(into: buffer, fromOffset: note.descriptorOffset, what: "a thread's vector registers (\(note.typeName))")
        }
        return (0..<count).map { index in
            UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self) })
        }
    }
}

extension ProcessPause {
    /// Reads the registers of a thread this pause holds stopped (`PTRACE_GETREGS`, which only
    /// reads).
    ///
    /// - Throws: ``BinaryInfoError/threadRegistersUnreadable(path:thread:reason:)`` naming the
    ///   thread when the kernel refuses (it exited meanwhile, or this is not an x86_64 process).
    static func registers(ofHeldThread thread: pid_t, processID: Int32) throws(BinaryInfoError) -> ThreadRegisters {
        var words = [UInt64](repeating: 0, count: ThreadRegisters.registerCount)
        let count = words.withUnsafeMutableBufferPointer { buffer in
            typeinfo_ptrace_getregs(thread, buffer.baseAddress, Int32(buffer.count))
        }
        guard count == Int32(ThreadRegisters.registerCount) else {
            let reason = count < 0 && errno != 0 ? String(cString: strerror(errno)) : "not an x86_64 thread"
            throw .threadRegistersUnreadable(path: "process \(processID)", thread: thread, reason: "PTRACE_GETREGS refused (\(reason))")
        }
        var vector = [UInt64](repeating: 0, count: VectorState.maximumWords)
        let vectorCount = vector.withUnsafeMutableBufferPointer { buffer in
            typeinfo_ptrace_getvectorstate(thread, buffer.baseAddress, Int32(buffer.count))
        }
        guard vectorCount >= VectorState.legacyWords, vectorCount <= Int32(vector.count) else {
            let reason = vectorCount < 0 && errno != 0 ? String(cString: strerror(errno)) : "not an x86_64 thread"
            throw .threadRegistersUnreadable(
                path: "process \(processID)", thread: thread,
                reason: "PTRACE_GETREGSET (NT_X86_XSTATE) and PTRACE_GETFPREGS refused (\(reason))")
        }
        return ThreadRegisters(id: thread, registers: words, vectorState: Array(vector.prefix(Int(vectorCount))))
    }
}
