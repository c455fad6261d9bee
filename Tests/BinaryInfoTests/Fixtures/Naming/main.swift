// Field types whose manglings hold symbolic references followed by back-references: the
// shapes of issue 8's wrong names, built optimised by StaticMirrorComparisonTests.

final class Operation {}

/// Six optionals of one same-module class: `<ref>…GSg7barrier_AD8veryHighAD…0B3Lowt`.
final class OperationQueue {
    var firstPriority:
        (
            barrier: Unmanaged<Operation>?, veryHigh: Unmanaged<Operation>?, high: Unmanaged<Operation>?,
            normal: Unmanaged<Operation>?, low: Unmanaged<Operation>?, veryLow: Unmanaged<Operation>?
        ) = (nil, nil, nil, nil, nil, nil)
    var operations: [Operation] = []
}

protocol CodingKeyLike {}
protocol Formatting {}
struct PlainFormat: Formatting {}

/// A same-module protocol repeated through a back-reference (`<ref>_pXp_AA_pXpt`).
enum ArgumentError {
    case wrongKeyType(any CodingKeyLike.Type, any CodingKeyLike.Type)
    case custom(@Sendable ([any CodingKeyLike]) -> any CodingKeyLike)
    case none
}

/// Tuples of standard types whose later elements are back-references.
struct Template {
    var elements: (Substring, Substring, Substring?, Substring?)
}

/// Generic bases of one, two and three levels, repeated.
struct Outer<T> {
    struct Middle {
        struct Inner { var value: T }
        var inner: Inner
    }
    var middle: Middle
    var inners: (Middle.Inner, Middle.Inner?)
    var middles: [Int: Middle]?
}

/// Associated types and protocol-constrained generics.
struct Joined<Base: Sequence, Format: Formatting> {
    var separator: ContiguousArray<Base.Element>
    var pair: (ContiguousArray<Base.Element>, ContiguousArray<Base.Element>)
    var map: [String: Format]
    var format: Format?
}

private struct Hidden { var value: Int }

/// A private type in a field, and weak and unowned references.
final class Holder {
    fileprivate var hidden = Hidden(value: 1)
    weak var weakQueue: OperationQueue?
    unowned(unsafe) var operation: Operation = Operation()
    var outer: Outer<Int>? = nil
}

let holder = Holder()
print(holder.hidden.value, MemoryLayout<Outer<Int>>.size, MemoryLayout<Joined<[Int], PlainFormat>>.size)
