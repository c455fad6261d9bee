import BinaryInfo
import CThreadDB

/// The target's threads and the concurrency runtime's thread-local variables in each, read in the
/// worker with glibc's libthread_db (``CThreadDB``): `td_ta_thr_iter` lists the threads from the
/// thread library's own lists, `td_thr_get_info` gives each one's kernel id, and
/// `td_thr_tls_get_addr` the address of a thread-local variable in it. libthread_db reads the
/// target through this type's callbacks only (``TargetMemory``, and the images' symbol tables for
/// the symbols it asks for); glibc's TLS layout is never computed here.
///
/// The runtime's variables: `(anonymous namespace)::ActiveTask::Value` (the task the thread runs)
/// and `ExecutorTrackingInfo::ActiveInfoInThread` (the tracking record of the job the thread
/// runs, whose first field is the active executor, `SerialExecutorRef`: its identity object
/// first), both `thread_local` of libswift_Concurrency (or of an executable linked with
/// `-static-stdlib`), found in its symbol table.
struct TargetThreadList {
    static let activeTaskSymbol = "_ZN12_GLOBAL__N_110ActiveTask5ValueE"
    static let trackingInfoSymbol = "_ZN12_GLOBAL__N_120ExecutorTrackingInfo18ActiveInfoInThreadE"
    /// The most threads listed (a list that loops in damaged memory ends there).
    static let maximumThreads = 1 << 14
    /// The most link map entries followed.
    static let maximumLinkMapEntries = 1 << 14

    /// What libthread_db listed.
    var threads: [TargetThread]
    var isTruncated: Bool

    /// Reads the threads of `memory` (at most `maximumThreads`), with the thread-locals of the
    /// concurrency runtime in the image loaded at `runtimeImage`, with the target's own
    /// libthread_db (``ThreadDBLibrary``: found in its root, beside its C library, or in
    /// `searchDirectories`) or else this program's; the reason when they cannot be read, naming
    /// each library tried.
    static func read(
        _ memory: TargetMemory, runtimeImage: UInt64, searchDirectories: [String] = [],
        maximumThreads: Int = TargetThreadList.maximumThreads
    ) -> Result<Self, MirrorError> {
        guard let image = memory.images.first(where: { $0.loadAddress == runtimeImage }) else {
            return .failure(MirrorError(text: "no image is loaded at \(TargetWire.hex(runtimeImage))"))
        }
        guard let symbols = try? TargetImageSymbols(image: image), let taskOffset = symbols.value(of: activeTaskSymbol),
            let trackingOffset = symbols.value(of: trackingInfoSymbol)
        else {
            return .failure(
                MirrorError(text: "\(image.mappedPath) has no symbol for the runtime's thread-local current task and executor (stripped?)"))
        }
        let lookup = SymbolLookup(memory: memory)
        guard let linkMap = lookup.linkMap(of: image, isExecutable: memory.executable?.loadAddress == image.loadAddress) else {
            return .failure(MirrorError(text: "the dynamic linker's list of loaded modules (_r_debug) does not name \(image.mappedPath)"))
        }
        var threads = [typeinfo_thread_t](repeating: typeinfo_thread_t(), count: maximumThreads)
        var count = 0
        var truncated: Int32 = 0
        var stage = TYPEINFO_THREAD_STAGE_NONE
        let offsets: [UInt64] = [taskOffset, trackingOffset]
        let processID = memory.processID ?? 0
        let context = Unmanaged.passRetained(lookup)
        defer { context.release() }
        var target = typeinfo_thread_target_t(
            context: context.toOpaque(), process_id: processID,
            read: { context, address, buffer, size in
                guard let context, let buffer else { return 1 }
                let lookup = Unmanaged<SymbolLookup>.fromOpaque(context).takeUnretainedValue()
                do {
                    try lookup.memory.fetch(
                        into: UnsafeMutableRawBufferPointer(start: buffer, count: size), from: address, what: "thread data")
                    return 0
                } catch {
                    return 1
                }
            },
            lookup: { context, object, symbol, address in
                guard let context, let symbol, let address else { return 1 }
                let lookup = Unmanaged<SymbolLookup>.fromOpaque(context).takeUnretainedValue()
                guard let value = lookup.address(of: String(cString: symbol), in: object.map { String(cString: $0) } ?? "") else {
                    return 1
                }
                address.pointee = value
                return 0
            })
        // The target's own libthread_db first; another glibc's refuses with TD_VERSION.
        var attempts: [String] = []
        var isRead = false
        var lastError = TD_OK
        for candidate in ThreadDBLibrary.candidates(for: memory, searchDirectories: searchDirectories) {
            let library: ThreadDBLibrary
            switch ThreadDBLibrary.open(candidate) {
            case .success(let opened): library = opened
            case .failure(let reason):
                attempts.append(reason.text)
                continue
            }
            let error = offsets.withUnsafeBufferPointer { offsets in
                threads.withUnsafeMutableBufferPointer { buffer in
                    typeinfo_read_threads(
                        library.handle, &target, linkMap, offsets.baseAddress, offsets.count, buffer.baseAddress, buffer.count, &count,
                        &truncated, &stage)
                }
            }
            if error == TD_OK {
                isRead = true
                break
            }
            lastError = error
            attempts.append("\(library.name): \(stageName(stage)) failed: \(errorName(error))")
            // Only a library of another release is worth replacing; other errors are the target's.
            guard error == TD_VERSION else { break }
        }
        guard isRead else {
            // Every library found was another release's: the target's own was not found.
            let hint =
                lastError == TD_VERSION
                ? "; none found is of the target's glibc: give the directory that holds its libthread_db.so.1 (or a copy of its root) with --image-path DIR"
                : ""
            return .failure(MirrorError(text: "libthread_db: " + attempts.joined(separator: "; ") + hint))
        }
        var list = Self(threads: [], isTruncated: truncated != 0)
        for thread in threads.prefix(min(count, threads.count)) {
            func word(_ address: UInt64) -> UInt64? { try? memory.read(UInt64.self, at: address, what: "thread-local variable") }
            let task = thread.tls_error.0 == Int32(bitPattern: TD_OK.rawValue) ? word(thread.tls.0) : nil
            let tracking = thread.tls_error.1 == Int32(bitPattern: TD_OK.rawValue) ? word(thread.tls.1) : nil
            // No tracking record: the thread runs no job, so no executor.
            let executor = tracking.flatMap { $0 == 0 ? 0 : word($0) }
            list.threads.append(
                TargetThread(
                    threadID: thread.info_error == Int32(bitPattern: TD_OK.rawValue) ? thread.lwp : nil, currentTask: task,
                    executorIdentity: executor))
        }
        return .success(list)
    }

