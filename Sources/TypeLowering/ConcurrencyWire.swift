/// The target mode's task and actor reply lines (see ``TargetWire``):
///
///     task 0x7f… <id> <runJob> <priority> <flags> <children> <frames>
///     actor 0x7f… <state> <priority> <flags> <jobs>
///     unread task|actor 0x7f… <error>
///
/// Lists are comma-separated, `-` when empty. Task flags: `cancelled`, `running` or `notRunning`
/// (neither when the library cannot tell), `enqueued`, `child`, `groupChild`, `asyncLet`. Actor
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
        return
            "task \(TargetWire.hex(address)) \(info.id) \(TargetWire.hex(info.runJob)) \(info.maxPriority) \(list(flags)) "
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
        let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
        switch keyword {
        case "task":
            guard parts.count == 7, let address = TargetWire.address(parts[0]), let id = UInt64(parts[1]),
                let runJob = TargetWire.address(parts[2]), let priority = Int(parts[3]), (0...255).contains(priority),
                let children = addresses(parts[5]), let frames = addresses(parts[6])
            else { return nil }
            let flags = Set(items(parts[4]))
            guard flags.isSubset(of: ["cancelled", "running", "notRunning", "enqueued", "child", "groupChild", "asyncLet"]) else {
                return nil
            }
            let running: Bool? = flags.contains("running") ? true : flags.contains("notRunning") ? false : nil
            return .task(
                address,
                MirrorTaskInfo(
                    id: id, runJob: runJob, maxPriority: priority, isCancelled: flags.contains("cancelled"), isRunning: running,
                    isEnqueued: flags.contains("enqueued"), isChildTask: flags.contains("child"),
                    isGroupChildTask: flags.contains("groupChild"), isAsyncLetTask: flags.contains("asyncLet"), children: children,
                    backtrace: frames))
        case "actor":
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
