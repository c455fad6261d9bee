/// Who holds an allocation of a target's heap: the answer of `typeinfo retainers`.
///
/// A path runs from a root (a global, a thread's stack or register, thread-local storage, a
/// mapping) through allocations to the object, each step a word that points into the next
/// holder. The marking is conservative (any word that points into an allocation counts, and a
/// word that only looks like a pointer is a holder too); a Swift weak reference is never a step.
public struct RetainersReport: Sendable, Hashable {
    /// The version of the JSON document this build writes.
    public static let currentSchemaVersion = 1

    /// Which process was read, and how (always an instant: a stopped process or a core).
    public var target: HeapCensus.Target

    /// What holds the next step of a path (or the object), and where in it.
    public enum Holder: Sendable, Hashable {
        /// A word of an image's data or bss: the symbol whose bytes hold it (demangled when it is
        /// a Swift name; nil when no sized symbol covers the word) and the image's file name.
        case global(symbol: String?, image: String, address: UInt64)
        /// A general-purpose register of a thread.
        case register(thread: Int32, name: String)
        /// A word of a thread's stack.
        case stack(thread: Int32, address: UInt64)
        /// A word of a thread's static thread-local storage or control block.
        case threadLocalStorage(thread: Int32, address: UInt64)
        /// A word of another writable mapping (anonymous when `path` is nil).
        case mapping(path: String?, address: UInt64)
        /// An allocation of the heap.
        case allocation(Allocation, via: Part)
    }

    /// An allocation, as far as it is known.
    public struct Allocation: Sendable, Hashable {
        public var address: UInt64
        /// Its usable size.
        public var size: Int
        public var kind: Kind

        public init(address: UInt64, size: Int, kind: Kind) {
            self.address = address
            self.size = size
            self.kind = kind
        }
    }

    /// What an allocation is.
    public enum Kind: Sendable, Hashable {
        /// A Swift object of this dynamic type (nil: its class metadata has no name the reflection
        /// library gave).
        case swiftObject(type: String?)
        /// A closure context or box capturing `captures` values; `function` names the closure whose
        /// context it is, when the word before the pointer to it in its holder is a code address
        /// a symbol names.
        case swiftContext(captures: Int, function: String?)
        /// Memory from `malloc` that is neither.
        case malloc
    }

    /// Where in an allocation the word pointing to the next holder lies.
    public enum Part: Sendable, Hashable {
        /// A stored property, with the fields of structs and tuples inside it (`state.items`);
        /// `unowned` when the property is an `unowned` reference.
        case field(path: [String], unowned: Bool)
        /// An element of array storage.
        case element(index: Int)
        /// A byte offset, with why no more is said.
        case offset(UInt64, unknown: String)
        /// A word of a Swift object at a byte offset where its type's layout puts no reference
        /// (an integer, bytes, an `Unmanaged`, a weak reference, state of no listed property),
        /// which points into the next holder: counted as holding it all the same, since memory
        /// reached only so is not known to be unreachable. `field` is the stored property the
        /// word lies in, when known (`bits`, `state.raw`).
        case conservative(UInt64, field: [String]?)
    }

    /// One path from a root: its holders, root first; the last holds the object.
    public struct Path: Sendable, Hashable {
        public var holders: [Holder]

        public init(holders: [Holder]) { self.holders = holders }
    }

    /// The object asked about.
    public var object: Allocation
    /// The shortest paths found, shortest first, each ending in a different holder; empty when no
    /// root reaches the object.
    public var paths: [Path]
    /// How many allocations a root reaches hold the object (a word of theirs points into it).
    public var holderCount: Int
    /// How many root words point into the object (up to 64 are counted).
    public var rootCount: Int
    /// The bytes the object retains: its own and those of every allocation only it holds (which
    /// would become unreachable were it gone; its dominator subtree). nil when not computed.
    public var retainedBytes: Int?
    /// The position in ``paths`` of the shortest path from a root that outlasts a function call
    /// (a global, thread-local storage or a mapping: not a thread's stack or registers); nil
    /// when no such root reaches the object.
    public var lastingPath: Int?
    /// Whether ``lastingPath`` was added after the shortest path through each holder (it goes
    /// through a holder another path goes through, by a longer way).
    public var lastingPathAdded = false

    public init(
        target: HeapCensus.Target, object: Allocation, paths: [Path], holderCount: Int, rootCount: Int, retainedBytes: Int? = nil
    ) {
        self.target = target
        self.object = object
        self.paths = paths
        self.holderCount = holderCount
        self.rootCount = rootCount
        self.retainedBytes = retainedBytes
    }

    /// Whether a root reaches the object.
    public var isReachable: Bool { !paths.isEmpty }
}

/// `typeinfo retainers --type T`: the paths to every object of a type, grouped by shape.
public struct RetainerShapes: Sendable, Hashable {
    public static let currentSchemaVersion = 1

    public var target: HeapCensus.Target
    /// The type asked for.
    public var type: String
    /// One shape of path (``RetainersReport/Holder/shape``, root first) and how many objects
    /// have their shortest path so.
    public struct Group: Sendable, Hashable, Encodable {
        public var shape: [String]
        public var count: Int
        /// An example object's address.
        public var example: UInt64
        /// The bytes the group's objects retain, each allocation counted once (an object another
        /// object of the type dominates is inside that one's size). nil when not computed.
        public var retainedBytes: Int?

        public init(shape: [String], count: Int, example: UInt64, retainedBytes: Int? = nil) {
            self.shape = shape
            self.count = count
            self.example = example
            self.retainedBytes = retainedBytes
        }

        private enum CodingKeys: String, CodingKey { case shape, count, example, retainedBytes }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shape, forKey: .shape)
            try container.encode(count, forKey: .count)
            try container.encode(example, forKey: .example)
            try container.encode(retainedBytes, forKey: .retainedBytes)
        }
    }

    /// Most objects first.
    public var groups: [Group]
    /// Objects of the type no root reaches (`typeinfo leaks` lists them).
    public var unreachable: Int

    public init(target: HeapCensus.Target, type: String, groups: [Group], unreachable: Int) {
        self.target = target
        self.type = type
        self.groups = groups.sorted { ($0.count, $1.shape.joined()) > ($1.count, $0.shape.joined()) }
        self.unreachable = unreachable
    }
}
