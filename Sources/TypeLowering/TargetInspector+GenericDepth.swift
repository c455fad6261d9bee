import BinaryInfo
import TypeLayout

extension TargetInspector {
    /// The depth of a generic type's own generic parameters and how many it declares, from the
    /// generic context headers of its descriptor and of the types it is nested in, read from the
    /// target's memory: `Outer<Tag>.Inner<Context>`'s own parameter `Context` is at depth 1 (`qd__`),
    /// one level of parameters (`Tag`) above it.
    ///
    /// A context descriptor is `uint32 flags` (the kind in its low 5 bits, 0x80 generic),
    /// `int32 parent` (relative, indirect when its low bit is set), …; a generic struct's or enum's
    /// parameter count (`uint16 NumParams`, its own and its parents') is at 36, a class's at 52.
    ///
    /// - Parameter descriptor: a struct's, enum's or class's type descriptor in the target.
    /// - Returns: nil when the chain up to its module holds another context (an extension, a
    ///   private scope), whose parameters are not counted here, or cannot be read.
    public func ownGenericParameters(ofDescriptor descriptor: UInt64) -> (depth: Int, count: Int)? {
        // Each nominal level's total parameter count, innermost first.
        var totals: [Int] = []
        var current = descriptor
        for _ in 0..<64 {
            guard let flags = try? memory.read(UInt32.self, at: current, what: "context descriptor flags") else { return nil }
            let headerOffset: UInt64
            switch ContextDescriptorKind(flags: flags) {
            case .module?:
                let own = totals.indices.map { totals[$0] - ($0 + 1 < totals.count ? totals[$0 + 1] : 0) }
                guard let innermost = own.first, own.allSatisfy({ $0 >= 0 }) else { return nil }
                return (own.dropFirst().filter { $0 > 0 }.count, innermost)
            case .struct?, .enum?: headerOffset = 36
            case .class?: headerOffset = 52
            default: return nil
            }
            if flags & ContextDescriptorKind.isGenericFlag == 0 {
                totals.append(0)
            } else {
                guard let count = try? memory.read(UInt16.self, at: current &+ headerOffset, what: "generic parameter count") else {
                    return nil
                }
                totals.append(Int(count))
            }
            guard let parent = parentContext(of: current) else { return nil }
            current = parent
        }
        return nil
    }

    /// The parent of the context descriptor at `address` (a relative pointer at 4, to a pointer
    /// when its low bit is set); nil when it has none or it cannot be read.
    private func parentContext(of address: UInt64) -> UInt64? {
        guard let offset = try? memory.read(Int32.self, at: address &+ 4, what: "context descriptor parent"), offset != 0 else {
            return nil
        }
        let target = UInt64(bitPattern: Int64(bitPattern: address &+ 4) &+ Int64(offset & ~1))
        guard offset & 1 != 0 else { return target }
        guard let pointer = try? memory.read(UInt64.self, at: target, what: "indirect context descriptor parent"), pointer != 0 else {
            return nil
        }
        return pointer
    }
}
