// Building a tuple in raw memory, element by element at the offsets its metadata gives. The
// elements were checked against their types before this runs, so every element is
// initialized exactly once and the tuple is complete when it is moved out.

enum TupleValueMemory {
    /// A value of the tuple type `tupleType` whose elements are `elements`, each already of
    /// its element type.
    static func build(_ tupleType: Any.Type, elements: [(type: Any.Type, offset: Int, value: Any)]) -> Any {
        func make<T>(_: T.Type) -> Any {
            let buffer = UnsafeMutablePointer<T>.allocate(capacity: 1)
            defer { buffer.deallocate() }
            let base = UnsafeMutableRawPointer(buffer)
            for element in elements {
                func store<E>(_: E.Type) {
                    guard let value = element.value as? E else { return }
                    (base + element.offset).initializeMemory(as: E.self, to: value)
                }
                store(element.type)
            }
            return buffer.move() as Any
        }
        return make(tupleType)
    }
}
