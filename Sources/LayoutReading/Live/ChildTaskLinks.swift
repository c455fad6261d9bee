import BinaryInfo
import TypeLowering

/// Each child task's parent and next sibling, from the child fragment the runtime places right
/// after a child task's `AsyncTask` (`ChildFragment`: the parent, then the next child), at the
/// offset the runtime states in `_swift_concurrency_debug_asyncTaskSize`.
///
/// libswiftRemoteMirror reads the same fragment to list a task's children, but Swift 6.3's
/// `asyncTaskInfo` tests the *parent's* job flags for "is a child task" before following a child's
/// next sibling: for a parent that is not itself a child (a detached or top-level task owning a
/// task group or `async let`), it lists the first child only. So the siblings and every child's
/// parent are read here, and only while they agree with the library: every child the library
/// lists must name the task that listed it as its parent, or none of these links is used.
struct ChildTaskLinks {
    /// The parent of each child task read.
    private(set) var parents: [UInt64: UInt64] = [:]
    /// The next sibling of each child task read, where it has one.
    private(set) var nextSiblings: [UInt64: UInt64] = [:]

    /// The most siblings followed from one child (a cycle in damaged memory ends there).
    static let maximumSiblings = 1 << 20

    /// The links of the child tasks among `tasks`, or nil when the fragment at `taskSize` does not
    /// agree with the library's child lists (see the type's comment), or cannot be read.
    init?(tasks: [UInt64: TargetTask], taskSize: UInt64, taskMetadata: UInt64, memory: TargetMemory) {
        func isTask(_ address: UInt64) -> Bool {
            address >= 4096 && address & 7 == 0 && (try? memory.read(UInt64.self, at: address, what: "task")) == taskMetadata
        }
        func fragment(of child: UInt64) -> (parent: UInt64, next: UInt64)? {
            let (base, overflow) = child.addingReportingOverflow(taskSize)
            guard !overflow, let parent = try? memory.read(UInt64.self, at: base, what: "child fragment"),
                let next = try? memory.read(UInt64.self, at: base &+ 8, what: "child fragment")
            else { return nil }
            return (parent, next)
        }
        var pending = tasks.values.filter(\.isChildTask).map(\.address)
        var visited: Set<UInt64> = []
        while let child = pending.popLast(), visited.count < Self.maximumSiblings {
            guard visited.insert(child).inserted, let links = fragment(of: child), isTask(links.parent) else { continue }
            parents[child] = links.parent
            if links.next != 0, isTask(links.next) {
                nextSiblings[child] = links.next
                pending.append(links.next)
            }
        }
        for task in tasks.values {
            for child in task.children where parents[child] != task.address { return nil }
        }
    }

    /// The siblings found that are not among `known`.
    func unknownTasks(besides known: some Collection<UInt64>) -> [UInt64] {
        let known = Set(known)
        return Set(nextSiblings.values).union(parents.values).subtracting(known).sorted()
    }
}
