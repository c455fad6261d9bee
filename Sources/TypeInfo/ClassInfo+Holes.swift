import TypeLayout

extension LayoutHoles {
    /// pahole's view of an in-process type, with every field's alignment read from the
    /// runtime, so the reorder suggestion is available whenever it applies.
    ///
    /// - Parameter type: any type; holes apply to structs, classes and tuples.
    public init(of type: Any.Type) {
        let info = ClassInfo.of(type)
        var alignments: [String: Int] = [:]
        for property in info.propertyInfos where alignments[property.name] == nil {
            alignments[property.name] = ClassInfo.of(property.type).alignment
        }
        for (index, element) in info.tupleElements.enumerated() {
            alignments[element.label ?? ".\(index)"] = ClassInfo.of(element.type).alignment
        }
        self.init(info.layout, alignmentOf: { alignments[$0.name] }, superclass: info.superclassInfo?.layout)
    }
}
