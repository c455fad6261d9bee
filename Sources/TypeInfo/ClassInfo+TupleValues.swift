/// Why a tuple value could not be built. Every message names the tuple type.
public enum TupleValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The ClassInfo describes a type that is not a tuple.
    case notATuple(type: String)
    /// The number of values differs from the number of elements.
    case elementCount(type: String, expected: Int, found: Int)
    /// A value is not of (and cannot be cast to) its element's type.
    case elementMismatch(type: String, index: Int, expected: String, found: String)

    public var description: String {
        switch self {
        case .notATuple(let type):
            return "\(type) is not a tuple"
        case .elementCount(let type, let expected, let found):
            return "\(type) has \(expected) element\(expected == 1 ? "" : "s"), \(found) value\(found == 1 ? " was" : "s were") given"
        case .elementMismatch(let type, let index, let expected, let found):
            return "element \(index) of \(type) is \(expected), the value given is \(found)"
        }
    }
}

extension ClassInfo {
    /// Builds a value of this tuple type from one value per element, in order.
    ///
    /// Swift code cannot write every tuple type as a literal: a one-element tuple with a label,
    /// such as the payload of `case circle(radius: Double)`, has no literal form. This builds any
    /// of them, so the result can be handed to ``makeEnumValue(_:caseNamed:payload:)``.
    ///
    /// - Parameter elements: the values, each of (or castable to) its element's type.
    /// - Returns: the tuple, in an `Any`.
    /// - Throws: ``TupleValueError``; nothing is built when one is thrown.
    public func makeTuple(elements: [Any]) throws(TupleValueError) -> Any {
        guard kind == .tuple else { throw .notATuple(type: qualifiedName) }
        let layout = tupleElements
        guard elements.count == layout.count else {
            throw .elementCount(type: qualifiedName, expected: layout.count, found: elements.count)
        }
        var converted: [Any] = []
        converted.reserveCapacity(elements.count)
        for (index, (element, value)) in zip(layout, elements).enumerated() {
            func cast<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
            guard let typed = cast(element.type) else {
                throw .elementMismatch(
                    type: qualifiedName, index: index, expected: String(reflecting: element.type),
                    found: String(reflecting: Swift.type(of: value)))
            }
            converted.append(typed)
        }
        return TupleValueMemory.build(type, elements: zip(layout, converted).map { ($0.type, $0.offset, $1) })
    }
}
