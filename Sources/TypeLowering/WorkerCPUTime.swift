import SystemPackage

/// The CPU time a worker has used so far, read from `/proc/PID/stat`: a worker that is silent
/// but using CPU is working (a large batch on a machine whose cores are busy), while one that
/// is silent and idle is stuck.
enum WorkerCPUTime {
    /// How many times the silence limit a worker that keeps computing may stay silent in all: a
    /// worker in an endless loop also uses CPU, and is killed after this.
    static let busySilenceFactor = 10.0

    /// The worker's user plus system time in clock ticks, or nil when its stat file cannot be
    /// read or parsed (then it is judged by its silence alone).
    static func ticks(of pid: Int32) -> UInt64? {
        guard let descriptor = try? FileDescriptor.open(FilePath("/proc/\(pid)/stat"), .readOnly) else { return nil }
        defer { try? descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: 1024)
        guard let count = try? bytes.withUnsafeMutableBytes({ try descriptor.read(into: $0) }), count > 0 else { return nil }
        return ticks(stat: bytes[0..<count])
    }

    /// User plus system time from a stat line: fields 14 and 15, counted after the command
    /// name's closing parenthesis (the name itself may hold spaces and parentheses).
    static func ticks(stat: ArraySlice<UInt8>) -> UInt64? {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        // After the name come field 3 (state) onwards: utime is field 14, stime 15.
        guard fields.count > 12,
            let user = UInt64(String(decoding: fields[11], as: UTF8.self)),
            let system = UInt64(String(decoding: fields[12], as: UTF8.self))
        else { return nil }
        let (sum, overflow) = user.addingReportingOverflow(system)
        return overflow ? nil : sum
    }
}
