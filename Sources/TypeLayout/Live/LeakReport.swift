/// The allocations of a target's heap that no root reaches: the answer of `typeinfo leaks`.
///
/// An allocation is listed only when no word of a root (the threads' registers, the writable
/// memory outside the heap less the stale parts of thread stacks) nor of an allocation those
/// reach points into it: a word that only looks like a pointer keeps its allocation off the
/// list, so a leak can be missed, and a listed allocation is one the program can no longer reach.
public struct LeakReport: Sendable, Hashable {
    /// The version of the JSON document this build writes.
    public static let currentSchemaVersion = 1

    /// Which process was read, and how (``HeapCensus/Target``: a leak report is always of an
    /// instant, a stopped process or a core).
    public var target: HeapCensus.Target

    /// What an unreached allocation is.
    public enum Kind: Sendable, Hashable {
        /// A Swift object of the named dynamic type (the metadata's address when the reflection
        /// library could not name it).
        case swiftObject(type: String)
        /// A Swift closure context or box (`HeapLocalVariable` metadata) capturing `captures` values.
        case swiftContext(captures: Int)
        /// Memory from `malloc` whose first word is neither Swift class metadata nor a closure
        /// context's: C memory, a buffer, or a Swift heap object of another kind. Grouped by
        /// usable size.
        case malloc(usableSize: Int)
    }

    /// The unreached allocations of one kind.
    public struct Entry: Sendable, Hashable {
        public var kind: Kind
        /// How many allocations of this kind no root reaches.
        public var count: Int
        /// The sum of their sizes (what `malloc_usable_size` says of each).
        public var bytes: Int
        /// The addresses of the first of them (`--addresses N`), ascending.
        public var addresses: [UInt64]
        /// For closure contexts or boxes whose captures the reflection library laid out, their
        /// types in order (nil for one it could not name): contexts with other captures are
        /// another entry. Nil when not laid out (their words are followed conservatively).
        public var captureTypes: [String?]?

        public init(kind: Kind, count: Int, bytes: Int, addresses: [UInt64] = [], captureTypes: [String?]? = nil) {
            self.kind = kind
            self.count = count
            self.bytes = bytes
            self.addresses = addresses
            self.captureTypes = captureTypes
        }

        /// The type's name, or what is known of the allocation.
        public var name: String {
            switch kind {
            case .swiftObject(let type): return type
            case .swiftContext(let captures):
                if let captureTypes {
                    return "Swift closure context or box (captured: " + captureTypes.map { $0 ?? "?" }.joined(separator: ", ") + ")"
                }
                return "Swift closure context or box (\(captures) captured values)"
            case .malloc(let size): return "malloc'd, not a Swift class instance or closure context (\(size) bytes each)"
            }
        }
    }

    /// What was read, whatever the list holds.
    public struct Totals: Sendable, Hashable, Encodable {
        /// Live allocations in every arena and mapping.
        public var allocations: Int
        /// Their sizes' sum.
        public var heapBytes: Int
        /// The allocations no root reaches.
        public var leakedAllocations: Int
        /// Their sizes' sum.
        public var leakedBytes: Int
        /// The threads whose registers were roots.
        public var threads: Int
        /// The bytes of writable memory scanned as roots.
        public var rootBytes: Int
        /// The bytes of thread stacks left out as stale (below a stack pointer, ended threads').
        public var staleStackBytes: Int

        public init(
            allocations: Int, heapBytes: Int, leakedAllocations: Int, leakedBytes: Int, threads: Int, rootBytes: Int, staleStackBytes: Int
        ) {
            self.allocations = allocations
            self.heapBytes = heapBytes
            self.leakedAllocations = leakedAllocations
            self.leakedBytes = leakedBytes
            self.threads = threads
            self.rootBytes = rootBytes
            self.staleStackBytes = staleStackBytes
        }
    }

    /// A limit of the reading that can hide leaks (never one that lists a reachable allocation).
    public enum Note: Sendable, Hashable {
        /// glibc's thread lists could not be read (`reason`): the stacks it keeps of ended threads
        /// were scanned as roots, so a leak whose address stays there is missed.
        case endedThreadStacksScanned(reason: String)
        /// The core holds no vector registers (`NT_X86_XSTATE` or `NT_PRFPREG`) for `threads` of
        /// its threads: a pointer only such a register held at the instant of the dump is not a
        /// root, so an allocation it alone kept would be listed.
        case vectorRegistersMissing(threads: Int)

