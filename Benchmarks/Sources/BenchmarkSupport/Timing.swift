import Foundation

/// Keeps a value alive and opaque to the optimiser, so measured work is not removed.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A duration in nanoseconds.
public func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// The timing of one operation: nanoseconds per operation over many batches.
public struct Timing: Sendable {
    /// What was measured.
    public var name: String
    /// Nanoseconds per operation, one value per batch, sorted.
    public var nanosecondsPerOperation: [Double]

    /// A timing from per-batch values (sorted here).
    public init(name: String, nanosecondsPerOperation: [Double]) {
        self.name = name
        self.nanosecondsPerOperation = nanosecondsPerOperation.sorted()
    }

    /// The median batch.
    public var median: Double { percentile(50) }

    /// The batch at percentile `p` (0...100).
    public func percentile(_ p: Double) -> Double {
        guard !nanosecondsPerOperation.isEmpty else { return .nan }
        let index = Int((Double(nanosecondsPerOperation.count - 1) * p / 100).rounded())
        return nanosecondsPerOperation[index]
    }
}

/// Times `operation` in `batches` batches of `iterations` calls each, after a warm-up batch.
///
/// The machine this runs on is shared and noisy: compare medians of operations measured in
/// the same run, not numbers across runs.
/// - Parameters:
///   - name: what is measured, for the report.
///   - iterations: calls per batch.
///   - batches: how many batches.
///   - operation: the work; its result goes to ``blackHole(_:)``.
/// - Returns: per-operation timings.
@inlinable
public func measure<R>(_ name: String, iterations: Int, batches: Int = 25, _ operation: () -> R) -> Timing {
    for _ in 0..<iterations { blackHole(operation()) }
    var results: [Double] = []
    results.reserveCapacity(batches)
    let clock = ContinuousClock()
    for _ in 0..<batches {
        let start = clock.now
        for _ in 0..<iterations { blackHole(operation()) }
        let elapsed = start.duration(to: clock.now)
        results.append(nanoseconds(elapsed) / Double(iterations))
    }
    return Timing(name: name, nanosecondsPerOperation: results.sorted())
}

/// Prints measurements as a table: median, p10 and p90 per operation, and each median's
/// ratio to the first row's median (the baseline).
public func report(_ title: String, _ measurements: [Timing]) {
    print("## \(title)")
    print(pad("operation", 52) + pad("median", 12, right: true) + pad("p10", 12, right: true) + pad("p90", 12, right: true) + pad("x baseline", 12, right: true))
    let baseline = measurements.first?.median ?? 1
    for measurement in measurements {
        print(
            pad(measurement.name, 52)
                + pad(format(measurement.median), 12, right: true)
                + pad(format(measurement.percentile(10)), 12, right: true)
                + pad(format(measurement.percentile(90)), 12, right: true)
                + pad(String(format: "%.2f", measurement.median / baseline), 12, right: true)
        )
    }
    print("")
}

/// A duration in ns, µs or ms, whichever reads best.
public func format(_ nanoseconds: Double) -> String {
    if nanoseconds < 1_000 { return String(format: "%.1f ns", nanoseconds) }
    if nanoseconds < 1_000_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
    return String(format: "%.2f ms", nanoseconds / 1_000_000)
}

private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}
