#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A long request answered by two processes when a processor is idle: once the worker is ready,
/// it forks, and the child (the library's caches and the laid-out images shared copy-on-write)
/// lowers the second part of the types while the worker lowers the first. The typeinfo process
/// waits idle meanwhile, so with a processor free the lowering takes about half the time.
///
/// The reply keeps the request's order, which is what makes a crash or hang name its type: the
/// child writes into a pipe (made large enough for a whole file's answers, so the child rarely
/// waits on it) that the worker copies to its standard output after its own part. A crash of the
/// child ends the worker with the same signal after what the child finished has been copied, so
/// the client blames the first type not answered, the child's; a hung child keeps the worker
/// waiting until the client kills it, and the child dies with it (its parent-death signal).
extension LoweringWorker {
    /// Below this many types one process answers: the fork and the caches the two processes
    /// fill twice would cost more than the second core saves.
    static let minimumSharedRequest = 64

    /// Answers `manglings` in order on standard output, the second part in a forked child when
    /// there are enough of them; returns the worker's exit status.
    static func answer(_ manglings: [String], session: LoweringSession, request: LoweringRequest) -> Int32 {
        let split = manglings.count / 2
        guard manglings.count >= minimumSharedRequest, sharesNow(),
            let child = SharedAnswers(answering: manglings[split...], session: session, request: request)
        else {
            answer(manglings[...], session: session, request: request, to: .standardOutput)
            return 0
        }
        answer(manglings[..<split], session: session, request: request, to: .standardOutput)
        LoweringTrace.mark("worker", "first-part-answered")
        return child.finish()
    }

    /// Whether a second process would have a processor to itself now. `TYPEINFO_LOWERING_SHARE=1`
    /// always shares and `0` never does (for measurements and tests); otherwise a processor must be
    /// idle: on a machine whose processors are all busy the two parts only take turns, and the
    /// fork, the child's copy-on-write faults and the work both processes repeat cost time
    /// instead of saving it (docs/performance.md, computed layouts).
    static func sharesNow() -> Bool {
        if let forced = getenv("TYPEINFO_LOWERING_SHARE") { return String(cString: forced) == "1" }
        let processors = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        guard processors >= 2, let running = runnableTasks() else { return false }
        // This worker is one of the runnable tasks.
        return running < processors
    }

    /// The number of tasks running or ready to run right now (`procs_running` in /proc/stat), or
    /// nil when it cannot be read.
    static func runnableTasks() -> Int? {
        guard let file = try? FileDescriptor.open("/proc/stat", .readOnly, options: [.closeOnExec]) else { return nil }
        defer { try? file.close() }
        // The line comes after the per-processor and interrupt lines: read it all (a few KiB, more
        // on large machines; bounded all the same).
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while text.count < 1 << 22 {
            guard let count = try? chunk.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 else { break }
            text.append(contentsOf: chunk[0..<count])
        }
        for line in text.split(separator: UInt8(ascii: "\n")) where line.starts(with: "procs_running ".utf8) {
            return Int(String(decoding: line.dropFirst("procs_running ".utf8.count), as: UTF8.self))
        }
        return nil
    }

    /// Lowers each of `manglings` in order and writes its answer to `output` at once.
    static func answer(_ manglings: ArraySlice<String>, session: LoweringSession, request: LoweringRequest, to output: FileDescriptor) {
        for mangling in manglings {
            let answer: LoweredType
            if let instance = LoweringWire.instanceMangling(mangling) {
                answer = session.lowerInstance(mangling: instance)
            } else if let imported = LoweringWire.importedFieldsMangling(mangling) {
                answer = session.lowerImportedFields(mangling: imported)
            } else {
                let sizeOnly = request.sizeOnly.contains(mangling)
                answer = session.lower(mangling: mangling, includeTypeNames: request.includeTypeNames, sizeOnly: sizeOnly)
            }
            // Unbuffered: each type reaches the client (or the pipe) before the next is started.
            // A failed write is a reader that has gone: nothing more can be said.
            _ = try? output.writeAll(answer.encoded().utf8)
        }
    }
}

/// The forked child answering the second part of a request, seen from the worker.
private struct SharedAnswers {
    private let pid: pid_t
    private let pipe: FileDescriptor

    /// Forks a child that answers `manglings` into a pipe; nil (nothing started) when the pipe or
    /// the fork cannot be made.
    init?(answering manglings: ArraySlice<String>, session: LoweringSession, request: LoweringRequest) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        // Not inherited by anything the child might start.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // Room for a whole file's answers (a few hundred KiB), so the child does not wait for the
        // worker to finish its own part; the kernel caps it (fs.pipe-max-size), which only slows.
        _ = fcntl(ends[1], Self.setPipeSize, Int32(4 << 20))
        _ = fcntl(ends[1], Self.setPipeSize, Int32(1 << 20))
        let parent = getpid()
        let pid = fork()
        guard pid >= 0 else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        if pid == 0 {
            close(ends[0])
            Self.dieWithParent()
            // The worker may have been killed before the line above took effect.
            if getppid() != parent { _exit(0) }
            LoweringWorker.answer(manglings, session: session, request: request, to: FileDescriptor(rawValue: ends[1]))
            LoweringTrace.mark("worker-child", "second-part-answered")
            // No exit handlers or C++ destructors: the worker's state is not the child's to tear down.
            _exit(0)
        }
        close(ends[1])
        self.pid = pid
        self.pipe = FileDescriptor(rawValue: ends[0])
    }

    /// Copies the child's answers to standard output until it closes the pipe, reaps it, and
    /// returns the worker's exit status: the child's, or the child's fatal signal raised again.
    func finish() -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            guard let count = try? buffer.withUnsafeMutableBytes({ try pipe.read(into: $0) }), count > 0 else { break }
            _ = try? FileDescriptor.standardOutput.writeAll(buffer[0..<count])
        }
        try? pipe.close()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFSIGNALED / WEXITSTATUS, spelled out (the C macros do not import).
        let signal = status & 0x7F
        if signal != 0 {
            _ = Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        return (status >> 8) & 0xFF
    }

    /// `F_SETPIPE_SZ` (linux/fcntl.h), which Glibc's module does not export.
    private static let setPipeSize: Int32 = 1031
    /// `PR_SET_PDEATHSIG` (linux/prctl.h).
    private static let setParentDeathSignal: Int32 = 1

    /// Has the kernel kill this process when its parent (the worker) dies: a child hung in the
    /// library then ends with the worker the client kills. `prctl` is variadic, which Swift does
    /// not import; its integer arguments are passed as a fixed-argument call passes them.
    private static func dieWithParent() {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "prctl") else { return }
        _ = unsafeBitCast(symbol, to: Prctl.self)(setParentDeathSignal, UInt(SIGKILL), 0, 0, 0)
    }
}
