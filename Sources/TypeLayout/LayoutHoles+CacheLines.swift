/// Where a type's bytes fall on cache lines (pahole's cacheline markers), counted from the
/// start of the value or object as if it began on a cache-line boundary, which is pahole's
/// assumption too: where a value really starts depends on where it is stored.
public struct CacheLineSummary: Hashable, Sendable, Codable {
    /// The cache-line size in bytes.
    public var lineSize: Int
    /// How many cache lines the type's bytes (its size; instance size for classes) touch, or
    /// `nil` when the size is unknown.
    public var lineCount: Int?
    /// The fields that cross a cache-line boundary.
    public var straddling: [LayoutHoles.Row]
}

extension LayoutHoles {
    /// The cache lines this type spans and the fields that straddle a boundary.
    ///
    /// - Parameter lineSize: the cache-line size in bytes (64 on most CPUs); must be positive.
    /// - Returns: the summary.
    public func cacheLines(lineSize: Int) -> CacheLineSummary {
        let line = max(lineSize, 1)
        // Division never overflows here: every operand is non-negative.
        let count = size.map { $0 <= 0 ? 0 : ($0 - 1) / line + 1 }
        let straddling = rows.filter { row in
            guard row.kind == .field, let bytes = row.size, bytes > 1, row.offset >= 0 else { return false }
            let (last, overflow) = row.offset.addingReportingOverflow(bytes - 1)
            return !overflow && row.offset / line != last / line
        }
        return CacheLineSummary(lineSize: line, lineCount: count, straddling: straddling)
    }

    /// The boundaries (multiples of `lineSize`) in `(after, upTo]`, at most `limit` of them.
    static func boundaries(after: Int, upTo: Int, lineSize: Int, limit: Int) -> [Int] {
        guard lineSize > 0, upTo > after, upTo >= lineSize else { return [] }
        var first = (max(after, 0) / lineSize + 1)
        if first == 0 { first = 1 }
        var result: [Int] = []
        var index = first
        while result.count < limit {
            let (boundary, overflow) = index.multipliedReportingOverflow(by: lineSize)
            if overflow || boundary > upTo { break }
            result.append(boundary)
            index += 1
        }
        return result
    }

    /// The text-report line: `cache lines: 2 of 64 bytes; 'b' (offset 60, size 8) straddles a boundary`.
    func cacheLineText(lineSize: Int) -> String? {
        let summary = cacheLines(lineSize: lineSize)
        guard let count = summary.lineCount else { return nil }
        var text = "cache lines: \(count) of \(summary.lineSize) bytes"
        if !summary.straddling.isEmpty {
            let names = summary.straddling.prefix(8).map { "'\($0.name ?? "")' (offset \($0.offset), size \($0.size ?? 0))" }
            let more = summary.straddling.count > 8 ? " and \(summary.straddling.count - 8) more" : ""
            text += "; \(names.joined(separator: ", "))\(more) straddle\(summary.straddling.count == 1 ? "s" : "") a boundary"
        }
        return text
    }
}
