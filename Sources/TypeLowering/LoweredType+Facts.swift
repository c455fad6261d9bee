/// The one way a reply takes the library's facts about a type and its children, whichever
/// reading (by name, through a class's field record, through a C struct's field record) found them.
extension LoweredType {
    /// The type's own kind, size, alignment and stride, as the library lowered it.
    mutating func take(_ info: LoweredInfo) {
        kind = info.kind
        size = info.size
        alignment = info.alignment
        stride = info.stride
    }

    /// Appends the type's first `count` children (at most the wire's limit), each read by `child`
    /// and lowered by `lower`, which may also fill in the entry (its mangled type) and returns the
    /// child type's facts, or nil when the library could not lower it.
    mutating func appendChildren(
        count: Int, reading child: (Int) -> LoweredChild?, lowering lower: (LoweredChild, inout Child) -> LoweredInfo?
    ) {
        for index in 0..<min(count, LoweringWire.maximumChildren) {
            guard let found = child(index) else { continue }
            var entry = Child(found, index: index)
            let info = lower(found, &entry)
            entry.take(info, childHasType: found.typeRef != nil)
            children.append(entry)
        }
    }
}

extension LoweredType.Child {
    /// A child as the library names it: an unnamed one (a tuple element) by its position.
    init(_ child: LoweredChild, index: Int) {
        self.init(name: child.name.isEmpty ? "#\(index)" : child.name, offset: child.offset)
    }

    /// The facts of the child's type: `info` when the library lowered it; `unknown` when the
    /// child has a type the library could not lower (unlike an enum case without payload, which
    /// has no type and stays without a kind).
    mutating func take(_ info: LoweredInfo?, childHasType: Bool) {
        if let info {
            kind = info.kind
            size = info.size
            alignment = info.alignment
            stride = info.stride
        } else if childHasType {
            kind = .unknown
        }
    }
}
