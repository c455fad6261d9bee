import BenchmarkSupport

/// `--only "<row>" --iterations N`: run one row's operation N times without timing it, for
/// counting instructions under callgrind (`--only none` runs only the set-up, the baseline to
/// subtract). Without `--only`, every row is timed.
enum RowSelection {
    static let only: String? = value(after: "--only")
    static let iterations: Int = value(after: "--iterations").flatMap { Int($0) } ?? 1000

    private static func value(after flag: String) -> String? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
}

/// Times `operation` as ``measure(_:iterations:batches:_:)`` does, or, under `--only`, runs it
/// ``RowSelection/iterations`` times if `name` is the selected row.
@inline(never)
func row<R>(_ name: String, iterations: Int, batches: Int = 25, _ operation: () -> R) -> Timing? {
    if let only = RowSelection.only {
        if only == name {
            for _ in 0..<RowSelection.iterations { blackHole(operation()) }
        }
        return nil
    }
    return measure(name, iterations: iterations, batches: batches, operation)
}
