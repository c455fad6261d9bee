#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State guarded by a pthread mutex: the mapper's plan cache and configurations.
///
/// Not `Synchronization.Mutex`: on Linux it is built on futexes that ThreadSanitizer cannot
/// see, so every access under it reports as a race; with a pthread mutex, programs using the
/// mapper (and its tests) can run under `-sanitize=thread` and mean something.
final class PlanCacheLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