        public var text: String {
            switch self {
            case .endedThreadStacksScanned(let reason):
                return
                    "glibc's thread lists were not read (\(reason)): the stacks it keeps of ended threads were scanned as roots, so leaks whose addresses stay there are not listed"
            case .vectorRegistersMissing(let threads):
                return
                    "the core holds no vector registers (NT_X86_XSTATE or NT_PRFPREG) of \(threads) \(threads == 1 ? "thread" : "threads"): an allocation whose only pointer was in an xmm or ymm register when the core was dumped is listed as leaked"
            }
        }
    }

    /// Unreached allocations that hold each other (a strongly connected component of the
    /// unreached allocations' pointers), one entry per shape of cycle.
    public struct Cycle: Sendable, Hashable, Encodable {
        /// The holders around one cycle of the component, each with the property (or offset) that
        /// points to the next, and the first again at the end: `LiveLeaks.CycleA.other`,
        /// `LiveLeaks.CycleB.other`, `LiveLeaks.CycleA`. Rotated to start at its least holder.
        public var shape: [String]
        /// How many components have this shape.
        public var count: Int
        /// How many allocations those components hold in all (a component can hold more than the
        /// cycle shown).
        public var allocations: Int

        public init(shape: [String], count: Int, allocations: Int) {
            self.shape = shape
            self.count = count
            self.allocations = allocations
        }
    }

    public var totals: Totals
    /// The unreached allocations by kind, most bytes first.
    public var entries: [Entry]
    /// The retain cycles among them, most first.
    public var cycles: [Cycle]
    public var notes: [Note]

    public init(target: HeapCensus.Target, totals: Totals, entries: [Entry], cycles: [Cycle] = [], notes: [Note] = []) {
        self.target = target
        self.totals = totals
        self.entries = entries.sorted { ($0.bytes, $0.count, $1.name) > ($1.bytes, $1.count, $0.name) }
        self.cycles = cycles.sorted { ($0.count, $1.shape.joined()) > ($1.count, $0.shape.joined()) }
        self.notes = notes
    }

    /// The report as text: what was read and how, the totals, then one row per kind (count,
    /// bytes, name last, so `grep` and `awk` see whole rows).
    public var text: String {
        var lines: [String] = []
        if target.corePath != nil {
            lines.append(target.name + ", as it was when dumped")
        } else {
            lines.append(
                target.name + ", " + (target.stop?.phrase ?? "stopped while it was read")
                    + ": leaks holds the process still while it marks what the roots reach, since a pointer moved during the marking could make a reachable allocation look leaked"
            )
        }
        lines.append(
            "heap: \(totals.heapBytes) bytes in \(totals.allocations) allocations; no root reaches \(totals.leakedAllocations) of them (\(totals.leakedBytes) bytes)"
        )
        lines.append(
            "roots: the registers of \(totals.threads) threads and \(totals.rootBytes) bytes of writable memory outside the heap; \(totals.staleStackBytes) bytes of stale thread stacks left out"
        )
        lines += notes.map { "note: " + $0.text }
        lines.append("")
        if entries.isEmpty {
            lines.append("no leaks: every allocation is reached from a root")
            return lines.joined(separator: "\n") + "\n"
        }
        let rows = [["count", "bytes", "type"]] + entries.map { [String($0.count), String($0.bytes), $0.name] }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            let numbers = zip(row.dropLast(), widths).map { String(repeating: " ", count: $1 - $0.count) + $0 }
            lines.append((numbers + [row[2]]).joined(separator: "  "))
            if index > 0, !entries[index - 1].addresses.isEmpty {
                let indent = String(repeating: " ", count: widths.reduce(0) { $0 + $1 + 2 })
                lines.append(indent + "at " + entries[index - 1].addresses.map { "0x" + String($0, radix: 16) }.joined(separator: " "))
            }
        }
        if !cycles.isEmpty {
            lines.append("")
            lines.append("cycles (unreached allocations that hold each other):")
            for cycle in cycles {
                let extra = cycle.allocations > cycle.count * (cycle.shape.count - 1) ? " (\(cycle.allocations) allocations in all)" : ""
                lines.append("\(cycle.count) cycle\(cycle.count == 1 ? "" : "s"): " + cycle.shape.joined(separator: " → ") + extra)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
