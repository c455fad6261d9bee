// A Swift process whose heap objects the heap-walk tests count: it makes Node and Leaf objects on
// the main thread and on three threads (which keep them alive), drops a batch of each (freed),
// then prints (the oracle)
//   pid PID
//   type METADATA_ADDRESS LIVE_COUNT        (Node, then Leaf)
//   end
// and sleeps until it is killed.
import Foundation

class Node {
    var value: Int
    var next: Node?
    init(_ value: Int, _ next: Node?) {
        self.value = value
        self.next = next
    }
}

final class Leaf: Node {
    var label = "leaf"
}

func chain(_ count: Int, leaves: Bool) -> Node? {
    var head: Node?
    for index in 0..<count { head = leaves ? Leaf(index, head) : Node(index, head) }
    return head
}

let lock = NSCondition()
var ready = 0
var kept: [Node?] = []
for thread in 0..<3 {
    Thread.detachNewThread {
        let mine = [chain(10_000, leaves: false), chain(1_000 * (thread + 1), leaves: true)]
        _ = chain(5_000, leaves: false)
        lock.lock()
        ready += 1
        lock.signal()
        lock.unlock()
        while true { Thread.sleep(forTimeInterval: 1000) }
        withExtendedLifetime(mine) {}
    }
}
kept.append(chain(100_000, leaves: false))
kept.append(chain(20_000, leaves: true))
_ = chain(50_000, leaves: true)
lock.lock()
while ready < 3 { lock.wait() }
lock.unlock()
print("pid \(ProcessInfo.processInfo.processIdentifier)")
print("type \(UInt(bitPattern: unsafeBitCast(Node.self, to: UnsafeRawPointer.self))) \(100_000 + 3 * 10_000)")
print("type \(UInt(bitPattern: unsafeBitCast(Leaf.self, to: UnsafeRawPointer.self))) \(20_000 + 1_000 + 2_000 + 3_000)")
print("end")
fflush(stdout)
while true { Thread.sleep(forTimeInterval: 1000) }
withExtendedLifetime(kept) {}
