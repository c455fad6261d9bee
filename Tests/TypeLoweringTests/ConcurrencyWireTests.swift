import Testing
@testable import TypeLowering

/// The worker's task and actor replies: what is well formed round-trips; anything else is a
/// protocol violation, never a wrong value.
@Suite("The task and actor replies are parsed defensively")
struct ConcurrencyWireTests {
    static let task = MirrorTaskInfo(
        id: 42, runJob: 0x5555_0000_1000, priority: 25, isCancelled: true, isRunning: false, isEnqueued: false,
        isChildTask: true, isGroupChildTask: true, isAsyncLetTask: false, isFuture: true, children: [0x7f00_0000_0010, 0x7f00_0000_0020],
        backtrace: [0x5555_0000_2000])
    static let actor = MirrorActorInfo(
        state: 2, maxPriority: 21, isDistributedRemote: false, jobs: [0x10, 0x20, 0x30], isQueueTruncated: true)

    @Test func repliesRoundTrip() throws {
        for reply in [
            TargetReply.task(0x7f12_3456_7890, Self.task),
            .task(
                0x10,
                MirrorTaskInfo(
                    id: 0, runJob: 0, priority: 0, isCancelled: false, isRunning: nil, isEnqueued: true, isChildTask: false,
                    isGroupChildTask: false, isAsyncLetTask: false, isFuture: false, children: [], backtrace: [])),
            .actor(0x7f12_3456_7890, Self.actor),
            .unread(isTask: true, 0x1000, reason: "failure reading async task"),
            .unread(isTask: false, 0x2000, reason: "failure reading actor"),
            .thread(TargetThread(threadID: 4711, currentTask: 0x7f00_0000_0010, executorIdentity: 0)),
            .thread(TargetThread(threadID: nil, currentTask: nil, executorIdentity: nil)),
            .threads(truncated: false, reason: ""),
            .threads(truncated: true, reason: ""),
            .threads(truncated: nil, reason: "libthread_db: td_ta_new failed: error 9"),
        ] {
            #expect(try TargetReply.decode(reply.encoded) == reply, "\(reply.encoded)")
        }
        #expect(
            TargetReply.task(0x10, Self.task).encoded
                == "task 0x10 42 0x555500001000 25 cancelled,notRunning,child,groupChild,future 0x7f0000000010,0x7f0000000020 0x555500002000"
        )
        #expect(
            TargetReply.thread(TargetThread(threadID: 12, currentTask: 0x10, executorIdentity: nil)).encoded == "thread 12 0x10 ?")
    }

    @Test(arguments: [
        "task 0x10 42 0x1000 25 cancelled,flying - -",
        "task 0x10 42 0x1000 300 - - -",
        "task 0x10 x 0x1000 25 - - -",
        "task 0x10 42 0x1000 25 - 0x1,zz -",
        "task 0x10 42 0x1000 25 - -",
        "actor 0x10 2 21 - 0x1,",
        "actor 0x10 2 21 sleeping -",
        "unread thread 0x10 reason",
        "thread 12 0x10",
        "thread x 0x10 0x20",
        "thread 12 16 0x20",
        "thread 12 0x10 0x20 extra",
        "threads listed 2",
        "threads maybe 1",
    ])
    func malformedRepliesAreRefused(_ line: String) {
        #expect(throws: TypeLoweringError.self) { try TargetReply.decode(line) }
    }

    @Test func requestsRoundTrip() throws {
        let queries: [TargetRequest.Query] = [.task(0x10), .actor(0x20), .name(0x30), .threads(0x40)]
        let lines = TargetRequest.encodedBatch(queries).split(separator: "\n").map(String.init)
        #expect(lines == ["task 0x10", "actor 0x20", "name 0x30", "threads 0x40", "end"])
        #expect(try TargetRequest.decodeBatch(lines: lines).get() == queries)
    }
}
