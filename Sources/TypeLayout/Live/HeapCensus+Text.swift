extension HeapCensus {
    /// The census as a table for people, one type per line (the name last, so `grep` and `awk`
    /// see whole rows), under a line saying what was read and a line of totals.
    ///
    /// - Parameter baselineName: how to name the baseline of a comparison (its file).
    public func text(baselineName: String? = nil) -> String {
        var lines = [heading]
        lines += target.coreMismatches.map { "warning: " + $0.text }
        if let readChanges { lines.append(readChanges.text) }
        if isComparison { lines.append("compared with \(baselineName ?? "the baseline"): growth since then, largest first") }
        lines.append(totalsLine)
        if let retained {
            lines.append(
                "reachable: \(retained.reachableBytes) bytes in \(retained.reachableAllocations) allocations, "
                    + "\(retained.rootReachedAllocations) of them pointed to by roots; \(retained.edges) pointers between allocations")
            lines.append(Retained.meaning)
        }
        lines.append("")
        if types.isEmpty {
            lines.append("no Swift objects of a selected type")
            return lines.joined(separator: "\n") + "\n"
        }
        var rows: [[String]] =
            isComparison
            ? [["count", "+count", "bytes", "+bytes", "instance", "type"]]
            : retained != nil ? [["count", "bytes", "retained", "instance", "type"]] : [["count", "bytes", "instance", "type"]]
        for entry in types {
            let instance = entry.instanceSize.map(String.init) ?? "?"
            if isComparison {
                rows.append([
                    String(entry.count), entry.countDelta.map(Self.signed) ?? "?", String(entry.bytes),
                    entry.bytesDelta.map(Self.signed) ?? "?",
                    instance,
                    entry.key,
                ])
            } else if retained != nil {
                rows.append([String(entry.count), String(entry.bytes), entry.retainedBytes.map(String.init) ?? "?", instance, entry.key])
            } else {
                rows.append([String(entry.count), String(entry.bytes), instance, entry.key])
            }
        }
        let widths = (0..<(rows[0].count - 1)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            let numbers = zip(row.dropLast(), widths).map { String(repeating: " ", count: $1 - $0.count) + $0 }
            lines.append((numbers + [row[row.count - 1]]).joined(separator: "  "))
            if index > 0, !types[index - 1].addresses.isEmpty {
                let indent = String(repeating: " ", count: widths.reduce(0) { $0 + $1 + 2 })
                lines.append(indent + "at " + types[index - 1].addresses.map { "0x" + String($0, radix: 16) }.joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `process 4711 (server)`, then how it was read.
    var heading: String {
        let name = target.name
        if target.corePath != nil { return name + ", as it was when dumped" }
        return target.readWhileRunning
            ? name + ", read while it ran: counts may be off by what it allocated or freed meanwhile (--pause stops it for the read)"
            : name + ", " + (target.stop?.phrase ?? "stopped while it was read")
    }

    var totalsLine: String {
        let share = totals.heapBytes > 0 ? Double(totals.swiftObjectBytes) * 100 / Double(totals.heapBytes) : 0
        return "heap: \(totals.heapBytes) bytes in \(totals.allocations) allocations (\(Self.mebibytes(totals.heapBytes))); "
            + "Swift objects: \(totals.swiftObjectBytes) bytes in \(totals.swiftObjects) objects (\(Self.percent(share))); "
            + "not attributed to a type: \(totals.unattributedBytes) bytes"
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : String(value) }

    static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    static func percent(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

extension HeapCensus.Target {
    /// `process 4711 (server)`, or `core core.4711 of process 4711 (server)`: how the text
    /// reports of a live reading name what they read.
    var name: String {
        var name: String
        if let corePath {
            name = "core \(corePath)"
            if let processID { name += " of process \(processID)" }
        } else {
            name = "process \(processID.map(String.init) ?? "?")"
        }
        if let command { name += " (\(command))" }
        return name
    }
}