    private static func stageName(_ stage: typeinfo_thread_stage_t) -> String {
        switch stage {
        case TYPEINFO_THREAD_STAGE_INIT: "td_init"
        case TYPEINFO_THREAD_STAGE_AGENT: "td_ta_new"
        default: "td_ta_thr_iter"
        }
    }

    private static func errorName(_ error: td_err_e) -> String {
        switch error {
        case TD_NOLIBTHREAD: "the target's C library holds no thread library data (TD_NOLIBTHREAD)"
        case TD_VERSION: "the target's C library is not the version of this libthread_db (TD_VERSION)"
        case TD_ERR: "the target's thread list could not be read (TD_ERR)"
        case TD_DBERR: "the target's thread list is malformed (TD_DBERR)"
        default: "error \(error.rawValue)"
        }
    }
}

/// The symbols libthread_db asks for, from the target images' symbol tables, and the target's
/// memory for its reads.
final class SymbolLookup {
    let memory: TargetMemory
    private var tables: [UInt64: TargetImageSymbols?] = [:]

    init(memory: TargetMemory) { self.memory = memory }

    private func symbols(_ image: TargetImage) -> TargetImageSymbols? {
        if let known = tables[image.loadAddress] { return known }
        let read = try? TargetImageSymbols(image: image)
        tables[image.loadAddress] = read
        return read
    }

    private static func fileName(_ image: TargetImage) -> Substring {
        image.mappedPath.split(separator: "/").last ?? ""
    }

    /// The address of `symbol` in the image whose file is named `object` (libthread_db names
    /// libc and the dynamic linker by their sonames), or in any image when none is.
    func address(of symbol: String, in object: String) -> UInt64? {
        let named = memory.images.filter { Self.fileName($0) == object }
        for image in named + memory.images.filter({ Self.fileName($0) != object }) {
            if let address = symbols(image)?.address(of: symbol) { return address }
        }
        return nil
    }

    /// The address of the dynamic linker's `struct link_map` for `image`: the list `_r_debug`
    /// (`<link.h>`) starts, followed to the entry whose name is the image's path and whose load
    /// bias is the image's (the executable's entry, first, has an empty name).
    func linkMap(of image: TargetImage, isExecutable: Bool) -> UInt64? {
        guard let debug = address(of: "_r_debug", in: "ld-linux-x86-64.so.2"),
            var entry = try? memory.read(UInt64.self, at: debug &+ UInt64(MemoryLayout<r_debug>.offset(of: \.r_map)!), what: "_r_debug")
        else { return nil }
        let nameOffset = UInt64(MemoryLayout<link_map>.offset(of: \.l_name)!)
        let nextOffset = UInt64(MemoryLayout<link_map>.offset(of: \.l_next)!)
        let biasOffset = UInt64(MemoryLayout<link_map>.offset(of: \.l_addr)!)
        var first = true
        for _ in 0..<TargetThreadList.maximumLinkMapEntries where entry != 0 {
            guard let bias = try? memory.read(UInt64.self, at: entry &+ biasOffset, what: "link_map"),
                let namePointer = try? memory.read(UInt64.self, at: entry &+ nameOffset, what: "link_map"),
                let next = try? memory.read(UInt64.self, at: entry &+ nextOffset, what: "link_map")
            else { return nil }
            if bias == image.loadBias {
                let name = namePointer == 0 ? "" : try? memory.cString(at: namePointer, what: "link_map name")
                if name == image.mappedPath || (first && isExecutable && name == "") { return entry }
            }
            first = false
            entry = next
        }
        return nil
    }
}
