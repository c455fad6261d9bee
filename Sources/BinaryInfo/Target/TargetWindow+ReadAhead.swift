#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A second window that a thread of its own fills with the target's bytes after the current
/// window while a walk reads the current one: a heap walk reads a heap from its start to its end,
/// so the copy of the next window (the system's work, a third of a walk's time) overlaps the walk
/// of this one instead of following it.
///
/// The two threads take turns, one request at a time: the walk asks for a range
/// (``start(address:count:)``), the reader copies it into its buffer, and the walk takes it
/// (``finish()``), waiting when the copy is not done yet. The buffer belongs to the reader from
/// the request to the walk's taking it. A read that fails is reported as not done, and the walk
/// reads the place itself, with that read's own errors.
final class WindowReadAhead: @unchecked Sendable {
    let target: TargetMemory
    /// The reader's buffer: swapped with the window's on each taking.
    var buffer: UnsafeMutableRawBufferPointer
    /// What was asked (set by the walk before it signals `work`).
    private(set) var address: UInt64 = 0
    private(set) var count = 0
    /// Whether the copy succeeded (set by the reader before it signals `done`).
    private var succeeded = false
    /// A request is with the reader: its buffer is not the walk's.
    private(set) var inFlight = false
    private var stopping = false
    private let work = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var thread: pthread_t?

    /// A read-ahead of windows of `size` bytes, or nil when no thread can be started (the walk
    /// then reads each window itself).
    init?(target: TargetMemory, size: Int) {
        self.target = target
        buffer = .allocate(byteCount: size, alignment: 16)
        sem_init(work, 0, 0)
        sem_init(done, 0, 0)
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<WindowReadAhead>.fromOpaque(argument).takeUnretainedValue().serve()
                return nil
            }, Unmanaged.passUnretained(self).toOpaque())
        guard started == 0 else {
            release()
            return nil
        }
        self.thread = thread
    }

    /// Stops the reader and waits for it (the owner calls it before letting go).
    func stop() {
        guard let thread else { return }
        _ = finish()
        stopping = true
        sem_post(work)
        pthread_join(thread, nil)
        self.thread = nil
        release()
    }

    private func release() {
        sem_destroy(work)
        sem_destroy(done)
        work.deallocate()
        done.deallocate()
        buffer.deallocate()
    }

    /// Asks the reader for the `count` bytes at `address` (at most the buffer's size).
    func start(address: UInt64, count: Int) {
        guard !inFlight, thread != nil, count <= buffer.count else { return }
        self.address = address
        self.count = count
        inFlight = true
        sem_post(work)
    }

    /// Waits for the request in flight, if any: whether its bytes are in ``buffer``.
    func finish() -> Bool {
        guard inFlight else { return false }
        while sem_wait(done) != 0 {}
        inFlight = false
        return succeeded
    }

    private func serve() {
        while true {
            while sem_wait(work) != 0 {}
            if stopping { return }
            let bytes = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            succeeded = (try? target.fetch(into: bytes, from: address, what: "heap memory")) != nil
            sem_post(done)
        }
    }
}

extension TargetWindow {
    /// How far before the current window's end the next one starts: a chunk whose header and
    /// first words straddle the end is whole in the next window.
    static let readAheadOverlap: UInt64 = 64

    /// Takes the window read ahead when it holds the 8 bytes at `address` (and starts reading the
    /// one after it); otherwise drops it. Whether the window now holds them.
    func takeReadAhead(at address: UInt64, limit: UInt64) -> Bool {
        guard let ahead = readAhead, ahead.inFlight else { return false }
        let (aheadStart, aheadCount) = (ahead.address, ahead.count)
        let ready = ahead.finish()
        guard ready, aheadLimit == limit, address >= aheadStart, address - aheadStart <= UInt64(aheadCount - 8) else { return false }
        (buffer, ahead.buffer) = (ahead.buffer, buffer)
        windowsTakenAhead += 1
        target.releasePages(address: aheadStart, count: aheadCount)
        start = aheadStart
        count = aheadCount
        readAheadAfterWindow(limit: limit)
        return true
    }

    /// Starts reading the window after the current one, up to `limit`, while a walk reads ahead
    /// (``readsAhead``), starting the reader at the first window.
    func readAheadAfterWindow(limit: UInt64) {
        guard readsAhead, count >= 8 else { return }
        if readAhead == nil, !readAheadFailed {
            readAhead = WindowReadAhead(target: target, size: buffer.count)
            readAheadFailed = readAhead == nil
        }
        guard let ahead = readAhead, !ahead.inFlight else { return }
        let end = start + UInt64(count)
        guard end < limit, end - start > Self.readAheadOverlap else { return }
        let next = end - Self.readAheadOverlap
        aheadLimit = limit
        ahead.start(address: next, count: Int(min(UInt64(ahead.buffer.count), limit - next)))
    }

    /// Drops the window read ahead, waiting for its reader: what follows is read fresh.
    func dropReadAhead() {
        _ = readAhead?.finish()
    }
}
