/// How a live process stood while `--pause` read it.
public enum ReadingStop: Sendable, Hashable {
    /// typeinfo held it stopped (every thread in a ptrace stop) for `length`, from the moment its
    /// last thread stopped until it was let go, then let it run.
    case paused(length: Duration)
    /// It was stopped already (every thread in state `T`) and was left stopped: read while stopped.
    case foundStopped

    /// The length in seconds, as the JSON states it.
    public var seconds: Double? {
        guard case .paused(let length) = self else { return nil }
        let (seconds, attoseconds) = length.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `read while paused (stopped for 12.3 ms)`, or `read while stopped (…)`.
    public var phrase: String {
        switch self {
        case .paused:
            let milliseconds = (seconds ?? 0) * 1000
            let shown = milliseconds < 10 ? String(Double(Int(milliseconds * 100)) / 100) : String(Int(milliseconds.rounded()))
            return "read while paused (stopped for \(shown) ms)"
        case .foundStopped:
            return "read while stopped (it was stopped before typeinfo read it, and was left stopped)"
        }
    }
}
