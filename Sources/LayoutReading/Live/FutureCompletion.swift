import BinaryInfo
import TypeLowering

/// Whether each future task has completed, from its future fragment (`AsyncTask::FutureFragment`,
/// swiftlang/swift `include/swift/ABI/Task.h`): the reflection library's `asyncTaskInfo` does not
/// say.
///
/// The runtime places the fragment after the `AsyncTask` (whose size it states in
/// `_swift_concurrency_debug_asyncTaskSize`), behind a child fragment (two words: parent, next
/// child) when the task is a child and a group child fragment (one word: the group) when it is a
/// task group's child; Swift 6.3.1's `AsyncTask::completeFuture` computes the same offset from
/// the job flags (bits 24 and 26). The fragment starts with the wait queue, whose low two bits
/// are the status (0 executing, 1 returned, 2 threw) and whose other bits the first waiting task,
/// then the result type's metadata, then the error.
///
/// A reading is used only where it is consistent: the result type is a metadata the reflection
/// library names, and the words are one of the runtime's three shapes (executing: no error, the
/// waiter none or a task; returned: exactly status 1, no waiter, no error; threw: exactly status
/// 2, no waiter, an error). Any other reading leaves the task's state unknown.
struct FutureCompletion {
    /// A future's status.
    enum Status: Equatable {
        /// Not completed: running, enqueued or suspended.
        case executing
        case returned
        case threw
    }

    /// One fragment's three words.
    struct Fragment {
        var waitQueue: UInt64
        var resultType: UInt64
        var error: UInt64
    }

    /// The fragments read, by task.
    let fragments: [UInt64: Fragment]

    /// The size of a child fragment and of a task group child fragment.
    static let childFragmentSize: UInt64 = 16
    static let groupChildFragmentSize: UInt64 = 8

    init(fragments: [UInt64: Fragment]) { self.fragments = fragments }

    /// Reads the fragment of every future among `tasks`.
    init(tasks: some Sequence<TargetTask>, taskSize: UInt64, memory: TargetMemory) {
        var fragments: [UInt64: Fragment] = [:]
        for task in tasks where task.isFuture {
            var offset = taskSize
            if task.isChildTask { offset += Self.childFragmentSize }
            if task.isGroupChildTask { offset += Self.groupChildFragmentSize }
            let (base, overflow) = task.address.addingReportingOverflow(offset)
            // One copy of the three words: a process is read with one system call per copy.
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            guard !overflow,
                (try? withUnsafeMutableBytes(of: &words) { buffer throws(BinaryInfoError) in
                    try memory.fetch(into: buffer, from: base, what: "future fragment")
                }) != nil
            else { continue }
            let (waitQueue, resultType, error) = (
                UInt64(littleEndian: words.0), UInt64(littleEndian: words.1), UInt64(littleEndian: words.2)
            )
            fragments[task.address] = Fragment(waitQueue: waitQueue, resultType: resultType, error: error)
        }
        self.fragments = fragments
    }

    /// The result type metadata to have named (see ``status(of:namedTypes:isTask:)``).
    var resultTypes: Set<UInt64> { Set(fragments.values.map(\.resultType).filter { $0 >= 4096 && $0 & 7 == 0 }) }

    /// The status of the future at `task`, or nil when it was not read or its fragment is not
    /// consistent (`namedTypes`: the result types the reflection library named; `isTask`: whether
    /// an address is a task's).
    func status(of task: UInt64, namedTypes: Set<UInt64>, isTask: (UInt64) -> Bool) -> Status? {
        guard let fragment = fragments[task], namedTypes.contains(fragment.resultType) else { return nil }
        switch fragment.waitQueue & 3 {
        case 0:
            let waiter = fragment.waitQueue
            return fragment.error == 0 && (waiter == 0 || isTask(waiter)) ? .executing : nil
        case 1:
            return fragment.waitQueue == 1 && fragment.error == 0 ? .returned : nil
        case 2:
            return fragment.waitQueue == 2 && fragment.error >= 4096 && fragment.error & 7 == 0 ? .threw : nil
        default:
            return nil
        }
    }
}
