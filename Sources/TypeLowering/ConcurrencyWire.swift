/// The target mode's task and actor reply lines (see ``TargetWire``):
///
///     task 0x7f… <id> <runJob> <priority> <flags> <children> <frames>
///     actor 0x7f… <state> <priority> <flags> <jobs>
///     unread task|actor 0x7f… <error>
///
/// Lists are comma-separated, `-` when empty. Task flags: `cancelled`, `running` or `notRunning`
/// (neither when the library cannot tell), `enqueued`, `child`, `groupChild`, `asyncLet`, `future`. Actor
/// flags: `distributedRemote`, `truncated` (the queue was longer than was followed).
enum ConcurrencyWire {
    static func encode(task address: UInt64, _ info: MirrorTaskInfo) -> String {
        var flags: [String] = []
        if info.isCancelled { flags.append("cancelled") }
        if let running = info.isRunning { flags.append(running ? "running" : "notRunning") }
        if info.isEnqueued { flags.append("enqueued") }
        if info.isChildTask { flags.append("child") }
        if info.isGroupChildTask { flags.append("groupChild") }
        if info.isAsyncLetTask { flags.append("asyncLet") }
        if info.isFuture { flags.append("future") }
        return
            "task \(TargetWire.hex(address)) \(info.id) \(TargetWire.hex(info.runJob)) \(info.priority) \(list(flags)) "
            + "\(list(info.children.map(TargetWire.hex))) \(list(info.backtrace.map(TargetWire.hex)))"
    }

    static func encode(actor address: UInt64, _ info: MirrorActorInfo) -> String {
        var flags: [String] = []
        if info.isDistributedRemote { flags.append("distributedRemote") }
        if info.isQueueTruncated { flags.append("truncated") }
        return "actor \(TargetWire.hex(address)) \(info.state) \(info.maxPriority) \(list(flags)) \(list(info.jobs.map(TargetWire.hex)))"
    }

    /// The reply, or nil when the line is malformed.
    static func decode(keyword: String, _ rest: String) -> TargetReply? {
        switch keyword {
        case "task":
            var text = rest
            return text.withUTF8 { bytes -> TargetReply? in
                let parts = fields(bytes)
                guard parts.count == 7, let address = hex(bytes, parts[0]), let id = decimal(bytes, parts[1]),
                    let runJob = hex(bytes, parts[2]), let priority = decimal(bytes, parts[3]), priority <= 255,
                    let children = hexList(bytes, parts[5]), let frames = hexList(bytes, parts[6]),
                    let flags = taskFlags(bytes, parts[4])
                else { return nil }
                let running: Bool? = flags.contains("running") ? true : flags.contains("notRunning") ? false : nil
                return .task(
                    address,
                    MirrorTaskInfo(
                        id: id, runJob: runJob, priority: Int(priority), isCancelled: flags.contains("cancelled"), isRunning: running,
                        isEnqueued: flags.contains("enqueued"), isChildTask: flags.contains("child"),
                        isGroupChildTask: flags.contains("groupChild"), isAsyncLetTask: flags.contains("asyncLet"),
                        isFuture: flags.contains("future"), children: children,
                        backtrace: frames))
            }
        case "actor":
            let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 5, let address = TargetWire.address(parts[0]), let state = Int(parts[1]), (0...255).contains(state),
                let priority = Int(parts[2]), (0...255).contains(priority), let jobs = addresses(parts[4])
            else { return nil }
            let flags = Set(items(parts[3]))
            guard flags.isSubset(of: ["distributedRemote", "truncated"]) else { return nil }
            return .actor(
                address,
                MirrorActorInfo(
                    state: state, maxPriority: priority, isDistributedRemote: flags.contains("distributedRemote"), jobs: jobs,
                    isQueueTruncated: flags.contains("truncated")))
        case "unread":
            let split = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard split.count == 3, split[0] == "task" || split[0] == "actor", let address = TargetWire.address(split[1]) else {
                return nil
            }
            return .unread(isTask: split[0] == "task", address, reason: String(split[2]))
        default:
            return nil
        }
    }

    static let taskFlagNames: Set<String> = ["cancelled", "running", "notRunning", "enqueued", "child", "groupChild", "asyncLet", "future"]

    /// The ranges of the space-separated fields of `bytes` (empty fields kept).
    private static func fields(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: " ") {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<bytes.count)
        return ranges
    }

    /// `0x…` (1 to 16 lowercase or uppercase hex digits), or nil.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
        guard range.count >= 3, range.count <= 18, bytes[range.lowerBound] == UInt8(ascii: "0"),
            bytes[range.lowerBound + 1] == UInt8(ascii: "x")
        else { return nil }
        var value: UInt64 = 0
        for index in (range.lowerBound + 2)..<range.upperBound {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// A decimal number that fits in 64 bits, or nil.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt64? {
        guard !range.isEmpty, range.count <= 20 else { return nil }
        var value: UInt64 = 0
        for index in range {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }

    /// The comma-separated pieces of a field (none for `-`).
    private static func pieces(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
        if range.count == 1, bytes[range.lowerBound] == UInt8(ascii: "-") { return [] }
        var ranges: [Range<Int>] = []
        var start = range.lowerBound
        for index in range where bytes[index] == UInt8(ascii: ",") {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<range.upperBound)
        return ranges
    }

    private static func hexList(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [UInt64]? {
        var values: [UInt64] = []
        for piece in pieces(bytes, range) {
            guard let value = hex(bytes, piece) else { return nil }
            values.append(value)
        }
        return values
    }

    /// The task flags named in the field, or nil when one is unknown.
    private static func taskFlags(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Set<String>? {
        var flags: Set<String> = []
        for piece in pieces(bytes, range) {
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[piece]), as: UTF8.self)
            guard taskFlagNames.contains(name) else { return nil }
            flags.insert(name)
        }
        return flags
    }

    private static func list(_ items: [String]) -> String { items.isEmpty ? "-" : items.joined(separator: ",") }

    private static func items(_ text: Substring) -> [Substring] {
        text == "-" ? [] : text.split(separator: ",", omittingEmptySubsequences: false)
    }

    private static func addresses(_ text: Substring) -> [UInt64]? {
        var result: [UInt64] = []
        for item in items(text) {
            guard let address = TargetWire.address(item) else { return nil }
            result.append(address)
        }
        return result
    }
}
