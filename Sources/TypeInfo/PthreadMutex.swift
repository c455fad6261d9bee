#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// State guarded by a pthread mutex: the ClassInfo cache's writers, and ModelMapper's plan
/// cache (through the `Locking` SPI, so the two do not each carry a copy).
///
/// `Synchronization.Mutex` would do, but on Linux it is built on futexes that
/// ThreadSanitizer cannot see, so every access under it reads as a race; with a pthread mutex
/// the test suites can be run under `-sanitize=thread` and mean something.
@_spi(Locking)
public final class PthreadMutex<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// Creates the mutex around an initial state.
    public init(_ state: State) {
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
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
