/// The one way a reply takes the library's facts about a type and its children, whichever
/// reading (by name, through a class's field record, through a C struct's field record) found them.
extension LoweredType {
    /// The type's own kind, size, alignment and stride, as the library lowered it.
    mutating func take(_ info: LoweredInfo) {
        kind = LoweringSession.name(of: info.kind)
        size = info.size
        alignment = info.alignment
        stride = info.stride
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
            kind = LoweringSession.name(of: info.kind)
            size = info.size
            alignment = info.alignment
            stride = info.stride
        } else if childHasType {
            kind = LoweringSession.name(of: .unknown)
        }
    }
}
