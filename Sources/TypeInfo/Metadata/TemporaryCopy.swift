/// Runs `body` on a copy of `value` in memory of its own type, destroyed and freed afterwards:
/// whatever `body` does through the raw pointer, the memory holds a valid `T` when it returns.
func withTemporaryCopy<T, Result>(of value: T, _ body: (UnsafeMutableRawPointer) -> Result) -> Result {
    let temporary = UnsafeMutablePointer<T>.allocate(capacity: 1)
    temporary.initialize(to: value)
    defer {
        temporary.deinitialize(count: 1)
        temporary.deallocate()
    }
    return body(UnsafeMutableRawPointer(temporary))
}
